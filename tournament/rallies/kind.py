"""Rallies as a :class:`GameKind`: RM-53 sheet checks, RM-42..46 standings, simulated stages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from games.rallyman import RallymanError, build_track, load_layout, simulate_stage
from games.rallyman.rally import stage_entries, start_order
from scoring.rally import RallyInputError, check_stage_sheet, rally_standings
from scoring.rng import derive_rng
from tournament.competitions import services
from tournament.competitions.errors import InvalidInput, ResolutionError
from tournament.competitions.kinds import Document, GameKind, Row
from tournament.competitions.serializers import event_date
from tournament.rallies.api import RallyChampionshipViewSet
from tournament.rallies.loading import (
    out_of_rally,
    rally_drivers,
    rally_rules,
    result_row,
    stage_sheets,
    submitted_fields,
)
from tournament.rallies.messages import flag_messages, issues_to_errors
from tournament.rallies.models import (
    Driver,
    Rally,
    RallyStage,
    RallyStageResultVersion,
    RallyStandings,
)
from tournament.rallies.serializers import (
    RallyCreateSerializer,
    RallyPatchSerializer,
    RallySerializer,
    RallyStageDetailSerializer,
    RallyStageResultsInputSerializer,
    RallyStandingsSerializer,
)
from tournament.rallies.setup import RallySetupSerializer


def load_drivers(rally: Rally) -> list[tuple[int, str]]:
    """``(id, name)`` of the rally's drivers in entry-list order (one query)."""
    return list(Driver.objects.filter(rally=rally).order_by("order").values_list("pk", "name"))


def finishing_order(rows: list[Row], entry: Sequence[int]) -> list[Row]:
    """Finishers by stage time (ties in entry-list order, RM-42), then retired drivers."""
    position = {d: i for i, d in enumerate(entry)}
    return sorted(
        rows,
        key=lambda r: (
            r["stage_time"] is None,
            r["stage_time"] or 0,
            position.get(r["driver"], len(position)),
        ),
    )


