"""Formula D engine issues → translated, DRF-shaped field errors.

``scoring.formula_d`` reports every problem with a stable ``code`` and English ``params``
(FD-79 result issues, rule-parameter errors); each code maps here to a translatable template so
the API, the admin and the scorekeeper form show one message per problem in the user's language.
Unknown codes fall back to the engine's English text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.issues import Issue
from tournament.competitions.messages import issues_to_errors as shared_issues_to_errors
from tournament.competitions.messages import translated

#: FD-78 / FD-79 result issues (scoring/formula_d/validation.py).
RESULT_TEMPLATES: dict[str, Promise] = {
    "not_list": _("Results must be a list of entries."),
    "not_object": _("Each entry must be an object."),
    "unknown_field": _("Unknown field %(field)s."),
    "required": _("This field is required."),
    "not_int": _("A whole number is required."),
    "negative": _("This may not be negative."),
    "invalid_status": _("Must be finished or eliminated."),
    "not_bool": _("Must be true or false."),
    # FD-79: drivers
    "unknown_driver": _("Driver %(driver)s is not in this championship."),
    "not_entered": _("%(name)s is not entered in this race."),
    "duplicate_driver": _("%(name)s is listed twice; list each driver once."),
    "missing_driver": _("%(name)s is entered in this race but has no entry."),
    # FD-79: positions
    "position_range": _("Positions run from 1 to %(limit)s, the number of cars in the race."),
    "duplicate_position": _("Position %(position)s is given twice; each position is used once."),
    "eliminated_ahead": _(
        "An eliminated driver is ranked ahead of this finisher; finishers come first (FD-41)."
    ),
    # FD-79: laps
    "laps_exceed": _("The race has %(limit)s laps; laps completed cannot be more."),
    "finisher_laps": _("A finisher completed all %(limit)s laps of the race."),
    "eliminated_all_laps": _(
        "An eliminated driver completed fewer laps than the race's %(limit)s."
    ),
    # FD-79 / FD-41: elimination order
    "order_for_finisher": _("Only eliminated drivers have an elimination order."),
    "order_range": _(
        "The elimination order runs from 1 to %(limit)s, the number of eliminated cars."
    ),
    "order_repeated": _("Elimination order %(order)s is given twice."),
    "elimination_rank": _(
        "An eliminated driver with more laps completed must rank above one with fewer (FD-41)."
    ),
    "order_contradicts_position": _(
        "With equal laps, the car eliminated later must rank higher (FD-41)."
    ),
    # FD-78: WP left and pole
    "wp_zones": _("wp_left needs one value per zone: %(zones)s."),
    "multiple_pole": _("Only one car can start from pole."),
}


#: Rule-parameter errors (scoring/params.py, scoring/formula_d/rules.py).
def _wp_range(params: Mapping[str, Any]) -> str:
    """FD-78 ``wp_left``: the three shapes of the range message (zone, finisher, eliminated)."""
    if params.get("zone"):
        return gettext("%(zone)s: between 0 and %(limit)s WP left.") % params
    if params.get("limit") == 0:
        return gettext("An eliminated car has 0 WP left.")
    return gettext("A finisher has between 1 and %(limit)s WP left.") % params


def _shown(params: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    shown = {
        k: ", ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else value
        for k, value in params.items()
    }
    if "driver" in params:
        # An unknown driver has no name (FD-79): say which id was sent.
        driver = params["driver"]
        known = names.get(driver) if isinstance(driver, int) else None
        shown["name"] = known or gettext("Driver %(driver)s") % {"driver": driver}
    return shown


def translate_issue(issue: Issue, names: Mapping[int, str]) -> str:
    """One FD-79 issue in the reader's language (``names``: driver id → name)."""
    if issue.code == "wp_range":
        return _wp_range(issue.params)
    return translated(RESULT_TEMPLATES.get(issue.code), issue.message, _shown(issue.params, names))


def issues_to_errors(
    issues: Iterable[Issue], row_count: int, names: Mapping[int, str]
) -> dict[str, Any]:
    """``{"results": [{field: [msg]}, …]}``: issues of a row nested under its index (API.md)."""
    return shared_issues_to_errors(issues, row_count, lambda i: translate_issue(i, names))
