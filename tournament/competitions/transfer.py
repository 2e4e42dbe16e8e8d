"""Export a whole competition as a versioned JSON document, and import it on another instance.

The document holds the set-up in the shape of the create request (so importing validates it with
the same checks), the rules, and every result version of every event. Entrants are named by
stable keys instead of database ids (a Grand Tour rider is ``"<team entry order>:<role>"``), so a
document moves between instances; importing replays the versions in order through the normal
submission workflow (validation, history, audit), and the worker resolves them as usual.

The document also carries each entry's club player (issue #19 item 1): ``players`` lists, by the
entry's position in the set-up's ``teams`` or ``drivers``, the name of the player it is linked to
(which may differ from the name typed in the entry, after a rename or a merge). An import links
that entry to the target club's player of the same match key, created when missing, so a round
trip keeps the links and an import into another club gives it the same players. A document
without ``players`` (exported before) imports as before: entries link by their own names.
"""

from __future__ import annotations

from typing import Any, cast

from django.apps import apps
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import serializers

from tournament.competitions import audit, services
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.competitions.kinds import GameKind
from tournament.competitions.models import AuditAction, Source
from tournament.fields import CharField, IntegerField
from tournament.players.linking import ENTRANTS, players_by_key
from tournament.players.matching import clean_name, match_key

FORMAT = "podium-competition"
FORMAT_VERSION = 1


def export_competition(*, kind: GameKind, competition: Any) -> dict[str, Any]:
    """The document for ``competition`` (set-up, rules, every result version)."""
    keys = kind.entrant_keys(competition)
    field = kind.entrant_field
    versions = (
        # the abstract version model declares no ``event`` (each game's concrete one does)
        kind.version_model.objects.filter(event__competition=competition)  # type: ignore[misc]
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
        "players": _player_links(kind, competition),
        "events": [events[n] for n in sorted(events)],
    }


def _player_links(kind: GameKind, competition: Any) -> list[dict[str, Any]]:
    """``{"entry": i, "name": …}`` for each linked entry, ``i`` its place in the set-up's list
    (entry order, as ``setup_payload`` lists them and ``link_entries`` reads them back)."""
    spec = ENTRANTS.get(kind.label)
    if spec is None:
        return []
    names = (
        apps.get_model(spec.model)
        .objects.filter(**{spec.link: competition})
        .order_by("order")
        .values_list("club_player__name", flat=True)
    )
    return [{"entry": i, "name": name} for i, name in enumerate(names) if name]


def _with_player_ids(
    kind: GameKind, club: Any, setup: dict[str, Any], links: list[dict[str, Any]]
) -> dict[str, Any]:
    """The set-up with each linked entry's ``player_id``: the club's player of the link's
    match key, created when missing (inside the import's transaction: undone on a 400)."""
    from tournament.players.models import Player

    spec = ENTRANTS.get(kind.label)
    items = setup.get(spec.items) if spec is not None else None
    if spec is None or not links or not isinstance(items, list):
        return setup  # nothing to link, or a set-up the create checks will refuse
    errors = {
        i: {"entry": [_("No such team or driver in the set-up.")]}
        for i, link in enumerate(links)
        if link["entry"] >= len(items) or not isinstance(items[link["entry"]], dict)
    }
    if errors:
        raise InvalidInput({"document": {"players": errors}})
    players = players_by_key(Player, club.pk, [link["name"] for link in links])
    linked = list(items)
    for link in links:
        player = players[match_key(link["name"])]
        linked[link["entry"]] = {**linked[link["entry"]], "player_id": player.pk}
    return {**setup, spec.items: linked}


