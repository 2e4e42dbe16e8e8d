"""``{% run_actions kind competition event %}`` and ``{% run_remaining kind competition %}``:
the run panels of event and competition pages (``tournament.web.run``), drawn only for
scorekeepers and organisers of the club; a few queries, only for them."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tournament.competitions.kinds import get_kind
from tournament.web import run

register = template.Library()


@register.inclusion_tag("web/_run_actions.html", takes_context=True)
def run_actions(context: Any, label: str, competition: Any, event: Any) -> dict[str, Any]:
    """The event's Simulate / Simulate again / Resolve again buttons, or why not."""
    request = context.get("request")
    user = getattr(request, "user", None)
    panel = None
    if user is not None:
        panel = run.event_run(get_kind(label), competition, event, user)
    board = ""
    if panel is not None and label == "tour":
        board = reverse("web:tour-board", args=(competition.pk, event.number))
    return {
        "run": panel,
        "event": event,
        "label": get_kind(label).event_label(event.number),
        "board_url": board,
    }


@register.inclusion_tag("web/_run_remaining.html", takes_context=True)
def run_remaining(context: Any, label: str, competition: Any) -> dict[str, Any]:
    """The competition's "Simulate the remaining …" button, or why not."""
    request = context.get("request")
    user = getattr(request, "user", None)
    offer = run.remaining_run(get_kind(label), competition, user) if user is not None else None
    return {"remaining": offer, "kind_label": label}
