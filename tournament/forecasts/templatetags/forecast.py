"""``{% forecast_section kind competition %}``: the forecast section of a competition page."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.forecasts.pages import section

register = template.Library()


@register.inclusion_tag("web/forecast/section.html")
def forecast_section(kind: str, competition: Any) -> dict[str, Any]:
    return section(kind, competition)
