"""Create a tour from an :class:`ImportPlan`: the create workflow, then every stage submitted.

All or nothing: one transaction, so a file with a bad field anywhere stores nothing. The tour
is created with the create request's checks and each stage goes through ``submit_results``
(validation, a result version, the audit entry, the resolve task queued on commit): an imported
tour is resolved by the same worker path as one entered by hand. Errors those checks find are
moved to the place in the uploaded file they came from (:func:`plan.relocated`).

Where the file claims Tour Points of its own (a Companion backup), the standings Podium computes
from the same results are compared with them, stage by stage and Rest Day by Rest Day; Podium's
are kept, and each difference is answered to the importer and written to the tour's history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from tournament.clubs.models import Club
from tournament.competitions import audit, services
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import AuditAction
from tournament.tours.imports.plan import (
    FileErrors,
    ImportPlan,
    StagePlan,
    flatten,
    relocated,
    to_path_text,
)
from tournament.tours.models import Stage, Team, Tour

SOURCE_TITLE = {"companion": "a Flamme Rouge Companion backup", "csv": "a CSV file"}


@dataclass(frozen=True)
class Imported:
    tour: Tour
    differences: list[dict[str, Any]]


def import_tour(
    *, plan: ImportPlan, club: Club, by: Any, public: bool = True, seed: int | None = None
) -> Imported:
    """Create the plan's tour in ``club`` (InvalidInput: 400 at the file's paths, nothing kept)."""
    kind = get_kind("tour")
    setup: dict[str, Any] = {**plan.setup, "name": plan.name, "public": public}
    if seed is not None:
        setup["seed"] = seed
    with transaction.atomic():
        try:
            tour: Tour = services.create_from_setup(kind=kind, club=club, setup=setup, by=by)
        except InvalidInput as exc:
            raise InvalidInput(relocated(plan.root, exc.detail, plan.locate)) from exc
        teams = list(Team.objects.filter(tour=tour).prefetch_related("riders").order_by("order"))
        ids = {(i, r.role): r.pk for i, team in enumerate(teams) for r in team.riders.all()}
        for stage in plan.stages:
            rows = [line.row(ids[(line.team, line.role)]) for line in stage.riders]
            try:
                services.submit_results(
                    kind=kind, competition_id=tour.pk, number=stage.number, rows=rows, by=by
                )
            except (InvalidInput, Conflict) as exc:
                raise InvalidInput(_stage_errors(plan, stage, exc.detail)) from exc
        differences = _differences(plan, tour, teams) if plan.claimed_tp else []
        exported = f" (exported {plan.exported_at})" if plan.exported_at else ""
        kept = f"; {len(differences)} Tour Points differences, Podium's kept" if differences else ""
        audit.record(
            club_id=club.pk,
            kind=kind.label,
            competition_id=tour.pk,
            action=AuditAction.IMPORTED,
            summary=f"Imported from {SOURCE_TITLE[plan.source]}{exported}: "
            f"{len(plan.stages)} stages with results{kept}",
            # Counts and names only: nothing else of the file (a backup's secrets) is kept.
            changes={
                "source": plan.source,
                "stages": len(plan.stages),
                "differences": differences,
            },
            by=by,
        )
    return Imported(tour=tour, differences=differences)


def _stage_errors(plan: ImportPlan, stage: StagePlan, detail: Any) -> dict[str, Any]:
    """A stage's submission errors (``results[i].field``) at its riders' places in the file."""
    errors = FileErrors(plan.root)
    items = detail if isinstance(detail, (dict, list)) else [detail]
    for where, message in flatten(items):
        if len(where) > 1 and where[0] == "results" and isinstance(where[1], int):
            line = stage.riders[where[1]] if where[1] < len(stage.riders) else None
            if line is not None:
                field = where[2] if len(where) > 2 else None
                column = line.fields.get(str(field), str(field)) if field is not None else None
                errors.add((*line.where, column) if column else line.where, message)
                continue
        errors.add(stage.where, message)
    return errors.detail()


def _differences(plan: ImportPlan, tour: Tour, teams: list[Team]) -> list[dict[str, Any]]:
    """Each (stage or Rest Day, team) where the file's Tour Points differ from Podium's.

    Podium's figures come from the engine over the stored results (what the worker will
    compute): per stage the podium TP earned in it (GT-4), per Rest Day the Rest Day TP (GT-8).
    Classification TP at the end of the tour (GT-9) are not compared: the Companion keeps none
    in its entries (it computes them from the same scoring rules, which the tour now has).
    """
    kind = get_kind("tour")
    events = list(Stage.objects.with_results(tour).order_by("number"))
    snapshots = kind.compute_snapshots(tour, events) if events else []
    index = {team.pk: i for i, team in enumerate(teams)}
    earned: dict[tuple[str, int], dict[int, int]] = {}
    before = {i: {"podium": 0, "rest_days": 0} for i in range(len(teams))}
    for event, snapshot in zip(events, snapshots, strict=True):
        now = {index[row["team"]]: row for row in snapshot["tour_points"]}
        earned[("stage", event.number)] = {i: now[i]["podium"] - before[i]["podium"] for i in now}
        earned[("rest_day", event.number)] = {
            i: now[i]["rest_days"] - before[i]["rest_days"] for i in now
        }
        before = {i: {"podium": now[i]["podium"], "rest_days": now[i]["rest_days"]} for i in now}
    differences = []
    for key in sorted(plan.claimed_tp, key=lambda k: (k[1], k[0] == "rest_day")):
        entry, number = key
        podium = earned.get(key, {})
        for i, claimed in sorted(plan.claimed_tp[key].items()):
            mine = podium.get(i, 0)
            if claimed != mine:
                differences.append(
                    {
                        "entry": entry,
                        "stage": number,
                        "team": teams[i].pk,
                        "team_name": teams[i].name,
                        "player": teams[i].player,
                        "file": claimed,
                        "podium": mine,
                        "where": to_path_text((plan.root, *plan.claimed_where.get(key, ()))),
                    }
                )
    return differences
