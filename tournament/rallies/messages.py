"""Pure-engine issues of a rally stage sheet → DRF-shaped field errors, translated by code.

``scoring.rally.check_stage_sheet`` speaks English with a stable ``code`` and ``params``
(RM-53); each code maps here to a translatable template that names the driver, so the API and
the scorekeeper form show one message per problem in the reader's language. Unknown codes fall
back to the engine's English text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.clock import clock
from scoring.issues import Issue
from tournament.competitions.messages import issues_to_errors as shared_issues_to_errors
from tournament.competitions.messages import translated

#: code → template using the issue's params (scoring/rally/sheet.py, scoring/rally/notation.py).
TEMPLATES: dict[str, Promise] = {
    # RM-53.1, RM-53.2, RM-53.3
    "unknown_driver": _("Driver %(driver)s is not entered in this rally."),
    "driver_out": _("%(name)s is out of the rally (retired on an earlier stage, RM-46)."),
    "duplicate_driver": _("%(name)s is listed twice; list each driver once."),
    "missing_driver": _("%(name)s has no entry; every driver still in the rally needs one."),
    "required": _("This field is required."),
    "invalid_driver": _("A driver id is required."),
    "not_object": _("Each entry must be an object."),
    "penalty_not_object": _("Each penalty must be an object."),
    "not_a_list": _("Results must be a list of entries."),
    "unknown_field": _("Unknown field %(field)s."),
    "invalid_status": _("Status must be finished or retired."),
    # RM-53.4
    "invalid_time": _("Time must be whole seconds or an m:ss string such as 4:21."),
    "not_whole_number": _("Must be a whole number."),
    "negative": _("Cannot be negative."),
    "bad_time_format": _("Time must be m:ss with seconds from 00 to 59, such as 4:21."),
    # RM-53.5, RM-53.6
    "time_required": _("A finished driver needs a time or a turn log."),
    "retired_with_time": _("A retired driver has no time."),
    "retired_with_log": _("A retired driver has no turn log."),
    # RM-53.7 (RM-55 notation)
    "log_not_text": _("The turn log must be text."),
    "log_empty": _("The turn log has no turns."),
    "log_no_turns": _("The turn log has no turns, only tokens."),
    "log_unknown_item": _(
        "Item %(position)s (%(item)s) is not a turn (0-6, 1s-6s) or unspent tokens (tK)."
    ),
    "log_gear_out_of_range": _("Item %(position)s (%(item)s): no time card for this gear."),
    "log_tokens_repeated": _("Item %(position)s (%(item)s): unspent tokens may be given once."),
    "log_tokens_not_last": _("Item %(position)s (%(item)s): unspent tokens must be the last item."),
    # RM-53.8, RM-53.9
    "time_log_mismatch": _("Time %(time)s differs from the turn log's net time %(log_time)s."),
    "non_positive_time": _("The net time must be more than 0 s."),
    # RM-53.10
    "invalid_penalties": _("Penalties must be a list."),
    "penalty_zero": _("A penalty must be at least 1 s."),
    # scoring.bounds
    "penalty_too_long": _("A penalty is at most %(limit)s s."),
    "too_many_penalties": _("At most %(limit)s penalties per entry."),
    "reason_too_long": _("A penalty's reason has at most %(limit)s characters."),
    "log_too_long": _("A turn log has at most %(limit)s characters."),
    "time_too_long": _("A stage time is at most %(limit)s s (24 hours)."),
    "penalty_no_reason": _("A penalty needs a reason."),
    # RM-54 (a flag: accepted, shown to the scorekeeper)
    "too_many_tokens": _(
        "%(tokens)s unspent tokens is more than the %(limit)s the logged turns could earn."
    ),
}


#: params holding seconds of a stage time, written with scoring.clock.
_TIMES = ("time", "log_time")


def translate(code: str, message: str, params: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The issue in the reader's language; ``names`` maps driver ids to names."""
    shown = dict(params)
    for key in _TIMES:
        if isinstance(shown.get(key), int):
            shown[key] = clock(shown[key])  # times read as m:ss everywhere (issue #16)
    driver = params.get("driver")
    if isinstance(driver, int):
        shown.setdefault("name", names.get(driver) or gettext("Driver %(id)s") % {"id": driver})
    return translated(TEMPLATES.get(code), message, shown)


def _message(issue: Issue, names: Mapping[int, str]) -> str:
    code = issue.code
    if code == "not_object" and (issue.field or "").startswith("penalties"):
        code = "penalty_not_object"
    return translate(code, issue.message, issue.params, names)


def issues_to_errors(
    issues: Iterable[Issue], row_count: int, names: Mapping[int, str], key: str = "results"
) -> dict[str, Any]:
    """``{"results": [{field: [msg]}, …]}``; sheet-level issues as the list's own errors.

    API.md: field errors nested for list items (``penalties[0].seconds`` becomes
    ``{"penalties": [{"seconds": [...]}]}``). When rows have errors too, sheet-level ones go to
    ``non_field_errors``.
    """
    return shared_issues_to_errors(
        issues, row_count, lambda issue: _message(issue, names), key, paths=True
    )


def flag_messages(flags: Iterable[Any], names: Mapping[int, str]) -> dict[int, list[str]]:
    """RM-54 flags per row index, translated (stored with the row as ``warnings``)."""
    out: dict[int, list[str]] = {}
    for flag in flags:
        out.setdefault(flag.index, []).append(
            translate(flag.code, flag.message, flag.params, names)
        )
    return out
