"""``{% live_links competition %}``: a page follows its competition's stream and links its screen.

One line in each page that shows standings; it renders the "Big screen" link and the element
``static/podium/live.js`` subscribes from, with the version the page shows. It costs no query:
the version is a column of the competition the page loaded (for a rally championship, the sum
over its prefetched rallies).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tournament.competitions.kinds import all_kinds
from tournament.live.state import RALLY_CHAMPIONSHIP

register = template.Library()


def kind_of(competition: Any) -> str:
    """The kind label of ``competition`` (``rally-championship`` for a rally championship)."""
    for kind in all_kinds():
        if isinstance(competition, kind.competition_model):
            return kind.label
    return RALLY_CHAMPIONSHIP


def version_of(competition: Any, kind: str) -> int:
    if kind == RALLY_CHAMPIONSHIP:
        return sum(entry.rally.standings_version for entry in competition.entries.all())
    return int(competition.standings_version)


@register.inclusion_tag("web/screen/_live.html")
def live_links(competition: Any, screen: bool = True) -> dict[str, Any]:
    kind = kind_of(competition)
    return {
        "events_url": reverse(f"live:{kind}-events", args=[competition.pk]),
        "screen_url": reverse(f"live:{kind}-screen", args=[competition.pk]) if screen else "",
        "version": version_of(competition, kind),
    }
