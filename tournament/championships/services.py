"""Championship workflows: create a championship, change its set-up, submit a race's results.

Results go through the shared workflow (``tournament.competitions.services``); this module only
writes the set-up rows (drivers, races) from a set-up already checked by ``setup.check_setup``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournament.championships.models import Championship, Driver, Race
from tournament.competitions import audit
from tournament.competitions import services as workflow
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import AuditAction, Source

SETUP_FIELDS = ("drivers", "races", "rules", "rule_set", "points")


def create_championship(
    *, club: Any, name: str, public: bool, seed: int | None, setup: dict[str, Any], by: Any
) -> Championship:
    """Create a championship with its drivers and races from a checked set-up."""
    with transaction.atomic():
        championship = Championship(
            club=club,
            name=name,
            public=public,
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        if seed is not None:
            championship.seed = seed
        _apply_settings(championship, setup)
        championship.save()
        _write_setup(championship, setup)
        audit.record(
            club_id=club.pk,
            kind="championship",
            competition_id=championship.pk,
            action=AuditAction.CREATED,
            summary=f"Championship {championship.name!r} created",
            by=by,
            changes={"drivers": len(setup["drivers"]), "races": len(setup["races"])},
        )
    return championship


def _apply_settings(championship: Championship, setup: dict[str, Any]) -> None:
    championship.rule_set = setup["rule_set"]
    championship.rules = setup["rules"]
    championship.points = setup["points"]
    championship.points_preset = setup["points_preset"]


def _write_setup(championship: Championship, setup: dict[str, Any]) -> None:
    drivers = Driver.objects.bulk_create(
        Driver(
            championship=championship,
            order=order,
            name=d["name"],
            team=d.get("team") or "",
            build=d.get("build"),
        )
        for order, d in enumerate(setup["drivers"], start=1)
    )
    if any(d.pk is None for d in drivers):  # backends without RETURNING on bulk inserts
        drivers = list(Driver.objects.filter(championship=championship).order_by("order"))
    ids = {d.name: d.pk for d in drivers}
    Race.objects.bulk_create(
        Race(
            competition=championship,
            number=number,
            circuit=race["circuit"],
            laps=race["laps"],
            drivers=[ids[name] for name in race["drivers"]],
        )
        for number, race in enumerate(setup["races"], start=1)
    )


def update_championship(
    *, championship_id: int, changes: dict[str, Any], setup: dict[str, Any] | None, by: Any = None
) -> Championship:
    """PATCH: ``name`` and ``public`` any time; the set-up only before the first result (409)."""

    def replace(
        championship: Championship, setup: dict[str, Any], changed: dict[str, Any]
    ) -> list[str]:
        for key in ("rule_set", "points"):
            if getattr(championship, key) != setup[key]:
                changed[key] = [getattr(championship, key), setup[key]]
        # No race has results, so no version, snapshot or standings refer to these rows.
        Race.objects.filter(competition=championship).delete()
        Driver.objects.filter(championship=championship).delete()
        _apply_settings(championship, setup)
        _write_setup(championship, setup)
        return ["rule_set", "rules", "points", "points_preset"]

    championship: Championship = workflow.update_competition(
        kind=get_kind("championship"),
        competition_id=championship_id,
        changes=changes,
        setup=setup,
        by=by,
        replace_setup=replace,
    )
    return championship


def submit_race_results(
    *,
    championship: Championship,
    number: int,
    rows: list[dict[str, Any]],
    by: Any,
    expected_version: int | None = None,
    source: str = Source.SUBMITTED,
    replay: Any = None,
) -> Race:
    """Store a race's results (FD-79 checked) and queue its resolution."""
    race: Race = workflow.submit_results(
        kind=get_kind("championship"),
        competition_id=championship.pk,
        number=number,
        rows=rows,
        by=by,
        source=source,
        expected_version=expected_version,
        replay=replay,
    )
    return race
