"""Export a whole competition as a versioned JSON document, and import it on another instance.

The document holds the set-up in the shape of the create request (so importing validates it with
the same checks), the rules, and every result version of every event. Entrants are named by
stable keys instead of database ids (a Grand Tour rider is ``"<team entry order>:<role>"``), so a
document moves between instances; importing replays the versions in order through the normal
submission workflow (validation, history, audit), and the worker resolves them as usual.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.competitions import audit, services
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import GameKind
from tournament.competitions.models import AuditAction, Source

FORMAT = "podium-competition"
FORMAT_VERSION = 1


def export_competition(*, kind: GameKind, competition: Any) -> dict[str, Any]:
    """The document for ``competition`` (set-up, rules, every result version)."""
    keys = kind.entrant_keys(competition)
    field = kind.entrant_field
    versions = (
        kind.version_model.objects.filter(event__competition=competition)
        .select_related("event", "created_by")
        .order_by("event__number", "number")
    )
    events: dict[int, dict[str, Any]] = {}
    for version in versions:
        entry = events.setdefault(
            version.event.number, {"number": version.event.number, "versions": []}
        )
        entry["versions"].append(
            {
                "number": version.number,
                "source": version.source,
                "created_at": version.created_at.isoformat(),
                "created_by": version.created_by.username if version.created_by else None,
                "rows": [{**row, field: keys.get(row[field], row[field])} for row in version.rows],
            }
        )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "kind": kind.label,
        "exported_at": timezone.now().isoformat(),
        "competition": kind.export_setup(competition),
        "events": [events[n] for n in sorted(events)],
    }


def import_competition(*, kind: GameKind, club: Any, document: Any, by: Any) -> Any:
    """Recreate a competition from a document; InvalidInput (400) names what is wrong.

    All or nothing: one transaction, so a document with a bad result version stores nothing.
    """
    _check_envelope(kind, document)
    with transaction.atomic():
        try:
            competition = services.create_from_setup(
                kind=kind, club=club, setup=document["competition"], by=by
            )
        except InvalidInput as exc:
            raise InvalidInput({"document": {"competition": exc.detail}}) from exc
        ids = {key: pk for pk, key in kind.entrant_keys(competition).items()}
        field = kind.entrant_field
        events = sorted(document.get("events") or [], key=lambda e: e.get("number", 0))
        for i, event in enumerate(events):
            versions = sorted(event.get("versions") or [], key=lambda v: v.get("number", 0))
            for j, version in enumerate(versions):
                where = (i, j)
                rows = version.get("rows")
                if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                    raise InvalidInput(_at(where, [_("rows must be a list of objects.")]))
                unknown = [r.get(field) for r in rows if r.get(field) not in ids]
                if unknown:
                    raise InvalidInput(
                        _at(
                            where,
                            [
                                _("Unknown entrants: %(keys)s.")
                                % {"keys": ", ".join(map(str, unknown))}
                            ],
                        )
                    )
                source = version.get("source")
                if source not in (Source.SUBMITTED, Source.SIMULATED):
                    source = Source.SUBMITTED
                try:
                    services.submit_results(
                        kind=kind,
                        competition_id=competition.pk,
                        number=int(event["number"]),
                        rows=[{**row, field: ids[row[field]]} for row in rows],
                        by=by,
                        source=source,
                    )
                except (InvalidInput, StopIteration, KeyError, TypeError, ValueError) as exc:
                    detail = (
                        exc.detail
                        if isinstance(exc, InvalidInput)
                        else [_("No such event in this competition.")]
                    )
                    raise InvalidInput(_at(where, detail)) from exc
        audit.record(
            club_id=club.pk,
            kind=kind.label,
            competition_id=competition.pk,
            action=AuditAction.IMPORTED,
            summary=f"Imported from a document exported {document.get('exported_at', '?')}",
            changes={"events": len(events)},
            by=by,
        )
    return competition


def _check_envelope(kind: GameKind, document: Any) -> None:
    errors: dict[str, list[str]] = {}
    if not isinstance(document, dict):
        raise InvalidInput({"document": [_("Expected a JSON object.")]})
    if document.get("format") != FORMAT:
        errors["format"] = [_("Not a Podium export (format %(f)s expected).") % {"f": FORMAT}]
    if document.get("format_version") != FORMAT_VERSION:
        errors["format_version"] = [
            _("Unsupported version; this Podium reads version %(v)s.") % {"v": FORMAT_VERSION}
        ]
    if document.get("kind") != kind.label:
        errors["kind"] = [_("This document holds a %(kind)s.") % {"kind": document.get("kind")}]
    if not isinstance(document.get("competition"), dict):
        errors["competition"] = [_("Expected the competition's set-up as an object.")]
    if not isinstance(document.get("events", []), list):
        errors["events"] = [_("Expected a list.")]
    if errors:
        raise InvalidInput({"document": errors})


def _at(where: tuple[int, int], detail: Any) -> dict[str, Any]:
    """``detail`` under ``document.events[i].versions[j]``: the version at fault."""
    event_index, version_index = where
    return {"document": {"events": {str(event_index): {"versions": {str(version_index): detail}}}}}
