"""``{% forecast_section kind competition %}``: the forecast summary of a competition page (who
can still win, the favourites' chances, a link to the full forecast page)."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.forecasts.pages import summary

register = template.Library()


@register.inclusion_tag("web/forecast/summary.html")
def forecast_section(kind: str, competition: Any) -> dict[str, Any]:
    return summary(kind, competition)
