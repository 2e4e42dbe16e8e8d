"""Engine messages in the reader's language: rule-parameter errors, and the shared rules of
every game's result issues.

The pure engines (``scoring/params.py`` and the rules of ``scoring/*`` and ``games/*``) raise
:class:`~scoring.issues.EngineError` and report :class:`~scoring.issues.Issue` in English with a
stable ``code`` and ``params``; each code maps to a translatable template, so a bad value answers
in the caller's language. An unknown code (or a template its params cannot fill) falls back to
the engine's English message (:func:`translated`). Rule parameters are translated here; each
game's ``messages`` module holds only its own result templates and how it shows their params,
and builds its 400 body with :func:`issues_to_errors`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.issues import EngineError, Issue
from tournament.competitions.errors import nest_row_errors

#: code → template using the error's params (grep ``ParamError(`` in scoring/ and games/).
PARAM_TEMPLATES: dict[str, Promise] = {
    # scoring/params.py: the shared converters
    "not_int": _("A whole number is required."),
    "min_value": _("Must be at least %(limit)s."),
    "max_value": _("Must be at most %(limit)s."),
    "not_int_list": _("A list of whole numbers is required."),
    "empty_list": _("The list may not be empty."),
    "too_many_values": _("At most %(limit)s values."),
    "not_bool": _("Must be true or false."),
    "not_str": _("A text value is required."),
    "not_number": _("A number is required."),
    "not_number_list": _("A list of numbers is required."),
    "invalid_choice": _("Must be one of: %(choices)s."),
    "unknown_param": _("Unknown rule parameter."),
    # points tables (scoring/formula_d/rules.py FD-70, scoring/rally/championship.py RM-47)
    "unknown_preset": _("Unknown points preset; use %(choices)s or a list of points."),
    "points_increasing": _("Points must not increase down the table."),
    # scoring/formula_d/rules.py
    "top_level_setting": _("%(name)s is a top-level setting, not a rule parameter."),
    "street_rules_advanced": _(
        "Street rules cannot be combined with the advanced rule set (FD-58)."
    ),
    "start_bands_overlap": _("Must be above start_stall_max (%(start_stall_max)s)."),
    "blocking_table_shape": _("Must be an object with two lists, brakes and tyres."),
    "blocking_table_lengths": _("brakes and tyres must have the same length."),
    "downshift_table_shape": _("Must be an object keyed by the number of gears skipped."),
    "downshift_table_keys": _('Keys must be "1", "2", … without gaps; found %(keys)s.'),
    "downshift_table_zones": _("Entry %(key)s must map zone names to WP."),
    # scoring/grand_tour/rules.py
    "timing_below_60": _("Timing values must be below 60."),
    "timing_decreasing": _("Timing values must be strictly decreasing."),
    "classification_tp_shape": _("Must be an object with bands and one table per classification."),
    "classification_tp_keys": _("Unknown keys: %(keys)s."),
    "bands_increasing": _("bands must be strictly increasing."),
    "classification_tp_columns": _("%(name)s needs one list per band (%(count)s)."),
    # games/flamme_rouge/rules.py
    "wide_finish_shape": _("Must be an object with the keys before and past."),
    "wide_finish_keys": _("Unknown keys: %(keys)s."),
    "weights_length": _("Exactly %(count)s weights are required."),
    "wide_finish_timing_mismatch": _(
        "past (%(past)s) must equal the number of %(timing)s values (%(count)s)."
    ),
    # scoring/rally/rules.py
    "not_object": _("Must be an object."),
    "unknown_keys": _("Unknown keys: %(keys)s."),
    "missing_keys": _("Missing keys: %(keys)s."),
    "weights_all_zero": _("At least one weight must be positive."),
    "empty_weights": _("Give a mix or at least one gear."),
    "crash_draws_columns": _("Gear %(gear)s needs one count per danger level (%(count)s)."),
    "loc_card_too_low": _("The LoC card must be worth more than every gear card (%(limit)s s)."),
}

#: Codes the engines use for more than one message: the English text picks the template (its
#: named groups add params the engine left out).
VARIANTS: dict[str, tuple[tuple[re.Pattern[str], Promise], ...]] = {
    # scoring/params.py as_int_tuple
    "min_value": ((re.compile(r"^Every value "), _("Every value must be at least %(limit)s.")),),
    # games/flamme_rouge/rules.py: wide finish keys, unknown or missing
    "wide_finish_keys": ((re.compile(r"^Missing keys"), _("Missing keys: %(keys)s.")),),
    # games/flamme_rouge/rules.py: exhaustion supply (FR-3)
    "invalid_choice": (
        (
            re.compile(r'^Expected "unlimited" or'),
            _('Must be "unlimited" or a whole number of at least 0.'),
        ),
    ),
    # scoring/rally/rules.py: the object's name is only in the message
    "not_object": (
        (
            re.compile(r"^Expected an object for (?P<what>[\w.]+)\.$"),
            _("%(what)s must be an object."),
        ),
    ),
}


# Flamme Rouge course errors (games/flamme_rouge/track.py, FR-9): same code/message/params shape.
PARAM_TEMPLATES.update(
    {
        "course_empty": _("The course is empty."),
        "course_unknown_tile": _(
            "Unknown tile %(tile)s at tile %(index)s (character %(offset)s) of the course."
        ),
        "course_duplicate_tile": _(
            "Tile %(tile)s at tile %(index)s is the same physical tile as tile %(first)s; "
            "each tile can be used once."
        ),
        "course_start_not_first": _(
            "Start tile %(tile)s at tile %(index)s: only the first tile may be a start tile."
        ),
        "course_finish_not_last": _(
            "Finish tile %(tile)s at tile %(index)s: the finish must be the last tile."
        ),
        "course_no_start": _(
            "The course starts with %(tile)s; it must start with a start tile (a, A, 1 or ^1)."
        ),
        "course_no_finish": _(
            "The course has no finish: its last tile must be u (flat) or U (ascent)."
        ),
    }
)


def _shown(params: Mapping[str, Any]) -> dict[str, Any]:
    """Lists as a reader writes them: ``a, b, c``."""
    return {
        key: ", ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else value
        for key, value in params.items()
    }


def translated(template: Promise | str | None, message: str, params: Mapping[str, Any]) -> str:
    """``template`` filled with ``params`` in the reader's language; the engine's English
    ``message`` when there is no template or the params cannot fill it (every game's rule)."""
    if template is None:
        return message
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return message


def issues_to_errors(
    issues: Iterable[Issue],
    row_count: int,
    message: Callable[[Issue], str],
    key: str = "results",
    *,
    paths: bool = False,
) -> dict[str, Any]:
    """The API's 400 body for a game's result issues: each issue's ``message(issue)`` nested at
    its row and field (``{"results": [{}, {"rider": ["..."]}]}``, API.md); list-level issues
    are the list's own errors, or ``non_field_errors`` beside the rows' (``nest_row_errors``)."""
    return nest_row_errors(
        ((issue.index, issue.field, message(issue)) for issue in issues),
        row_count,
        key,
        paths=paths,
    )


def param_message(error: EngineError) -> str:
    """One rule-parameter error in the reader's language (English for an unknown code)."""
    params = _shown(error.params)
    template = PARAM_TEMPLATES.get(error.code)
    for pattern, variant in VARIANTS.get(error.code, ()):
        match = pattern.match(error.message)
        if match:
            template = variant
            params.update(match.groupdict())
            break
    return translated(template, error.message, params)


def param_messages(errors: Mapping[str, Iterable[EngineError]]) -> dict[str, list[str]]:
    """``{name: [message]}`` for the errors of ``build_rules`` and its game wrappers."""
    return {key: [param_message(e) for e in problems] for key, problems in errors.items()}
