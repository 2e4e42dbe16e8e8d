"""Serializer pieces every game's API shares (API.md conventions), so a game declares only its
own set-up fields.

- :class:`CreateRequestSerializer`: ``club``, ``name``, ``public`` of every create request (and
  :class:`SeededCreateRequestSerializer` with ``seed``); an unknown key is a 400. A game's create
  serializer puts it before its set-up serializer: ``class XCreate(SeededCreate…, XSetup)``.
- :class:`PatchRequestSerializer`: ``name`` and ``public`` of every PATCH; a key the PATCH
  cannot change is a 400. A game adds its set-up keys.
- :class:`RowsAsSentSerializer`: a results body whose rows reach the game's own checks as sent
  (they report strings, floats and unknown keys themselves).
- :class:`NamedDriversEventSerializer`: an event whose entrants are drivers by id, shown by name.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from rest_framework import serializers

from tournament.clubs.models import Club
from tournament.fields import BooleanField, CharField, IntegerField, SlugRelatedField

MAX_SEED = 2**63 - 1
#: Rows of one results body: far above any board game's field, low enough to bound the checks.
MAX_ROWS = 100


def reject_unknown(serializer: serializers.Serializer[Any], message: str) -> None:
    """A key the endpoint does not take is a 400 (API.md), never silently ignored."""
    initial = getattr(serializer, "initial_data", None)
    unknown = set(initial if isinstance(initial, dict) else {}) - set(serializer.fields)
    if unknown:
        raise serializers.ValidationError({key: [message] for key in sorted(unknown)})


class EventDateField(serializers.DateTimeField):
    """An event's optional ``date`` (API.md, "Dates"): ISO 8601 with a UTC offset, or null.

    A moment without an offset is a 400: read in the server's zone it would silently move the
    game night for a club in another one.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault("help_text", "ISO 8601 date-time with offset, e.g. 2026-12-05T19:00:00Z.")
        super().__init__(**kwargs)

    def to_internal_value(self, value: Any) -> Any:
        if isinstance(value, str) and parse_datetime_naive(value):
            raise serializers.ValidationError(
                _("Give the date with its time and UTC offset, e.g. 2026-12-05T19:00:00+00:00.")
            )
        return super().to_internal_value(value)


def parse_datetime_naive(value: str) -> bool:
    """Whether ``value`` reads as a date-time without a UTC offset (or a bare date)."""
    try:
        moment = parse_datetime(value.strip())
    except ValueError:
        return False  # not a date at all: DateTimeField's own message says so
    return moment is not None and moment.tzinfo is None


def event_date(value: Any) -> str | None:
    """An event's ``date`` as the API shows it (ISO 8601 with offset), ``None`` when unset."""
    return None if value is None else EventDateField().to_representation(value)


class EventDateSerializer(serializers.Serializer[Any]):
    """``PATCH`` on one event: ``{"date": ...}`` (a date is not set-up: any time, organisers)."""

    date = EventDateField(required=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("This field cannot be changed."))
        return data


class CreateRequestSerializer(serializers.Serializer[Any]):
    """The fields every create request has besides the game's set-up."""

    club = SlugRelatedField[Club](slug_field="slug", queryset=Club.objects.all())
    name = CharField(max_length=160)
    public = BooleanField(required=False, default=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("Unknown field."))
        checked: dict[str, Any] = super().validate(data)
        return checked


class SeededCreateRequestSerializer(CreateRequestSerializer):
    """A create request of a game whose random decisions derive from a seed (API.md, Seeds)."""

    seed = IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED)


class PatchRequestSerializer(serializers.Serializer[Any]):
    """``PATCH``: ``name`` and ``public`` any time; a game adds the keys of its set-up."""

    name = CharField(max_length=160, required=False)
    public = BooleanField(required=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("This field cannot be changed."))
        return data


class RowsAsSentSerializer(serializers.Serializer[Any]):
    """``{"results": [...], "version": n}`` with the rows as sent, for the game to check."""

    # A DRF IntegerField would turn "3" into 3 and drop unknown keys silently.
    results = serializers.ListField(
        child=serializers.JSONField(), allow_empty=False, max_length=MAX_ROWS
    )
    version = IntegerField(required=False, min_value=0)


#: The fields an event detail ends with, after the game's own (API.md: the event's state).
EVENT_STATE_FIELDS = (
    "status",
    "source",
    "error",
    "version",
    "results",
    "submitted_at",
    "resolved_at",
)


def competition_fields(*own: str, seed: bool = True) -> list[str]:
    """A competition detail's fields: the shared ones around the game's ``own``."""
    return [
        "id",
        "club",
        "name",
        "public",
        *(("seed",) if seed else ()),
        *own,
        "standings_through",
        "created_at",
    ]


class CompetitionDetailSerializer(serializers.ModelSerializer[Any]):
    """A competition's detail: its club by slug; a game adds its fields (``competition_fields``)."""

    club = serializers.SlugRelatedField[Club](slug_field="slug", read_only=True)


class NamedDriversEventSerializer(serializers.ModelSerializer[Any]):
    """An event whose ``drivers`` column holds entrant ids: ``drivers`` answers their names (as
    the set-up named them), ``driver_ids`` the ids, and each result row gains the driver's
    ``name``. One query per event, whatever the number of rows.

    Subclasses declare ``driver_model`` and ``driver_link``, its foreign key to the competition
    (``"championship_id"``), beside their ``Meta``.
    """

    driver_model: ClassVar[type[models.Model]]
    driver_link: ClassVar[str]

    drivers = serializers.SerializerMethodField()
    driver_ids = serializers.ListField(source="drivers", child=IntegerField())
    results = serializers.SerializerMethodField()

    def _names(self, event: Any) -> dict[int, str]:
        cache: dict[int, str] | None = getattr(event, "_driver_names", None)
        if cache is None:
            rows = self.driver_model._default_manager.filter(
                **{self.driver_link: event.competition_id}
            ).values_list("pk", "name")
            cache = {pk: name for pk, name in rows}
            event._driver_names = cache
        return cache

    def get_drivers(self, event: Any) -> list[str]:
        names = self._names(event)
        return [names.get(pk, "") for pk in event.drivers]

    def get_results(self, event: Any) -> list[dict[str, Any]]:
        """The rows as stored (finishing order), with the driver's ``name`` added."""
        names = self._names(event)
        return [{**row, "name": names.get(row["driver"], "")} for row in event.results]
