"""Pure-engine issues → DRF-shaped field errors, translated by issue code.

The scoring engine speaks English with a stable ``code`` and ``params``; here each code maps to
a translatable template, so the API and the web forms show one message per problem in the user's
language. Unknown codes fall back to the engine's English text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.grand_tour.validation import format_time
from scoring.issues import Issue
from tournament.competitions.messages import issues_to_errors as shared_issues_to_errors
from tournament.competitions.messages import translated

#: code → template using the issue's params (scoring/grand_tour/validation.py, GT-11).
TEMPLATES: dict[str, Promise | str] = {
    # GT-11.1
    "unknown_rider": _("Rider %(rider)s does not ride in this tour."),
    "duplicate_rider": _("%(name)s is listed %(count)s times; list each rider once."),
    "missing_rider": _("%(name)s has no result; every rider of the tour needs one."),
    # GT-11.2
    "position_out_of_range": _(
        "%(name)s has position %(position)s; positions run from 1 to %(count)s."
    ),
    "duplicate_position": _(
        "%(name)s has position %(position)s, which another rider already has; each position "
        "is used once."
    ),
    "positions_not_sequence": _("Positions must be exactly 1 to %(count)s; missing: %(missing)s."),
    # GT-11.3
    "negative": _("%(name)s has %(value)s here; it cannot be negative."),
    "seconds_too_large": _(
        "%(name)s has %(value)s seconds; seconds must be below 60 (a whole minute is a Time token)."
    ),
    "seconds_not_on_timing_tile": _(
        "%(name)s has %(value)s seconds, which is not on the %(finish)s Timing tile (%(allowed)s)."
    ),
    # GT-11.4
    "time_decreases": _(
        "%(name)s (position %(position)s) has time %(time)s, less than %(previous_time)s of "
        "position %(previous_position)s, who crossed the line earlier; times never decrease "
        "along the finishing order."
    ),
    # GT-11.6
    "negative_exhaustion": _(
        "%(name)s has %(value)s Exhaustion cards; a count cannot be negative."
    ),
    # scoring.bounds
    "time_too_long": _("%(name)s's time is more than 24 hours."),
    "too_many_points": _("%(name)s has more than %(limit)s points here."),
    "too_many_cards": _("%(name)s has more than %(limit)s Exhaustion cards."),
}

# Finish names as they appear inside a sentence ("the flat Timing tile").
FINISH_WORDS: dict[str, Promise] = {
    "flat": pgettext_lazy("timing tile", "flat"),
    "ascent": pgettext_lazy("timing tile", "ascent"),
}
TIME_PARAMS = ("time", "previous_time")


def _display(params: Mapping[str, Any]) -> dict[str, Any]:
    """The issue's params as a reader sees them: names, lists, times, translated finishes."""
    shown = dict(params)
    if shown.get("name") is None and "rider" in shown:
        # An unknown rider has no name (GT-11.1): say which id was sent.
        shown["name"] = gettext("Rider %(rider)s") % {"rider": shown["rider"]}
    for key, value in params.items():
        if isinstance(value, (list, tuple)):
            shown[key] = ", ".join(str(v) for v in value)
    for key in TIME_PARAMS:
        if isinstance(params.get(key), int):
            shown[key] = format_time(params[key])
    if params.get("finish") in FINISH_WORDS:
        shown["finish"] = FINISH_WORDS[params["finish"]]
    return shown


def translate(code: str, message: str, params: Mapping[str, Any]) -> str:
    return translated(TEMPLATES.get(code), message, _display(params))


def issues_to_errors(
    issues: Iterable[Issue], row_count: int, key: str = "results"
) -> dict[str, Any]:
    """``{"results": [{field: [msg]}, …]}`` for GT-11 issues (API.md: nested for list items)."""
    return shared_issues_to_errors(
        issues, row_count, lambda i: translate(i.code, i.message, i.params), key
    )
