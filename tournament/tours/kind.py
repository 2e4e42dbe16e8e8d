"""The Grand Tour as a :class:`GameKind`: validation and standings through ``scoring``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from scoring.grand_tour import (
    StageSpec,
    compute_standings,
    initial_standings,
    standings_to_json,
    validate_stage_results,
)
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import GameKind
from tournament.tours.loading import gt_rules, rider_results, stage_results, tour_setup
from tournament.tours.messages import issues_to_errors
from tournament.tours.models import Stage, StageResultVersion, StageStandings, Team, Tour


def load_setup(tour: Tour) -> Any:
    """The tour's :class:`TourSetup` (two queries: teams with riders, stage facts)."""
    teams = Team.objects.filter(tour=tour).prefetch_related("riders").order_by("order")
    stage_facts = list(
        Stage.objects.filter(competition=tour).values_list("number", "rest_day_after")
    )
    rest = [n for n, rest_day in stage_facts if rest_day]
    return tour_setup(tour, teams, len(stage_facts), rest)


class GrandTourKind(GameKind):
    label = "tour"
    competition_model = Tour
    event_model = Stage
    version_model = StageResultVersion
    snapshot_model = StageStandings
    after_param = "after_stage"

    def event_label(self, number: int) -> str:
        return _("Stage %(number)s") % {"number": number}

    def validate_results(
        self, competition: Any, event: Any, rows: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        setup = load_setup(competition)
        rules = gt_rules(competition.rules)
        parsed = rider_results(rows)
        issues = validate_stage_results(setup, StageSpec(event.number, event.finish), parsed, rules)
        if issues:
            raise InvalidInput(issues_to_errors(issues, len(rows)))
        # Stored in finishing order: the order a person reads them in.
        return sorted((_normalise(row) for row in rows), key=lambda r: r["position"])

    def compute_snapshots(self, competition: Any, events: Sequence[Any]) -> list[dict[str, Any]]:
        setup = load_setup(competition)
        rules = gt_rules(competition.rules)
        computed = compute_standings(
            setup, [stage_results(e.number, e.results) for e in events], rules
        )
        return [standings_to_json(s) for s in computed]

    def initial_standings(self, competition: Any) -> dict[str, Any]:
        setup = load_setup(competition)
        return standings_to_json(initial_standings(setup, gt_rules(competition.rules)))


def _normalise(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "rider": row["rider"],
        "position": row["position"],
        "minutes": row["minutes"],
        "seconds": row["seconds"],
        "sprint_points": row.get("sprint_points", 0),
        "mountain_points": row.get("mountain_points", 0),
        "exhaustion": row.get("exhaustion"),
    }
