"""Formatting for pages: stage times ``h:mm:ss``, gaps ``+m:ss`` / ``+h:mm:ss``, local numbers."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.web.components import GAP, NUMBER, RANK, TIME, Cell

register = template.Library()

JERSEY_LABELS = {
    "yellow": _("Yellow jersey"),
    "green": _("Green jersey"),
    "polka_dot": _("Polka Dot jersey"),
}


def _clock(value: Any, *, plus: str, short: bool) -> str:
    """Whole seconds as ``h:mm:ss`` (``m:ss`` under an hour when ``short``), ``plus`` or ``-``."""
    if value is None or value == "":
        return ""
    seconds = int(value)
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    sign = "-" if seconds < 0 else plus
    if short and not hours:
        return f"{sign}{minutes}:{secs:02d}"
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"


@register.filter
def duration(value: Any) -> str:
    """Whole seconds as ``h:mm:ss`` (every stage and total time on the pages)."""
    return _clock(value, plus="", short=False)


@register.filter
def gap(value: Any) -> str:
    """A gap as ``+m:ss``, or ``+h:mm:ss`` from an hour on (API.md: pages show gaps this way)."""
    return _clock(value, plus="+", short=True)


@register.filter
def num(value: Any) -> str:
    """An integer with the locale's grouping (1 234 in French, 1.234 in Portuguese)."""
    if value is None or value == "":
        return ""
    return formats.number_format(value, decimal_pos=0, use_l10n=True, force_grouping=True)


@register.simple_tag
def cell(item: Cell) -> str:
    """One table cell's content, formatted by its kind, with its link and icon."""
    if item.kind == TIME:
        text = duration(item.value)
    elif item.kind == GAP:
        text = gap(item.value)
    elif item.kind in (NUMBER, RANK):
        text = num(item.value)
    else:
        text = "" if item.value is None else str(item.value)
    content = format_html('<a href="{}">{}</a>', item.href, text) if item.href else text
    if item.icon:
        return format_html("{}{}", jersey(item.icon), content)
    return format_html("{}", content)


@register.simple_tag
def jersey(name: str | None) -> str:
    """The jersey icon (an SVG ``<use>`` of the sprite in base.html), labelled for readers."""
    if not name or name not in JERSEY_LABELS:
        return ""
    return format_html(
        '<svg class="jersey jersey--{}" role="img" aria-label="{}" focusable="false">'
        '<title>{}</title><use href="#i-jersey"></use></svg>',
        name,
        JERSEY_LABELS[name],
        JERSEY_LABELS[name],
    )
