"""The Grand Tour as a :class:`GameKind`: validation and standings through ``scoring``."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Prefetch
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
    specialist_order,
    standings_to_json,
    validate_stage_results,
)
from scoring.grand_tour.model import Finish, TourSetup
from tournament.competitions import services
from tournament.competitions.errors import InvalidInput, ResolutionError
from tournament.competitions.kinds import Document, GameKind, Row
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
from tournament.tours.serializers import (
    StageDetailSerializer,
    StageResultsInputSerializer,
    TourCreateSerializer,
    TourPatchSerializer,
    TourSerializer,
    TourStandingsSerializer,
)
from tournament.tours.setup import TourSetupSerializer


def load_setup(tour: Tour) -> TourSetup:
    """The tour's :class:`TourSetup` (two queries: teams with riders, stage facts)."""
    teams = Team.objects.filter(tour=tour).prefetch_related("riders").order_by("order")
    stage_facts = list(
        Stage.objects.filter(competition=tour).values_list("number", "rest_day_after")
    )
    rest = [n for n, rest_day in stage_facts if rest_day]
    return tour_setup(tour, teams, len(stage_facts), rest)


class GrandTourKind(GameKind[Tour, Stage]):
    label = "tour"
    title = "Tour"
    collection = "tours"
    event_word = "stages"
    after_param = "after_stage"
    entrant_field = "rider"

    competition_model = Tour
    event_model = Stage
    version_model = StageResultVersion
    snapshot_model = StageStandings
    setup_models = (Team,)
    detail_prefetch = (
        Prefetch("stages", queryset=Stage.objects.order_by("number").defer("results")),
        Prefetch(
            "teams",
            queryset=Team.objects.order_by("order").prefetch_related(
                Prefetch("riders", queryset=Rider.objects.order_by("team", "role"))
            ),
        ),
    )

    create_serializer = TourCreateSerializer
    patch_serializer = TourPatchSerializer
    setup_serializer = TourSetupSerializer
    results_serializer = StageResultsInputSerializer
    detail_serializer = TourSerializer
    event_serializer = StageDetailSerializer
    standings_serializer = TourStandingsSerializer

    setup_fields = ("stages", "teams", "rules", "rest_days_after")
    created_counts = ("stages", "teams")

    def event_label(self, number: int) -> str:
        return _("Stage %(number)s") % {"number": number}

    def validate_results(self, competition: Tour, event: Stage, rows: list[Row]) -> list[Row]:
        setup = load_setup(competition)
        rules = gt_rules(competition.rules)
        parsed = rider_results(rows)
        finish: Finish = "ascent" if event.finish == "ascent" else "flat"  # the model's choices
        issues = validate_stage_results(setup, StageSpec(event.number, finish), parsed, rules)
        if issues:
            raise InvalidInput(issues_to_errors(issues, len(rows)))
        # Stored in finishing order: the order a person reads them in.
        return sorted((_normalise(row) for row in rows), key=lambda r: r["position"])

    def compute_snapshots(self, competition: Tour, events: Sequence[Stage]) -> list[Document]:
        setup = load_setup(competition)
        rules = gt_rules(competition.rules)
        computed = compute_standings(
            setup, [stage_results(e.number, e.results) for e in events], rules
        )
        return [standings_to_json(s) for s in computed]

    def initial_standings(self, competition: Tour) -> Document:
        setup = load_setup(competition)
        return standings_to_json(initial_standings(setup, gt_rules(competition.rules)))

    def setup_payload(self, competition: Tour) -> Document:
        """Stages, teams, rest days and rules as the create request spells them."""
        current = TourSerializer(competition).data
        return {
            "stages": [
                {
                    "name": s["name"],
                    "course": s["course"],
                    "finish": s["finish"],
                    "stacks": s["stacks"],
                    **({"date": s["date"]} if s["date"] else {}),
                }
                for s in current["stages"]
            ],
            "teams": [
                {
                    "name": t["name"],
                    "player": t["player"],
                    "riders": [
                        {"name": r["name"], "role": r["role"], "specialist": r["specialist"] or ""}
                        for r in t["riders"]
                    ],
                }
                for t in current["teams"]
            ],
            "rest_days_after": current["rest_days_after"],
            "rules": dict(competition.rules),
        }

    def write_setup(self, competition: Tour, setup: Document) -> None:
        rest = set(setup.get("rest_days_after") or [])
        Stage.objects.bulk_create(
            Stage(
                competition=competition,
                number=number,
                name=stage.get("name") or "",
                course=stage.get("course") or "",
                finish=stage.get("finish") or "flat",
                stacks=[dict(s) for s in stage.get("stacks") or []],
                rest_day_after=number in rest,
                date=stage.get("date"),
            )
            for number, stage in enumerate(setup["stages"], start=1)
        )
        for order, team_data in enumerate(setup["teams"], start=1):
            team = Team.objects.create(
                tour=competition,
                order=order,
                name=team_data["name"].strip(),
                player=team_data.get("player") or "",
            )
            Rider.objects.bulk_create(
                Rider(
                    team=team,
                    name=r["name"].strip(),
                    role=r["role"],
                    specialist=r.get("specialist") or "",
                )
                for r in team_data["riders"]
            )
        # GT-1.3: the Specialist draft order, drawn from the seed once the teams exist.
        competition.specialist_order = list(specialist_order(load_setup(competition)))
        competition.save(update_fields=["specialist_order"])

    def entrant_keys(self, competition: Tour) -> dict[int, str]:
        # Team entry order and role name a rider on any instance.
        riders = Rider.objects.filter(team__tour=competition).values_list(
            "pk", "team__order", "role"
        )
        return {pk: f"{order}:{role}" for pk, order, role in riders}

    def check_simulable(self, competition: Tour, event: Stage) -> None:
        if not event.course:
            raise InvalidInput(
                {"course": [_("This stage has no course, so it cannot be simulated.")]}
            )

    def simulate(self, competition: Tour, event: Stage) -> tuple[list[Row], Document]:
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


def _normalise(row: Row) -> Row:
    return {
        "rider": row["rider"],
        "position": row["position"],
        "minutes": row["minutes"],
        "seconds": row["seconds"],
        "sprint_points": row.get("sprint_points", 0),
        "mountain_points": row.get("mountain_points", 0),
        "exhaustion": row.get("exhaustion"),
    }
