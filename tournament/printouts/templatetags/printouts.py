"""``{% og_tags %}``: Open Graph and Twitter card tags on every page (``templates/base.html``).

A page of a competition (or of one of its events) points at the share card of the event it
shows, or of the latest resolved one: read from the objects the page already has in its
context (no query: the club is named only when the page loaded it with the competition).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.printouts.sheets import COLLECTIONS

register = template.Library()

#: Context keys of each kind's pages: the competition, the event.
KEYS = {
    "tour": ("tour", "stage"),
    "championship": ("championship", "race"),
    "league": ("league", "race"),
    "rally": ("rally", "stage"),
}


def _found(context: Any) -> tuple[str, Any, Any] | None:
    for label, (competition_key, event_key) in KEYS.items():
        competition = context.get(competition_key)
        if isinstance(competition, get_kind(label).competition_model):
            event = context.get(event_key)
            event_model = get_kind(label).event_model
            return label, competition, event if isinstance(event, event_model) else None
    return None


def card_path(label: str, competition: Any, event: Any = None) -> str:
    """The card of ``event`` when resolved, else of the latest resolved event ("" if none)."""
    number = None
    if event is not None and event.status == Status.RESOLVED:
        number = event.number
    elif competition.standings_through:
        number = competition.standings_through
    if number is None:
        return ""
    try:
        return reverse(f"printouts:{label}-card", args=[competition.pk, number])
    except NoReverseMatch:
        return ""


def sheet_path(label: str, competition: Any) -> str:
    return reverse(f"printouts:{label}-sheet", args=[competition.pk])


@register.simple_tag(takes_context=True)
def og_tags(context: Any) -> SafeString:
    request = context.get("request")
    if request is None:
        return SafeString("")
    found = _found(context)
    language = context.get("LANGUAGE_CODE", "")
    tags: list[tuple[str, str, str]] = [("property", "og:site_name", "Podium")]
    tags.append(("property", "og:url", request.build_absolute_uri(request.path)))
    if found is None:
        club = context.get("club")
        title = getattr(club, "name", "") or "Podium"
        tags += [("property", "og:title", title), ("name", "twitter:card", "summary")]
        tags.append(("property", "og:description", _("Standings of board-game club competitions")))
        return _render(tags)
    label, competition, event = found
    kind = get_kind(label)
    parts = (
        [str(competition._state.fields_cache["club"].name)]
        if ("club" in competition._state.fields_cache)
        else []
    )
    title = competition.name
    if event is not None:
        title = f"{competition.name} · {kind.event_label(event.number)}"
    shown = event.number if event is not None else competition.standings_through
    if shown:
        parts.append(_("Podium and leaders after %(event)s") % {"event": kind.event_label(shown)})
    tags += [
        ("property", "og:type", "website"),
        ("property", "og:title", title),
        ("property", "og:description", " · ".join(parts) or title),
        ("name", "twitter:title", title),
    ]
    card = card_path(label, competition, event)
    if card:
        version = f"{competition.standings_version}"
        image = request.build_absolute_uri(f"{card}?lang={language}&v={version}")
        tags += [
            ("property", "og:image", image),
            ("property", "og:image:type", "image/png"),
            ("property", "og:image:width", "1200"),
            ("property", "og:image:height", "630"),
            ("name", "twitter:card", "summary_large_image"),
            ("name", "twitter:image", image),
        ]
    else:
        tags.append(("name", "twitter:card", "summary"))
    return _render(tags)


def _render(tags: list[tuple[str, str, str]]) -> SafeString:
    return format_html_join("\n", '<meta {}="{}" content="{}">', tags)


@register.simple_tag
def print_sheet_link(competition: Any) -> SafeString:
    """The "Print sheet" link of a competition page (``{% print_sheet_link tour %}``)."""
    for label, collection in COLLECTIONS.items():
        del collection
        if isinstance(competition, get_kind(label).competition_model):
            return format_html(
                '<p class="print-sheet"><a href="{}" target="_blank" rel="noopener">{}</a></p>',
                sheet_path(label, competition),
                _("Print sheet (PDF)"),
            )
    return SafeString("")
