"""The Grand Tour set-up page's courses: the catalogue's courses as the form picks them, and
each course's profile drawn as the page shows it (the same drawing ``static/podium/setup.js``
makes in the browser), with the words the script writes in the page's language.

Split from :mod:`tournament.tours.setup_page` (the form itself), which imports these.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournament.catalogue.data import catalogue

CUSTOM = "custom"
NO_COURSE = "none"


@cache
def courses() -> dict[str, dict[str, Any]]:
    """The catalogue's courses by the key the form uses (``<id>-<players>``)."""
    return {f"{c['id']}-{c['players']}": c for c in catalogue()["courses"]}


def course_key(text: str) -> str:
    """The catalogue key of a course string, ``custom`` for any other, ``none`` for none."""
    if not text:
        return NO_COURSE
    return next((key for key, c in courses().items() if c["course"] == text), CUSTOM)


def course_choices() -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", _("Choose a course…"))]
    for key, c in courses().items():
        choices.append(
            (
                key,
                _("%(name)s · %(players)s players") % {"name": c["name"], "players": c["players"]},
            )
        )
    choices.append((CUSTOM, _("Custom course (tile codes)")))
    choices.append((NO_COURSE, _("No course: results entered by hand only")))
    return choices


# --- the profile drawing (the same as static/podium/setup.js draws) ------------------------


def profile_svg(profile: list[dict[str, Any]], stacks: list[dict[str, Any]]) -> SafeString:
    """The course's squares as columns rising on ascents and falling after descents, coloured
    by terrain, the finish line drawn, stacks as dots; each square clickable (``data-square``)."""
    if not profile:
        return SafeString("")
    width, base, step = 6, 34, 3
    levels, level = [], 0
    for square in profile:
        if square["terrain"] == "ascent":
            level += 1
        levels.append(level)
        if square["terrain"] == "descent":
            level -= 1
    low, high = min([0, *levels]), max([0, *levels])
    height = base + (high - low) * step + 14
    terrain = terrain_words()
    parts = []
    finish_drawn = False
    for i, square in enumerate(profile):
        h = 16 + (levels[i] - low) * step
        label = _("Square %(n)s") % {"n": i + 1}
        parts.append(
            format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" class="sq t-{}" data-square="{}">'
                "<title>{} · {}</title></rect>",
                i * width,
                height - h,
                width - 0.6,
                h,
                square["terrain"],
                i + 1,
                label,
                terrain.get(square["terrain"], square["terrain"]),
            )
        )
        if square.get("past_line") and not finish_drawn:
            finish_drawn = True
            parts.append(
                format_html(
                    '<line x1="{}" x2="{}" y1="0" y2="{}" class="finish-line"/>',
                    i * width - 0.3,
                    i * width - 0.3,
                    height,
                )
            )
    for stack in stacks:
        square_number = stack.get("square")
        if not isinstance(square_number, int) or not 1 <= square_number <= len(profile):
            continue
        i = square_number - 1
        h = 16 + (levels[i] - low) * step
        parts.append(
            format_html(
                '<circle cx="{}" cy="{}" r="{}" class="stack-mark stack-{}"/>',
                i * width + width / 2,
                max(height - h - 5, 4),
                3.4 if stack.get("type") == "major" else 2.4,
                stack.get("side", "sprint"),
            )
        )
    return format_html(
        '<svg viewBox="0 0 {} {}" role="img" aria-label="{}">{}</svg>',
        len(profile) * width,
        height,
        _("Course profile, %(n)s squares") % {"n": len(profile)},
        format_html_join("", "{}", ((p,) for p in parts)),
    )


def terrain_words() -> dict[str, str]:
    return {
        "start": _("start"),
        "flat": _("flat"),
        "ascent": _("ascent"),
        "descent": _("descent"),
        "supply": _("supply"),
        "cobbles": _("cobbles"),
        "breakaway": _("breakaway"),
    }


def finish_words() -> dict[str, str]:
    return {"flat": _("flat finish"), "ascent": _("ascent finish")}


def script_words() -> str:
    """What setup.js writes, in the page's language (JSON)."""
    return json.dumps(
        {
            "profile": _("Course profile, %(n)s squares"),
            "square": _("Square %(n)s"),
            "terrain": terrain_words(),
            "finish": finish_words(),
            "info": _("%(n)s squares · %(finish)s · click a square to place a token stack there"),
            "nocourse": _("Without a course the stage cannot be simulated; results are typed in."),
            "clash": _(
                "Only %(copies)s copy of this Specialist exists with %(teams)s teams (GT-1.3)."
            ),
            "placed": _("Token stack placed on square %(n)s: choose its kind and side."),
        }
    )


def catalogue_json() -> str:
    return json.dumps(
        {
            key: {"name": c["name"], "profile": c["profile"], "finish": c["finish"]}
            for key, c in courses().items()
        }
    )