def import_competition(*, kind: GameKind, club: Any, document: Any, by: Any) -> Any:
    """Recreate a competition from a document; InvalidInput (400) names what is wrong.

    The document is checked whole against its version's schema first (:func:`check_document`),
    then the set-up by the create request's checks and every result version by the game's
    submission checks. All or nothing: one transaction, so a document with a bad element
    anywhere stores nothing. ``by`` is the importing user, or None (a command run without
    ``--user``): the competition then has no creator and the audit entry no user.
    """
    checked = check_document(kind, document)
    with transaction.atomic():
        setup = _with_player_ids(kind, club, checked["competition"], checked["players"])
        try:
            competition = services.create_from_setup(kind=kind, club=club, setup=setup, by=by)
        except InvalidInput as exc:
            raise InvalidInput({"document": {"competition": exc.detail}}) from exc
        ids = {key: pk for pk, key in kind.entrant_keys(competition).items()}
        numbers = set(
            kind.event_model.objects.filter(competition=competition).values_list(
                "number", flat=True
            )
        )
        field = kind.entrant_field
        # Replayed in the order the events and their versions were stored; errors name the
        # element by its index in the document as sent.
        events = sorted(enumerate(checked["events"]), key=lambda item: item[1]["number"])
        for i, event in events:
            if event["number"] not in numbers:
                raise InvalidInput(
                    _path(i, None, {"number": [_("No such event in this competition.")]})
                )
            versions = sorted(enumerate(event["versions"]), key=lambda item: item[1]["number"])
            for j, version in versions:
                rows = version["rows"]
                unknown = {
                    k: {field: [_("Unknown entrant.")]}
                    for k, row in enumerate(rows)
                    if row.get(field) not in ids
                }
                if unknown:
                    raise InvalidInput(_path(i, j, {"rows": unknown}))
                # The checks of a submission through the API: the results body's shape and
                # bounds (its serializer), then the game's own checks (submit_results).
                body = kind.results_serializer(
                    data={"results": [{**row, field: ids[row[field]]} for row in rows]}
                )
                if not body.is_valid():
                    errors = dict(body.errors)
                    if "results" in errors:
                        errors["rows"] = errors.pop("results")
                    raise InvalidInput(_path(i, j, errors))
                try:
                    services.submit_results(
                        kind=kind,
                        competition_id=competition.pk,
                        number=event["number"],
                        rows=body.validated_data["results"],
                        by=by,
                        source=version["source"],
                    )
                except (InvalidInput, Conflict) as exc:
                    # The game's own result checks; or results for an event whose earlier
                    # events have none in the document (results are accepted in order).
                    detail = exc.detail if isinstance(exc.detail, (dict, list)) else [exc.detail]
                    raise InvalidInput(_path(i, j, detail)) from exc
        audit.record(
            club_id=club.pk,
            kind=kind.label,
            competition_id=competition.pk,
            action=AuditAction.IMPORTED,
            summary=f"Imported from a document exported {checked.get('exported_at') or '?'}",
            changes={"events": len(events)},
            by=by,
        )
    return competition


# --- the document's schema, one per format version ------------------------------------------
# Bounds: far above what a real competition holds (21 stages of a Grand Tour, 40 races, a few
# corrections per event), low enough that a document cannot make the import do unbounded work.
MAX_EVENTS = 100
MAX_VERSIONS = 200
MAX_ROWS = 200
MAX_ENTRANT_KEY = 200


