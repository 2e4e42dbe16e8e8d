"""Orders the tour draws or derives: specialist picks, start orders, the Rest Day hint."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.grand_tour.model import RiderTimeRow, TourSetup
from scoring.grand_tour.rules import GrandTourRules
from scoring.rng import derive_rng


def specialist_order(setup: TourSetup) -> tuple[int, ...]:
    """GT-1.3: team ids in first-pick order of the Specialist draft (the second pick reverses it).

    Drawn from the tour's seed (GT-1.4) by shuffling the teams in entry order.
    """
    ids = [t.id for t in setup.teams]
    derive_rng(setup.seed, "specialist_order").shuffle(ids)
    return tuple(ids)


def recommended_rest_days(stage_count: int) -> int:
    """GT-1.2 hint: 2 Rest Days for 15 or more stages, 1 otherwise, 0 when no gap exists."""
    if stage_count <= 1:
        return 0
    return 2 if stage_count >= 15 else 1


def drawn_start_order(setup: TourSetup, stage_number: int) -> tuple[int, ...]:
    """GT-10.1: a random placing order for ``stage_number``, from the tour's seed."""
    ids = [t.id for t in setup.teams]
    derive_rng(setup.seed, "start_order", stage_number).shuffle(ids)
    return tuple(ids)


def start_order(
    setup: TourSetup,
    rules: GrandTourRules,
    stage_number: int,
    tour_points: Mapping[int, int],
    general: Sequence[RiderTimeRow],
) -> tuple[int, ...]:
    """The order in which teams place their riders for ``stage_number`` (GT-10).

    Before ``tp_order_from_stage`` it is drawn; from it on the team with the fewest TP places
    first and, between teams tied on TP, the one whose rider is best placed in the GC places
    later (GT-10.2). Without a GC yet (stage 1) there is nothing to order by, so it is drawn.
    """
    if stage_number < rules.tp_order_from_stage or not general:
        return drawn_start_order(setup, stage_number)
    best_gc: dict[int, int] = {}
    for row in general:
        best_gc.setdefault(row.team, row.rank)
    ids = [t.id for t in setup.teams]
    return tuple(sorted(ids, key=lambda t: (tour_points[t], -best_gc[t])))


__all__ = ["drawn_start_order", "recommended_rest_days", "specialist_order", "start_order"]
