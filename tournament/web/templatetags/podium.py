"""Formatting for pages: times ``m:ss`` / ``h:mm:ss``, gaps ``+m:ss`` (leader ``—``), numbers."""

from __future__ import annotations

import datetime
from typing import Any

from django import template
from django.utils import dateformat, formats, timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring import clock
from tournament.web.components import GAP, NUMBER, RANK, TIME, Cell

register = template.Library()

JERSEY_LABELS = {
    "yellow": _("Yellow jersey"),
    "green": _("Green jersey"),
    "polka_dot": _("Polka Dot jersey"),
}


def _seconds(value: Any) -> int | None:
    """A template value as whole seconds (``None`` and ``""`` are no time)."""
    if value is None or value == "":
        return None
    return int(value)


@register.filter
def duration(value: Any) -> str:
    """Whole seconds as ``m:ss`` / ``h:mm:ss`` (scoring.clock: every time on the pages)."""
    return clock.clock(_seconds(value))


@register.filter
def gap(value: Any) -> str:
    """A gap as ``+m:ss`` / ``+h:mm:ss``; the leader's (0) is ``—`` (scoring.clock)."""
    return clock.gap(_seconds(value))


#: One unambiguous date/time form in every language: day, month name, year (``1 Dec 2026,
#: 19:00``; the month's name is translated by Django), never ``12/01/2026 7 p.m.``.
WHEN_FORMAT = "j M Y, H:i"
DAY_FORMAT = "j M Y"


@register.filter
def when(value: Any) -> str:
    """A moment in the site's time zone as ``1 Dec 2026, 19:00`` (month named per language)."""
    if not value:
        return ""
    return dateformat.format(timezone.localtime(value), WHEN_FORMAT)


@register.filter
def day(value: Any) -> str:
    """A date as ``1 Dec 2026`` (month named per language)."""
    if not value:
        return ""
    moment = timezone.localtime(value) if isinstance(value, datetime.datetime) else value
    return dateformat.format(moment, DAY_FORMAT)


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
