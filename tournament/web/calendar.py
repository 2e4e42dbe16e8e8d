"""A club's calendar (issue #18 item 5; API.md, "Dates, calendar, printouts, share cards").

``GET /clubs/<slug>/calendar.ics`` is an RFC 5545 calendar built with the ``icalendar`` library
(escaping, line folding, CRLF): one ``VEVENT`` per dated event of the club's public
competitions, and of its private ones too for an organiser who subscribes with
``?token=<their API token>`` (calendar apps send no session cookie). UIDs are stable
(kind, competition and event number), DTSTAMP is when the competition was last revised. The
same query feeds the "upcoming" lists of the club and competition pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from icalendar import Calendar
from icalendar import Event as CalendarEvent
from rest_framework.authtoken.models import Token

from tournament.clubs.models import Club, Role, role_in
from tournament.competitions.kinds import AnyKind, all_kinds
from tournament.web import pages

#: A game night: the calendar shows each event as two hours from its start (the API has only
#: the start; a zero-length entry is hidden or misdrawn by some calendar apps).
DURATION = timedelta(hours=2)


@dataclass(frozen=True)
class Dated:
    """One dated event of a club's competition, with what a calendar entry needs."""

    kind: AnyKind
    competition: Any
    event: Any
    url: str  # the event page's path

    @property
    def title(self) -> str:
        event = self.kind.event_label(self.event.number)
        if self.event.name:
            event = f"{event}: {self.event.name}"
        return f"{self.competition.name} — {event}"


def dated_events(
    club: Club,
    *,
    private: bool,
    user: Any = None,
    since: datetime | None = None,
    competition: Any = None,
    limit: int | None = None,
) -> list[Dated]:
    """The dated events of ``club`` (one query per game), soonest first.

    ``private``: the club's private competitions too; otherwise those ``user`` may read (public
    ones for ``None``). ``since`` keeps the events from that moment on; ``competition`` one
    competition's events only.
    """
    found: list[Dated] = []
    for kind in all_kinds():
        page = pages.pages_of(kind.label)
        if page is None:
            continue
        if competition is not None and not isinstance(competition, kind.competition_model):
            continue
        competitions = kind.competition_model.objects.filter(club=club)
        if not private:
            competitions = (
                competitions.visible_to(user)
                if user is not None
                else competitions.filter(public=True)
            )
        events = kind.event_model.objects.filter(
            competition__in=competitions, date__isnull=False
        ).select_related("competition")
        if competition is not None:
            events = events.filter(competition=competition)
        if since is not None:
            events = events.filter(date__gte=since)
        events = events.defer("results").order_by("date", "number")
        if limit is not None:
            events = events[:limit]
        found += [
            Dated(kind, e.competition, e, page.event_url(e.competition_id, e.number))
            for e in events
        ]
    found.sort(key=lambda d: (d.event.date, d.kind.label, d.competition.pk, d.event.number))
    return found[:limit] if limit is not None else found


def upcoming(club: Club, user: Any, *, competition: Any = None, limit: int = 5) -> list[Dated]:
    """The next dated events a reader may see (from the start of today, site time).

    On a competition's page (already visible to the reader) its events are read from the
    page's prefetched ones: no query of its own.
    """
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    if competition is not None:
        return _upcoming_of(competition, today, limit)
    return dated_events(club, private=False, user=user, since=today, limit=limit)


def _upcoming_of(competition: Any, since: datetime, limit: int) -> list[Dated]:
    kind = next(k for k in all_kinds() if isinstance(competition, k.competition_model))
    page = pages.pages_of(kind.label)
    if page is None:
        return []
    related = kind.event_model._meta.get_field("competition").remote_field.related_name
    events = [e for e in getattr(competition, str(related)).all() if e.date and e.date >= since]
    events.sort(key=lambda e: (e.date, e.number))
    return [
        Dated(kind, competition, e, page.event_url(competition.pk, e.number))
        for e in events[:limit]
    ]


class TokenRefused(Exception):
    """``?token=`` names no API token."""


def _token_user(raw: str | None) -> Any:
    """The user of an API token (None without one); TokenRefused for an unknown one."""
    if raw is None:
        return None
    token = Token.objects.select_related("user").filter(key=raw).first()
    if token is None or not token.user.is_active:
        raise TokenRefused
    return token.user


def build_calendar(club: Club, events: list[Dated], base: str, host: str) -> bytes:
    """The RFC 5545 text of ``events`` (``base``: scheme and host of the links)."""
    calendar = Calendar()
    calendar.add("prodid", "-//Podium//Club calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", club.name)
    for item in events:
        entry = CalendarEvent()
        # Stable: the same event keeps its UID across calls and date changes.
        entry.add("uid", f"{item.kind.label}-{item.competition.pk}-{item.event.number}@{host}")
        entry.add("dtstamp", item.competition.updated_at)
        entry.add("last-modified", item.competition.updated_at)
        entry.add("dtstart", item.event.date)
        entry.add("duration", DURATION)
        entry.add("summary", item.title)
        entry.add("description", f"{club.name}: {item.title}\n{base}{item.url}")
        entry.add("url", f"{base}{item.url}")
        entry.add("categories", [club.name])
        calendar.add_component(entry)
    return calendar.to_ical()


@require_safe
def club_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """``calendar.ics``: public events; with an organiser's ``?token=`` the private ones too."""
    club = get_object_or_404(Club, slug=slug)
    try:
        user = _token_user(request.GET.get("token"))
    except TokenRefused:
        return HttpResponse(
            _("This token is not a valid API token."),
            status=401,
            content_type="text/plain; charset=utf-8",
        )
    organiser = user is not None and role_in(club.pk, user) == Role.ORGANISER
    events = dated_events(club, private=organiser)
    base = f"{request.scheme}://{request.get_host()}"
    host = request.get_host().split(":")[0]
    response = HttpResponse(
        build_calendar(club, events, base, host), content_type="text/calendar; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="{club.slug}.ics"'
    # A token's answer holds private events: never kept by a shared cache.
    response["Cache-Control"] = "private, max-age=300" if user is not None else "max-age=300"
    return response
