"""``{% tour_awards tour %}``: the end-of-tour awards section of the tour page."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.tours import awards

register = template.Library()


@register.inclusion_tag("web/_tour_awards.html")
def tour_awards(tour: Any) -> dict[str, Any]:
    """The awards of a finished tour (nothing is drawn before its last stage is resolved)."""
    return {"tour": tour, "awards": awards.shown(tour)}
