"""``{% club_seasons club role %}``: the club page's list of seasons (one query), with the
organisers' "New season" link. A tag, so the club page's view needs no change."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.seasons.models import Season

register = template.Library()


@register.inclusion_tag("web/seasons/_club_seasons.html")
def club_seasons(club: Any, role: str | None = None) -> dict[str, Any]:
    seasons = list(Season.objects.filter(club=club).values("pk", "name"))
    return {"club": club, "seasons": seasons, "can_organise": role == "organiser"}