class _ResultVersionV1(serializers.Serializer):
    number = IntegerField(min_value=1, max_value=2**31 - 1)
    # A field named like DRF's own Field.source attribute (the document's key).
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=Source.choices, required=False, default=Source.SUBMITTED
    )
    created_at = serializers.CharField(
        max_length=64, required=False, allow_null=True, allow_blank=True
    )
    created_by = serializers.CharField(
        max_length=150, required=False, allow_null=True, allow_blank=True
    )
    rows = serializers.ListField(child=serializers.DictField(), max_length=MAX_ROWS)

    def __init__(self, *args: Any, entrant_field: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entrant_field = entrant_field

    def validate_rows(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # Entrants are named by their stable keys (export_competition): text or a number.
        errors = {}
        for k, row in enumerate(rows):
            key = row.get(self.entrant_field)
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                errors[k] = {self.entrant_field: [_("Expected an entrant key.")]}
            elif isinstance(key, str) and len(key) > MAX_ENTRANT_KEY:
                errors[k] = {self.entrant_field: [_("Entrant key too long.")]}
        if errors:
            raise serializers.ValidationError(cast(Any, errors))
        return rows


class _EventV1(serializers.Serializer):
    number = IntegerField(min_value=1, max_value=32767)
    versions = serializers.ListField(child=serializers.DictField(), max_length=MAX_VERSIONS)

    def __init__(self, *args: Any, entrant_field: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entrant_field = entrant_field

    def validate_versions(self, versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        checked, errors = _each(
            versions, lambda item: _ResultVersionV1(data=item, entrant_field=self.entrant_field)
        )
        numbers = [v["number"] for v in checked if v is not None]
        if not errors and len(set(numbers)) != len(numbers):
            raise serializers.ValidationError(_("Version numbers repeat."))
        if errors:
            raise serializers.ValidationError(cast(Any, errors))
        return checked


class _PlayerLinkV1(serializers.Serializer):
    """One entry's club player: its place in the set-up's list and the player's name."""

    entry = IntegerField(min_value=0, max_value=MAX_ROWS - 1)
    name = CharField(max_length=80)

    def validate_name(self, value: str) -> str:
        if not clean_name(value):
            raise serializers.ValidationError(_("A player needs a name."))
        return clean_name(value)


class _DocumentV1(serializers.Serializer):
    format = serializers.CharField(max_length=40)
    format_version = IntegerField()
    kind = serializers.CharField(max_length=40)
    exported_at = serializers.CharField(
        max_length=64, required=False, allow_null=True, allow_blank=True
    )
    competition = serializers.DictField()
    events = serializers.ListField(
        child=serializers.DictField(), max_length=MAX_EVENTS, required=False, default=list
    )
    # Optional: documents exported before the player links have none.
    players = serializers.ListField(
        child=_PlayerLinkV1(), max_length=MAX_ROWS, required=False, default=list
    )

    def __init__(self, *args: Any, entrant_field: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entrant_field = entrant_field

    def validate_players(self, links: list[dict[str, Any]]) -> list[dict[str, Any]]:
        entries = [link["entry"] for link in links]
        if len(set(entries)) != len(entries):
            raise serializers.ValidationError(_("An entry is linked twice."))
        return links

    def validate_events(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        checked, errors = _each(
            events, lambda item: _EventV1(data=item, entrant_field=self.entrant_field)
        )
        if errors:
            raise serializers.ValidationError(cast(Any, errors))
        seen: dict[int, int] = {}
        for i, event in enumerate(checked):
            if event["number"] in seen:
                errors[i] = {"number": [_("Event %(n)s appears twice.") % {"n": event["number"]}]}
            seen.setdefault(event["number"], i)
        if errors:
            raise serializers.ValidationError(cast(Any, errors))
        return checked


def _each(items: list[Any], make: Any) -> tuple[list[Any], dict[int, Any]]:
    """Validate each item with its own serializer; errors keyed by the item's index."""
    checked: list[Any] = []
    errors: dict[int, Any] = {}
    for index, item in enumerate(items):
        serializer = make(item)
        if serializer.is_valid():
            checked.append(serializer.validated_data)
        else:
            errors[index] = serializer.errors
            checked.append(None)
    return checked, errors


SCHEMAS: dict[int, type[_DocumentV1]] = {1: _DocumentV1}


def check_document(kind: GameKind, document: Any) -> dict[str, Any]:
    """The document checked whole against its format version's schema (InvalidInput: 400).

    Errors are nested as the document is (``{"document": {"events": [{}, {"versions": […]}]}}``),
    so they name the path of every bad element; the envelope (format, version, kind) is checked
    first, since the rest of the schema depends on it.
    """
    if not isinstance(document, dict):
        raise InvalidInput({"document": [_("Expected a JSON object.")]})
    errors: dict[str, list[str]] = {}
    if document.get("format") != FORMAT:
        errors["format"] = [_("Not a Podium export (format %(f)s expected).") % {"f": FORMAT}]
    version = document.get("format_version")
    schema = (
        SCHEMAS.get(version) if isinstance(version, int) and not isinstance(version, bool) else None
    )
    if schema is None:
        errors["format_version"] = [
            _("Unsupported version; this Podium reads version %(v)s.") % {"v": FORMAT_VERSION}
        ]
    if document.get("kind") != kind.label:
        errors["kind"] = [_("This document holds a %(kind)s.") % {"kind": document.get("kind")}]
    if errors or schema is None:
        raise InvalidInput({"document": errors})
    serializer = schema(data=document, entrant_field=kind.entrant_field)
    if not serializer.is_valid():
        raise InvalidInput({"document": serializer.errors})
    return dict(serializer.validated_data)


def _path(event_index: int, version_index: int | None, detail: Any) -> dict[str, Any]:
    """``detail`` under ``document.events[i]`` (and ``.versions[j]``): the element at fault."""
    if version_index is not None:
        detail = {"versions": {version_index: detail}}
    return {"document": {"events": {event_index: detail}}}
