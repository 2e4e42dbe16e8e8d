"""The Grand Tour as a :class:`GameKind`: validation and standings through ``scoring``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.flamme_rouge import (
    FlammeRougeError,
    RiderEntry,
    Stack,
    StageSetup,
    TeamEntry,
    simulate_stage,
)
from scoring.grand_tour import (
    StageSpec,
    compute_standings,
    initial_standings,
    standings_to_json,
    validate_stage_results,
)
from tournament.competitions import services
from tournament.competitions.errors import InvalidInput, ResolutionError
from tournament.competitions.kinds import GameKind
from tournament.tours.loading import (
    gt_rules,
    rider_results,
    stage_results,
    stage_rules,
    tour_setup,
)
from tournament.tours.messages import issues_to_errors
from tournament.tours.models import (
    Rider,
    Stage,
    StageResultVersion,
    StageStandings,
    Team,
    Tour,
)


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
    setup_fields = ("stages", "teams", "rules", "rest_days_after")

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

    def export_setup(self, competition: Any) -> dict[str, Any]:
        from tournament.tours.serializers import setup_payload

        return {
            "name": competition.name,
            "public": competition.public,
            "seed": competition.seed,
            **setup_payload(competition),
        }

    def entrant_keys(self, competition: Any) -> dict[int, str]:
        # Team entry order and role name a rider on any instance.
        riders = Rider.objects.filter(team__tour=competition).values_list(
            "pk", "team__order", "role"
        )
        return {pk: f"{order}:{role}" for pk, order, role in riders}

    def patch_serializer(self) -> Any:
        from tournament.tours.serializers import TourPatchSerializer

        return TourPatchSerializer

    def patched_setup(self, competition: Any, data: dict[str, Any]) -> dict[str, Any] | None:
        from tournament.tours.serializers import check_patch_setup

        return check_patch_setup(competition, data)

    def update(
        self, *, competition_id: int, changes: dict[str, Any], setup: dict[str, Any] | None, by: Any
    ) -> Any:
        from tournament.tours.services import update_tour

        return update_tour(tour_id=competition_id, changes=changes, setup=setup, by=by)

    def create_serializer(self) -> Any:
        from tournament.tours.serializers import TourCreateSerializer

        return TourCreateSerializer

    def create(self, *, club: Any, data: dict[str, Any], by: Any) -> Any:
        from tournament.tours.services import create_tour

        return create_tour(
            club=club,
            name=data["name"],
            public=data["public"],
            seed=data.get("seed"),
            setup=data,
            by=by,
        )

    def check_simulable(self, competition: Any, event: Any) -> None:
        if not event.course:
            raise InvalidInput(
                {"course": [_("This stage has no course, so it cannot be simulated.")]}
            )

    def simulate(self, competition: Any, event: Any) -> tuple[list[dict[str, Any]], Any]:
        """Play the stage with the Flamme Rouge engine from the published standings."""
        before = (
            services.standings(kind=self, competition=competition, after=event.number - 1)
            if event.number > 1
            else self.initial_standings(competition)
        )
        carried = {row["rider"]: row["cards"] for row in before["exhaustion"]}
        teams = Team.objects.filter(tour=competition).prefetch_related("riders").order_by("order")
        setup = StageSetup(
            course=event.course,
            teams=tuple(
                TeamEntry(
                    id=team.pk,
                    riders=tuple(
                        # Unknown counts start at 0 carried cards (grand_tour.md, vocabulary).
                        RiderEntry(
                            id=r.pk,
                            role=r.role,
                            specialist=r.specialist or None,
                            exhaustion=carried.get(r.pk) or 0,
                        )
                        for r in sorted(team.riders.all(), key=lambda r: r.role != "rouleur")
                    ),
                )
                for team in teams
            ),
            stacks=tuple(
                Stack(id=s["id"], type=s["type"], side=s["side"], square=s["square"])
                for s in event.stacks
            ),
            # FR-18: the order the standings published (GT-10), never a fresh draw.
            placement_order=tuple(before["next_start_order"]),
            dummy_teams=gt_rules(competition.rules).dummy_teams,
            rules=stage_rules(competition.rules),
            number=event.number,
        )
        try:
            outcome = simulate_stage(setup, competition.seed)
        except FlammeRougeError as exc:
            raise ResolutionError(event.number, exc.message) from exc
        return outcome.submission(), outcome.to_json()


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
