"""Grand Tour workflows: create a tour, change its set-up, submit a stage's results."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.grand_tour import specialist_order
from tournament.competitions import audit
from tournament.competitions import services as workflow
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import AuditAction, Source
from tournament.tours.kind import load_setup
from tournament.tours.models import Rider, Stage, Team, Tour

SETUP_FIELDS = ("stages", "teams", "rules", "rest_days_after")


def create_tour(
    *, club: Any, name: str, public: bool, seed: int | None, setup: dict[str, Any], by: Any
) -> Tour:
    """Create a tour with its stages and teams from a checked set-up (``check_setup``)."""
    with transaction.atomic():
        tour = Tour(
            club=club,
            name=name,
            public=public,
            rules=setup["rules"],
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        if seed is not None:
            tour.seed = seed
        tour.save()
        _write_setup(tour, setup)
        audit.record(
            club_id=club.pk,
            kind="tour",
            competition_id=tour.pk,
            action=AuditAction.CREATED,
            summary=f"Tour {tour.name!r} created",
            by=by,
            changes={"stages": len(setup["stages"]), "teams": len(setup["teams"])},
        )
    return tour


def _write_setup(tour: Tour, setup: dict[str, Any]) -> None:
    rest = set(setup.get("rest_days_after") or [])
    Stage.objects.bulk_create(
        Stage(
            competition=tour,
            number=number,
            name=stage.get("name") or "",
            course=stage.get("course") or "",
            finish=stage.get("finish") or "flat",
            stacks=[dict(s) for s in stage.get("stacks") or []],
            rest_day_after=number in rest,
        )
        for number, stage in enumerate(setup["stages"], start=1)
    )
    for order, team_data in enumerate(setup["teams"], start=1):
        team = Team.objects.create(
            tour=tour,
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
    tour.specialist_order = list(specialist_order(load_setup(tour)))
    tour.save(update_fields=["specialist_order"])


def update_tour(
    *, tour_id: int, changes: dict[str, Any], setup: dict[str, Any] | None, by: Any = None
) -> Tour:
    """PATCH: ``name`` and ``public`` any time; the set-up only before the first result (409)."""

    def replace(tour: Tour, setup: dict[str, Any], changed: dict[str, Any]) -> list[str]:
        # No stage has results, so no version, snapshot or standings refer to these rows.
        Stage.objects.filter(competition=tour).delete()
        Team.objects.filter(tour=tour).delete()
        tour.rules = setup["rules"]
        _write_setup(tour, setup)
        return ["rules"]

    tour: Tour = workflow.update_competition(
        kind=get_kind("tour"),
        competition_id=tour_id,
        changes=changes,
        setup=setup,
        by=by,
        replace_setup=replace,
    )
    return tour


def submit_stage_results(
    *,
    tour: Tour,
    number: int,
    rows: list[dict[str, Any]],
    by: Any,
    expected_version: int | None = None,
    source: str = Source.SUBMITTED,
    replay: Any = None,
) -> Stage:
    """Store a stage's results (GT-11 checked) and queue its resolution."""
    stage: Stage = workflow.submit_results(
        kind=get_kind("tour"),
        competition_id=tour.pk,
        number=number,
        rows=rows,
        by=by,
        source=source,
        expected_version=expected_version,
        replay=replay,
    )
    return stage
