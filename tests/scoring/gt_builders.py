"""Builders and hypothesis strategies shared by the Grand Tour scoring tests.

A tour of ``n`` teams has team ids 1..n named by colour, riders ``10 t + 1`` (Rouleur, "<C>R")
and ``10 t + 2`` (Sprinteur, "<C>S"), so a test can write riders by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hypothesis import strategies as st

from scoring.grand_tour import (
    GrandTourRules,
    Rider,
    RiderResult,
    StageResults,
    Team,
    TourSetup,
)

COLOURS = ("Red", "Blue", "Green", "Orange", "White", "Pink")


def make_team(team_id: int) -> Team:
    colour = COLOURS[team_id - 1]
    return Team(
        id=team_id,
        name=colour,
        riders=(
            Rider(id=10 * team_id + 1, name=f"{colour[0]}R", team_id=team_id, role="rouleur"),
            Rider(id=10 * team_id + 2, name=f"{colour[0]}S", team_id=team_id, role="sprinteur"),
        ),
    )


def make_setup(
    teams: int = 3, stages: int = 3, rest_days: Iterable[int] = (), seed: int = 7
) -> TourSetup:
    return TourSetup(
        seed=seed,
        teams=tuple(make_team(t) for t in range(1, teams + 1)),
        stage_count=stages,
        rest_days_after=frozenset(rest_days),
    )


def rider_id(setup: TourSetup, name: str) -> int:
    """The id of the rider called ``name`` ("RS", "BR"...)."""
    return next(r.id for r in setup.riders if r.name == name)


def stage(
    setup: TourSetup,
    number: int,
    lines: Sequence[tuple[str, str, int, int] | tuple[str, str, int, int, int | None]],
) -> StageResults:
    """A stage from lines ``(name, "m:ss", sprint, mountain[, exhaustion])`` in finishing order."""
    rows = []
    for position, line in enumerate(lines, start=1):
        name, clock, sprint, mountain = line[:4]
        exhaustion = line[4] if len(line) == 5 else None
        minutes, seconds = clock.split(":")
        rows.append(
            RiderResult(
                rider=rider_id(setup, name),
                position=position,
                minutes=int(minutes),
                seconds=int(seconds),
                sprint_points=sprint,
                mountain_points=mountain,
                exhaustion=exhaustion,
            )
        )
    return StageResults(number=number, rows=tuple(rows))


def simple_stage(setup: TourSetup, number: int, names: Sequence[str]) -> StageResults:
    """Everyone on the same time, no points: only the finishing order matters."""
    return stage(setup, number, [(name, "0:00", 0, 0) for name in names])


# ---- hypothesis strategies ---------------------------------------------------------------------


@st.composite
def stage_rows(
    draw: st.DrawFn, setup: TourSetup, timing: Sequence[int] = (50, 40, 30, 20, 10, 0)
) -> tuple[RiderResult, ...]:
    """VALID rows for one stage: positions a permutation, times non-decreasing on the tile."""
    ids = [r.id for r in setup.riders]
    order = draw(st.permutations(ids))
    clocks = draw(
        st.lists(
            st.tuples(st.integers(0, 3), st.sampled_from(list(timing))),
            min_size=len(ids),
            max_size=len(ids),
        )
    )
    times = sorted(60 * m + s for m, s in clocks)
    small = st.sampled_from([0, 0, 0, 1, 2, 3, 4])
    rows = []
    for position, (rid, time) in enumerate(zip(order, times, strict=True), start=1):
        rows.append(
            RiderResult(
                rider=rid,
                position=position,
                minutes=time // 60,
                seconds=time % 60,
                sprint_points=draw(small),
                mountain_points=draw(small),
                exhaustion=draw(st.none() | st.integers(0, 9)),
            )
        )
    return tuple(rows)


@st.composite
def tours(
    draw: st.DrawFn, max_teams: int = 4, max_stages: int = 8
) -> tuple[TourSetup, list[StageResults], GrandTourRules]:
    """A tour, the results of its first k stages (k >= 1) and rules varied where they matter."""
    team_count = draw(st.integers(2, max_teams))
    stage_count = draw(st.integers(1, max_stages))
    rest = draw(st.sets(st.integers(1, max(1, stage_count - 1)))) if stage_count > 1 else set()
    setup = make_setup(team_count, stage_count, rest, seed=draw(st.integers(0, 10**6)))
    rules = GrandTourRules(
        jersey_needs_points=draw(st.booleans()),
        tp_order_from_stage=draw(st.integers(1, max_stages + 1)),
    )
    played = draw(st.integers(1, stage_count))
    stages = [StageResults(number=n, rows=draw(stage_rows(setup))) for n in range(1, played + 1)]
    return setup, stages, rules
