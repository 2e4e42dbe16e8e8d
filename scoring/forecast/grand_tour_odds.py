"""Grand Tour title odds: stage templates and the simulation scorer, through
:func:`scoring.grand_tour.compute_standings` (resumed from the current standings, only the end
kept). The exact statuses are in :mod:`scoring.forecast.grand_tour`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.forecast.grand_tour import GrandTour
from scoring.forecast.montecarlo import Scorer, SimulationSpec
from scoring.forecast.strengths import Strengths
from scoring.grand_tour import RiderResult, StageResults, compute_standings


@dataclass(frozen=True)
class StageTemplate:
    """A stage's outcome by finishing place: per place 1..n its time in seconds, sprint and
    mountain points and exhaustion cards (None: not reported). A simulated stage hands place p's
    line to the rider the drawn order puts p-th."""

    rows: tuple[tuple[int, int, int, int | None], ...]


def templates_from_results(stages: Sequence[StageResults]) -> tuple[StageTemplate, ...]:
    """Templates from resolved stages (the tour's own, or a simulator's runs over a course)."""
    out = []
    for stage in stages:
        rows = sorted(stage.rows, key=lambda r: r.position)
        out.append(
            StageTemplate(
                tuple((r.time, r.sprint_points, r.mountain_points, r.exhaustion) for r in rows)
            )
        )
    return tuple(out)


def grand_tour_scorer(tour: GrandTour, pools: Sequence[Sequence[StageTemplate]]) -> Scorer:
    """A scorer for :func:`scoring.forecast.montecarlo.simulate` (units: the tour's riders in
    entry order); ``pools[i]`` holds the templates remaining stage ``i`` draws from (its
    course's: the tour's own stages on it when there are enough, else simulator runs)."""
    if len(pools) < tour.events_left or any(not p for p in pools[: tour.events_left]):
        raise ValueError("one non-empty template pool per remaining stage is needed")
    riders = [r.id for r in tour.setup.riders]
    if any(len(t.rows) != len(riders) for p in pools for t in p):
        raise ValueError("every template must have one line per rider of the tour")
    rider_index = {r: i for i, r in enumerate(riders)}
    teams = [t.id for t in tour.setup.teams]
    team_index = {t: i for i, t in enumerate(teams)}
    now = tour.now()
    first = len(tour.stages) + 1
    rules = tour.rules
    setup = tour.setup
    previous = now if now.after_stage is not None else None
    # Each template's lines as a stage result row takes them (minutes, seconds), made once.
    lines = [
        [tuple((t // 60, t % 60, sp, mp, ex) for t, sp, mp, ex in tpl.rows) for tpl in pool]
        for pool in pools
    ]

    def score(
        orders: Sequence[np.ndarray], uniforms: np.ndarray, theta: np.ndarray
    ) -> dict[str, list[int]]:
        stages = []
        for k, (order, draw) in enumerate(zip(orders, uniforms[:, 0].tolist(), strict=True)):
            template = lines[k][int(draw * len(lines[k]))]
            results = [
                RiderResult(riders[u], place, minutes, seconds, sprint, mountain, exhaustion)
                for place, (u, (minutes, seconds, sprint, mountain, exhaustion)) in enumerate(
                    zip(order.tolist(), template, strict=True), start=1
                )
            ]
            stages.append(StageResults(first + k, tuple(results)))
        if not stages:
            final = now  # nothing left to simulate: the standings as they are
        else:
            final = compute_standings(setup, stages, rules, previous=previous, last_only=True)[0]
        out: dict[str, list[int]] = {}
        for title, rows in (
            ("yellow", final.general),
            ("green", final.sprint),
            ("polka_dot", final.mountain),
        ):
            ranks = [0] * len(riders)
            for row in rows:
                ranks[rider_index[row.rider]] = row.rank
            out[title] = ranks
        for title, team_rows in (("team", final.team), ("tour_points", final.tour_points)):
            ranks = [0] * len(teams)
            for team_row in team_rows:
                ranks[team_index[team_row.team]] = team_row.rank
            out[title] = ranks
        return out

    return score


def grand_tour_spec(tour: GrandTour, strengths: Strengths) -> SimulationSpec:
    """The simulation of the remaining stages; the main classification is ``yellow`` (the
    API's ``general`` positions)."""
    riders = tuple(r.id for r in tour.setup.riders)
    if tuple(strengths.units) != riders:
        raise ValueError("strengths must be fitted on the tour's riders in entry order")
    teams = tuple(t.id for t in tour.setup.teams)
    everyone = tuple(range(len(riders)))
    titles: dict[str, tuple[Hashable, ...]] = {
        "yellow": riders,
        "green": riders,
        "polka_dot": riders,
        "team": teams,
        "tour_points": teams,
    }
    return SimulationSpec(strengths, (everyone,) * tour.events_left, titles, "yellow", 1)


def stage_orders(tour: GrandTour) -> list[list[int]]:
    """Each resolved stage's finishing order (rider ids), the input of the strength fit."""
    return [[r.rider for r in sorted(s.rows, key=lambda r: r.position)] for s in tour.stages]


__all__ = [
    "StageTemplate",
    "grand_tour_scorer",
    "grand_tour_spec",
    "stage_orders",
    "templates_from_results",
]
