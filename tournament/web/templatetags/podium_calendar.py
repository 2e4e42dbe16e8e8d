"""``{% upcoming_events club %}`` (or ``club competition``): the next dated events a reader may
see, with the club's calendar link (``tournament.web.calendar``)."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.web.calendar import upcoming

register = template.Library()


@register.inclusion_tag("web/calendar/_upcoming.html", takes_context=True)
def upcoming_events(context: Any, club: Any, competition: Any = None) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    events = upcoming(club, user, competition=competition) if user is not None else []
    return {"club": club, "events": events, "competition": competition}
