"""Standings after every stage of a Grand Tour (GT-3 to GT-10).

The service recomputes a tour from stage 1 whenever a stage is resolved or corrected, so
:func:`compute_standings` walks the stages once, carrying running totals, and builds one
:class:`Standings` per stage: linear in the number of stages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from operator import attrgetter

from scoring.grand_tour.classifications import (
    award_jerseys,
    best_position,
    classification_bonus,
    rank_general,
    rank_points,
    rank_teams,
    rest_day_awards,
    stage_tie_breaks,
)
from scoring.grand_tour.model import (
    ExhaustionRow,
    RiderResult,
    StageResults,
    StageSummary,
    Standings,
    TourPointsRow,
    TourSetup,
)
from scoring.grand_tour.order import drawn_start_order, start_order
from scoring.grand_tour.rules import GrandTourRules

# GT-4.1: the podium is the first three across the line, whatever ``podium_tp`` pays.
PODIUM_SIZE = 3


def initial_standings(setup: TourSetup, rules: GrandTourRules) -> Standings:
    """The standings before stage 1: empty lists, no jerseys, stage 1's drawn start order."""
    return Standings(
        after_stage=None,
        general=(),
        sprint=(),
        mountain=(),
        team=(),
        jerseys={"yellow": None, "green": None, "polka_dot": None},
        tour_points=(),
        exhaustion=(),
        next_start_order=drawn_start_order(setup, 1) if setup.stage_count >= 1 else None,
    )


def compute_standings(
    setup: TourSetup,
    stages: Sequence[StageResults],
    rules: GrandTourRules,
    *,
    previous: Standings | None = None,
    last_only: bool = False,
) -> list[Standings]:
    """The standings after each of ``stages`` (stages 1..k, in order, already valid).

    Element ``i`` holds the standings after stage ``i + 1``. Raises ``ValueError`` when the
    stages are not numbered 1..k, run past the tour's length, or do not list every rider of the
    tour exactly once with positions 1..n: the service validates results before resolving them,
    so that is a programming error, not a scorekeeper's.

    ``previous`` resumes from the standings after stage k (``stages`` then start at k + 1) and
    ``last_only`` returns only the standings after the last stage given: a forecast scores
    thousands of simulated endings of one tour (scoring/forecast) and needs only the end.
    """
    riders = setup.riders
    team_of = {r.id: r.team_id for r in riders}
    time = {r.id: 0 for r in riders}
    sprint = {r.id: 0 for r in riders}
    mountain = {r.id: 0 for r in riders}
    podium_tp = {t.id: 0 for t in setup.teams}
    rest_tp = {t.id: 0 for t in setup.teams}
    first = 1
    if previous is not None and previous.after_stage is not None:
        first = previous.after_stage + 1
        time.update({row.rider: row.time for row in previous.general})
        sprint.update({row.rider: row.points for row in previous.sprint})
        mountain.update({row.rider: row.points for row in previous.mountain})
        podium_tp.update({row.team: row.podium for row in previous.tour_points})
        rest_tp.update({row.team: row.rest_days for row in previous.tour_points})
    out: list[Standings] = []
    rider_ids = {r.id for r in riders}  # every stage lists each of them once (checked)
    places = set(range(1, len(riders) + 1))
    for expected, stage in enumerate(stages, start=first):
        _check_stage(setup, stage, expected, rider_ids, places)
        for row in stage.rows:
            time[row.rider] += row.time
            sprint[row.rider] += row.sprint_points
            mountain[row.rider] += row.mountain_points
        by_position = sorted(stage.rows, key=attrgetter("position"))
        # GT-4.1: podium TP by position, as many places as the parameter pays.
        for row, value in zip(by_position, rules.podium_tp, strict=False):
            podium_tp[team_of[row.rider]] += value
        final = stage.number == setup.stage_count
        # GT-1.2: a Rest Day sits between two stages, so none follows the last one.
        rest_day = stage.number in setup.rest_days_after and not final
        if last_only and expected - first < len(stages) - 1 and not rest_day:
            continue  # nothing of this stage's standings is kept or carried

        number = stage.number
        position = {row.rider: row.position for row in stage.rows}
        general = rank_general(riders, time, position, stage=number)
        sprint_rows = rank_points(riders, sprint, position, stage=number)
        mountain_rows = rank_points(riders, mountain, position, stage=number)
        awards = rest_day_awards(general, sprint_rows, mountain_rows, rules) if rest_day else ()
        for _, rider_id in awards:
            rest_tp[team_of[rider_id]] += rules.rest_day_tp
        if last_only and expected - first < len(stages) - 1:
            continue  # a Rest Day's awards carry on; its standings are not kept

        best = best_position(setup.teams, position)
        team_rows = rank_teams(setup.teams, time, best, stage=number)
        jerseys = award_jerseys(general, sprint_rows, mountain_rows, rules)
        bonus = (
            classification_bonus(
                setup.teams,
                setup.stage_count,
                general,
                sprint_rows,
                mountain_rows,
                team_rows,
                rules,
            )
            if final
            else {t.id: 0 for t in setup.teams}
        )
        tour_points = _rank_tour_points(setup, podium_tp, rest_tp, bonus, best, number)
        row_of = {row.rider: row for row in stage.rows}
        totals = {row.team: row.total for row in tour_points}
        rested = {rider_id for _, rider_id in awards}
        out.append(
            Standings(
                after_stage=stage.number,
                general=general,
                sprint=sprint_rows,
                mountain=mountain_rows,
                team=team_rows,
                jerseys=jerseys,
                tour_points=tour_points,
                exhaustion=tuple(
                    ExhaustionRow(
                        rider=r.id, cards=_carry(row_of[r.id], rest_day and r.id not in rested)
                    )
                    for r in riders
                ),
                next_start_order=(
                    None if final else start_order(setup, rules, stage.number + 1, totals, general)
                ),
                stage=StageSummary(
                    number=stage.number,
                    podium=tuple(row.rider for row in by_position[:PODIUM_SIZE]),
                    rest_day=rest_day,
                    rest_day_awards=awards,
                ),
                final=final,
                # GT-9.3: most TP; ties already broken by GT-5.5 in the ranking.
                winner=tour_points[0].team if final and tour_points else None,
            )
        )
    return out


