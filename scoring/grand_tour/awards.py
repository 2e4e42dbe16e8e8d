"""Light-hearted end-of-tour awards of a Grand Tour (docs/tour-awards.md), pure.

Computed from the results of a finished tour and its standings after each stage. An award is
given only when it has a single winner and a meaningful figure; otherwise it is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from scoring.grand_tour.model import StageResults, Standings, TourSetup

PODIUM_SIZE = 3
#: A "most ..." count must reach this to mean something (one win is not a haul).
MIN_COUNT = 2
#: A run without a podium must last this many stages.
MIN_RUN = 2


@dataclass(frozen=True)
class Award:
    """``key`` names the award; ``figure`` is a count of stages, places or seconds."""

    key: str
    figure: int
    rider: int | None = None
    team: int | None = None
    stage: int | None = None


def _single_max(values: Mapping[int, int]) -> tuple[int, int] | None:
    """The one key holding the highest value, with it; ``None`` on a tie or nothing."""
    if not values:
        return None
    best = max(values.values())
    holders = [k for k, v in values.items() if v == best]
    return (holders[0], best) if len(holders) == 1 else None


def _count_award(
    key: str, setup: TourSetup, stages: Sequence[StageResults], hit: Callable[[int], bool]
) -> Award | None:
    counts = {r.id: 0 for r in setup.riders}
    for stage in stages:
        for row in stage.rows:
            if hit(row.position):
                counts[row.rider] += 1
    found = _single_max(counts)
    if found is None or found[1] < MIN_COUNT:
        return None
    return Award(key, found[1], rider=found[0])


def most_stage_wins(setup: TourSetup, stages: Sequence[StageResults]) -> Award | None:
    return _count_award("most_stage_wins", setup, stages, lambda p: p == 1)


def most_second_places(setup: TourSetup, stages: Sequence[StageResults]) -> Award | None:
    return _count_award("most_second_places", setup, stages, lambda p: p == 2)


def most_podiums(setup: TourSetup, stages: Sequence[StageResults]) -> Award | None:
    return _count_award("most_podiums", setup, stages, lambda p: p <= PODIUM_SIZE)


def biggest_stage_loss(stages: Sequence[StageResults]) -> Award | None:
    """The most seconds one rider lost to the stage's fastest rider on a single stage."""
    losses: list[tuple[int, int, int]] = []  # (seconds, rider, stage)
    for stage in stages:
        if not stage.rows:
            continue
        fastest = min(row.time for row in stage.rows)
        losses.extend((row.time - fastest, row.rider, stage.number) for row in stage.rows)
    if not losses:
        return None
    worst = max(loss for loss, _r, _s in losses)
    holders = [(r, s) for loss, r, s in losses if loss == worst]
    if worst <= 0 or len(holders) != 1:
        return None
    rider, number = holders[0]
    return Award("biggest_stage_loss", worst, rider=rider, stage=number)


def closest_teammates(setup: TourSetup, final: Standings) -> Award | None:
    """The team whose two riders finished the General closest in time (seconds apart)."""
    time = {row.rider: row.time for row in final.general}
    gaps: dict[int, int] = {}
    for team in setup.teams:
        if len(team.riders) == 2 and all(r.id in time for r in team.riders):
            first, second = team.riders
            gaps[team.id] = abs(time[first.id] - time[second.id])
    if len(gaps) < 2:  # "closest" needs a second pair to compare with
        return None
    found = _single_max({team: -gap for team, gap in gaps.items()})
    return None if found is None else Award("closest_teammates", -found[1], team=found[0])


def longest_run_without_podium(setup: TourSetup, stages: Sequence[StageResults]) -> Award | None:
    """The most consecutive stages one rider finished outside the first three."""
    run = {r.id: 0 for r in setup.riders}
    best = dict(run)
    for stage in sorted(stages, key=lambda s: s.number):
        for row in stage.rows:
            run[row.rider] = 0 if row.position <= PODIUM_SIZE else run[row.rider] + 1
            best[row.rider] = max(best[row.rider], run[row.rider])
    found = _single_max(best)
    if found is None or found[1] < MIN_RUN:
        return None
    return Award("longest_run_without_podium", found[1], rider=found[0])


def biggest_climber(standings: Sequence[Standings]) -> Award | None:
    """The most General places gained from the standings after stage 1 to the final ones."""
    if len(standings) < 2:
        return None
    start = {row.rider: row.rank for row in standings[0].general}
    end = {row.rider: row.rank for row in standings[-1].general}
    gained = {rider: start[rider] - rank for rider, rank in end.items() if rider in start}
    found = _single_max(gained)
    if found is None or found[1] <= 0:
        return None
    return Award("biggest_climber", found[1], rider=found[0])


def lanterne_rouge(final: Standings) -> Award | None:
    """The last rider of the final General, with the time behind the leader (never level)."""
    if len(final.general) < 2:
        return None
    last = final.general[-1]
    if last.gap <= 0:
        return None
    return Award("lanterne_rouge", last.gap, rider=last.rider)


def tour_awards(
    setup: TourSetup, stages: Sequence[StageResults], standings: Sequence[Standings]
) -> tuple[Award, ...]:
    """The awards of a finished tour, in the documented order; ``()`` before the last stage.

    ``stages`` are the tour's results (stages 1..n) and ``standings`` the standings after each.
    """
    if setup.stage_count == 0 or len(stages) != setup.stage_count or not standings:
        return ()
    final = standings[-1]
    found = (
        most_stage_wins(setup, stages),
        most_second_places(setup, stages),
        most_podiums(setup, stages),
        biggest_stage_loss(stages),
        closest_teammates(setup, final),
        longest_run_without_podium(setup, stages),
        biggest_climber(standings),
        lanterne_rouge(final),
    )
    return tuple(a for a in found if a is not None)
