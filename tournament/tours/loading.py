"""The thin loading step: tour rows → the pure engines' dataclasses."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.flamme_rouge.rules import StageRules
from scoring.grand_tour.model import Rider, RiderResult, StageResults, Team, TourSetup
from scoring.grand_tour.rules import GrandTourRules
from scoring.params import build_rules, field_names

GT_PARAMS = field_names(GrandTourRules)
FR_PARAMS = field_names(StageRules)
ALL_PARAMS = GT_PARAMS | FR_PARAMS


def gt_rules(rules: dict[str, Any]) -> GrandTourRules:
    """The Grand Tour scoring rules of a tour's stored (already validated) rules."""
    built, _errors = build_rules(GrandTourRules, {k: v for k, v in rules.items() if k in GT_PARAMS})
    return built


def stage_rules(rules: dict[str, Any]) -> StageRules:
    built, _errors = build_rules(StageRules, {k: v for k, v in rules.items() if k in FR_PARAMS})
    return built


def tour_setup(
    tour: Any, teams: Iterable[Any], stage_count: int, rest_days_after: Iterable[int]
) -> TourSetup:
    """``teams`` with their riders prefetched, in entry order."""
    return TourSetup(
        seed=tour.seed,
        teams=tuple(
            Team(
                id=team.id,
                name=team.name,
                riders=tuple(
                    Rider(id=r.id, name=r.name, team_id=team.id, role=r.role)
                    for r in sorted(team.riders.all(), key=lambda r: r.role != "rouleur")
                ),
            )
            for team in teams
        ),
        stage_count=stage_count,
        rest_days_after=frozenset(rest_days_after),
    )


def rider_results(rows: Sequence[dict[str, Any]]) -> tuple[RiderResult, ...]:
    return tuple(
        RiderResult(
            rider=row["rider"],
            position=row["position"],
            minutes=row["minutes"],
            seconds=row["seconds"],
            sprint_points=row.get("sprint_points", 0),
            mountain_points=row.get("mountain_points", 0),
            exhaustion=row.get("exhaustion"),
        )
        for row in rows
    )


def stage_results(number: int, rows: Sequence[dict[str, Any]]) -> StageResults:
    return StageResults(number=number, rows=rider_results(rows))