class RallyKind(GameKind[Rally, RallyStage]):
    label = "rally"
    title = "Rally"
    collection = "rallies"
    event_word = "stages"
    after_param = "after_stage"
    entrant_field = "driver"

    competition_model = Rally
    event_model = RallyStage
    version_model = RallyStageResultVersion
    snapshot_model = RallyStandings
    setup_models = (Driver,)
    detail_prefetch = (
        Prefetch("stages", queryset=RallyStage.objects.order_by("number").defer("results")),
        Prefetch("drivers", queryset=Driver.objects.order_by("order")),
    )

    create_serializer = RallyCreateSerializer
    patch_serializer = RallyPatchSerializer
    setup_serializer = RallySetupSerializer
    results_serializer = RallyStageResultsInputSerializer
    detail_serializer = RallySerializer
    event_serializer = RallyStageDetailSerializer
    standings_serializer = RallyStandingsSerializer

    setup_fields = ("drivers", "stages", "rules")
    created_counts = ("stages", "drivers")
    # Rally championships (RM-47 to RM-51): an ordered list of one club's rallies.
    extra_routes = (("rally-championships", RallyChampionshipViewSet, "rally-championship"),)

    def event_label(self, number: int) -> str:
        return _("Stage %(number)s") % {"number": number}

    def validate_results(self, competition: Rally, event: RallyStage, rows: list[Row]) -> list[Row]:
        """RM-53: every problem at once, or the rows with their times (RM-52), in finishing order.

        The drivers expected are the entry list minus those out after the *current* results of
        the earlier stages (RM-46), so a correction of an earlier stage can make this sheet
        invalid; the workflow then marks this stage ``failed`` with the message (API.md).
        """
        rules = rally_rules(competition.rules)
        drivers = load_drivers(competition)
        names = dict(drivers)
        earlier = RallyStage.objects.filter(
            competition=competition, number__lt=event.number
        ).values_list("results", flat=True)
        out = out_of_rally(earlier, rules)
        rows = [submitted_fields(row) for row in rows]
        checked = check_stage_sheet(
            rows, entry_list=[pk for pk, _name in drivers], out_of_rally=out, rules=rules
        )
        if not checked.ok:
            raise InvalidInput(issues_to_errors(checked.issues, len(rows), names))
        warnings = flag_messages(checked.flags, names)
        stored = [
            result_row(entry, rows[index], warnings.get(index, []))
            for index, entry in enumerate(checked.entries)
        ]
        return finishing_order(stored, [pk for pk, _name in drivers])

    def compute_snapshots(self, competition: Rally, events: Sequence[RallyStage]) -> list[Document]:
        rules = rally_rules(competition.rules)
        drivers = rally_drivers(load_drivers(competition))
        sheets = stage_sheets([e.results for e in events])
        snapshots = []
        for k in range(1, len(sheets) + 1):
            try:
                standings = rally_standings(drivers, sheets[:k], rules)
            except RallyInputError as exc:
                # Sheets are checked at submission; this guards rows changed behind our back.
                raise ResolutionError(exc.params.get("stage", k), exc.message) from exc
            snapshots.append(standings.to_json())
        return snapshots

    def initial_standings(self, competition: Rally) -> Document:
        return {"after_stage": None, "overall": [], "stages": []}

    def setup_payload(self, competition: Rally) -> Document:
        return {
            "drivers": [{"name": name} for _pk, name in load_drivers(competition)],
            "stages": [
                {
                    "name": s.name,
                    "layout": s.layout,
                    **({"date": event_date(s.date)} if s.date else {}),
                }
                for s in competition.stages.order_by("number")
            ],
            "rules": dict(competition.rules),
        }

    def write_setup(self, competition: Rally, setup: Document) -> None:
        RallyStage.objects.bulk_create(
            RallyStage(
                competition=competition,
                number=number,
                name=stage.get("name") or "",
                layout=stage.get("layout"),
                date=stage.get("date"),
            )
            for number, stage in enumerate(setup["stages"], start=1)
        )
        Driver.objects.bulk_create(
            Driver(rally=competition, order=order, name=driver["name"])
            for order, driver in enumerate(setup["drivers"], start=1)
        )

    def entrant_keys(self, competition: Rally) -> dict[int, str]:
        # Driver names are unique within a rally (case-insensitively).
        return dict(load_drivers(competition))

    def check_simulable(self, competition: Rally, event: RallyStage) -> None:
        if event.layout is None:
            raise InvalidInput(
                {"layout": [_("This stage has no layout, so it cannot be simulated.")]}
            )

    def start_order(self, competition: Rally, event: RallyStage) -> list[int]:
        """RM-6: who starts the stage, in start order; drivers out of the rally do not."""
        entry = [pk for pk, _name in load_drivers(competition)]
        classification: list[int] = []
        if event.number > 1:
            before = services.standings(kind=self, competition=competition, after=event.number - 1)
            # The overall classification, leader first, of the drivers still in (RM-46).
            classification = [
                row["driver"] for row in before["overall"] if row["out_after_stage"] is None
            ]
        return start_order(
            event.number,
            classification,
            entry,
            rally_rules(competition.rules),
            rng=derive_rng(competition.seed, "rally_start_order", event.number),
        )

    def previous_replay(self, competition: Rally, event: RallyStage) -> Document | None:
        """The previous stage's replay when it was simulated (RM-31 tokens, RM-40 damage).

        A submitted sheet has no field for carried tokens or damage: after one, cars start with
        none.
        """
        if event.number == 1:
            return None
        previous = (
            RallyStage.objects.filter(competition=competition, number=event.number - 1)
            .values("pk", "version", "source")
            .first()
        )
        if previous is None or previous["source"] != "simulated":
            return None
        replay: dict[str, Any] | None = (
            RallyStageResultVersion.objects.filter(
                event_id=previous["pk"], number=previous["version"]
            )
            .values_list("replay", flat=True)
            .first()
        )
        return replay

    def simulate(self, competition: Rally, event: RallyStage) -> tuple[list[Row], Document]:
        """Play the stage with automatic drivers (RM-6 start order, RM-31 carried tokens)."""
        rules = rally_rules(competition.rules)
        order = self.start_order(competition, event)
        entries = stage_entries(order, rules, self.previous_replay(competition, event))
        last = not RallyStage.objects.filter(
            competition=competition, number__gt=event.number
        ).exists()
        if event.layout is None:  # check_simulable refuses such a stage before a worker runs
            raise ResolutionError(event.number, _("This stage has no layout."))
        try:
            track = build_track(load_layout(event.layout))
            run = simulate_stage(
                track,
                entries,
                rules,
                derive_rng(competition.seed, "rally_stage", event.number),
                last_stage=last,
            )
        except RallymanError as exc:
            raise ResolutionError(event.number, exc.message) from exc
        replay = {
            **run.replay_json(),
            "start_order": order,
            "carried_tokens": {str(c.car): c.carried_tokens for c in run.cars},
        }
        return run.sheet(), replay