def _carry(row: RiderResult, second_discard: bool) -> int | None:
    """GT-7: the Exhaustion cards a rider starts the next stage with.

    The reported count already holds the cards carried in, so only the latest stage matters;
    an unreported count stays unknown.
    """
    if row.exhaustion is None:
        return None
    cards = row.exhaustion - row.exhaustion // 2  # GT-7.1
    if second_discard:
        cards -= cards // 2  # GT-7.2 / GT-8.2
    return cards


def _rank_tour_points(
    setup: TourSetup,
    podium: Mapping[int, int],
    rest: Mapping[int, int],
    bonus: Mapping[int, int],
    best: Mapping[int, int],
    stage: int,
) -> tuple[TourPointsRow, ...]:
    """GT-9.2: podium + Rest Day + classification TP, most first, ties by GT-5.5 (GT-9.3) on
    ``stage``'s better-placed riders."""
    total = {t.id: podium[t.id] + rest[t.id] + bonus[t.id] for t in setup.teams}
    ordered = sorted(setup.teams, key=lambda t: (-total[t.id], best[t.id]))
    ids = [t.id for t in ordered]
    breaks = stage_tie_breaks("gt_tp_stage_place", stage, ids, total, best)
    return tuple(
        TourPointsRow(
            rank=rank,
            team=t.id,
            name=t.name,
            podium=podium[t.id],
            rest_days=rest[t.id],
            classification=bonus[t.id],
            total=total[t.id],
            tie_break=breaks[rank - 1],
        )
        for rank, t in enumerate(ordered, start=1)
    )


def _check_stage(
    setup: TourSetup,
    stage: StageResults,
    expected: int,
    rider_ids: Set[int],
    places: Set[int],
) -> None:
    """``rider_ids``: the tour's riders' ids; ``places``: 1..n, n riders. As many rows as riders
    and the same sets: each rider and each place exactly once."""
    if stage.number != expected:
        raise ValueError(f"expected stage {expected}, got stage {stage.number}")
    if stage.number > setup.stage_count:
        raise ValueError(f"stage {stage.number} is past the tour's {setup.stage_count} stages")
    if len(stage.rows) != len(rider_ids) or {row.rider for row in stage.rows} != rider_ids:
        raise ValueError(f"stage {stage.number} does not list every rider exactly once")
    if {row.position for row in stage.rows} != places:
        raise ValueError(f"stage {stage.number} positions are not 1..{len(places)}")


__all__ = ["PODIUM_SIZE", "compute_standings", "initial_standings"]
