"""Events' dates on the set-up pages: the ``datetime-local`` boxes, and the dates an edit still
changes once the set-up is locked (API.md, "Dates").

A date is no part of the set-up: before results it travels with its event in the PATCH; once
results are stored the PATCH no longer carries events, so the page sets each event's date
itself, one by one with the event PATCH's own serializer (``EventDateSerializer``), as
``PATCH /api/<collection>/<id>/<events>/<n>/`` would. Every kind's page does this alike.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournament.competitions import services
from tournament.competitions.serializers import EventDateSerializer
from tournament.web.setup.boxes import Box, ErrorMap, Values, box
from tournament.web.setup.flow import Lock

#: The help under an event's date box (the tour says "stage", the other kinds "it").
DATE_HELP = _("When it is played, for the club's calendar; it may change at any time.")


def local_date(value: Any) -> str:
    """A stored or API date as a ``datetime-local`` box shows it, in the page's time zone."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def typed_date(text: str | None) -> str | None:
    """A ``datetime-local`` box's value for the API: the page's time zone added (the box has
    none); empty as None; anything unreadable as typed, for the API to refuse."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        moment = parse_datetime(text)
    except ValueError:
        return text
    if moment is None:
        return text
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_current_timezone())
    return moment.isoformat()


def date_box(values: Values, errors: ErrorMap, name: str, help: str | Promise = DATE_HELP) -> Box:
    """An event's optional date box ``name`` (``races-0-date``), in the page's time zone."""
    return box(values, errors, name, _("Date (optional)"), kind="datetime", help=help)


class EventDates:
    """The ``check_more``/``apply_more`` of :class:`~tournament.web.setup.views.SetupPage` for
    events' dates: once the set-up is locked, each event's ``<event_prefix>-<i>-date`` box
    (i = number - 1) is checked, then stored, one event at a time."""

    event_prefix: ClassVar[str] = "races"
    kind: Any

    def date_name(self, number: int) -> str:
        return f"{self.event_prefix}-{number - 1}-date"

    def event_dates(self, values: Values, competition: Any) -> list[tuple[int, Any]]:
        """(event number, the typed date as the API reads it) for every stored event."""
        numbers = self.kind.event_model.objects.filter(competition=competition)
        return [
            (n, typed_date(values.get(self.date_name(n))))
            for n in numbers.order_by("number").values_list("number", flat=True)
        ]

    def check_more(self, values: Values, competition: Any, lock: Lock) -> Any:
        if not lock.locked:
            return None  # the dates travel with the events in the PATCH
        errors = {}
        for number, date in self.event_dates(values, competition):
            body = EventDateSerializer(data={"date": date})
            if not body.is_valid():
                errors[self.date_name(number)] = body.errors["date"]
        return errors or None

    def apply_more(self, values: Values, competition: Any, lock: Lock, by: Any) -> None:
        if not lock.locked:
            return
        for number, date in self.event_dates(values, competition):
            body = EventDateSerializer(data={"date": date})
            body.is_valid(raise_exception=True)  # checked by check_more a moment ago
            services.set_event_date(
                kind=self.kind,
                competition_id=competition.pk,
                number=number,
                date=body.validated_data["date"],
                by=by,
            )
