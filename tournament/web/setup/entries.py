"""Set-up rows of named drivers and their races, and the points-table box (Formula D
championships, leagues, rally championships).

Drivers are rows ``drivers-<i>-name`` / ``-team``; races are rows ``races-<i>-…`` whose
``drivers`` box lists the names entered, separated by commas (empty: every driver, FD-78). A
row left wholly empty is not part of the request. The points box is a preset name of the
catalogue or ``custom`` with a typed list (``points-custom``), and the page shows the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournament.web.setup.boxes import (
    Box,
    ErrorMap,
    Values,
    box,
    indices,
    numbers_or_text,
    renumber,
)

CUSTOM = "custom"


def row_numbers(values: Mapping[str, str], prefix: str) -> list[int]:
    """The rows under ``prefix`` that hold anything (blank rows are no part of the request)."""
    start = f"{prefix}-"
    filled = []
    for index in indices(values, prefix):
        head = f"{start}{index}-"
        if any(v.strip() for k, v in values.items() if k.startswith(head)):
            filled.append(index)
    return filled


def names_list(text: str | None) -> list[str] | None:
    """An entry list typed as names separated by commas; None when empty (everyone)."""
    names = [n.strip() for n in (text or "").split(",")]
    names = [n for n in names if n]
    return names or None


def names_text(names: Iterable[str] | None) -> str:
    return ", ".join(names or ())


def add_row(values: Values, prefix: str, fields: Mapping[str, str]) -> Values:
    """``values`` with one more row under ``prefix`` (``fields``: its first values)."""
    rows = indices(values, prefix)
    new = (rows[-1] + 1) if rows else 0
    return values | {f"{prefix}-{new}-{k}": v for k, v in fields.items()}


def remove_row(values: Values, prefix: str, index: int) -> Values:
    """``values`` without row ``index`` of ``prefix``, the others renumbered 0..n-1."""
    return renumber(values, prefix, [i for i in indices(values, prefix) if i != index])


def row_action(values: Values, action: str, blanks: Mapping[str, Mapping[str, str]]) -> Values:
    """The page's row buttons: ``add:<prefix>`` and ``remove:<prefix>:<index>``."""
    verb, _sep, rest = action.partition(":")
    if verb == "add" and rest in blanks:
        return add_row(values, rest, blanks[rest])
    if verb == "remove":
        prefix, _sep, index = rest.partition(":")
        if prefix in blanks and index.isdigit():
            return remove_row(values, prefix, int(index))
    return values


def drawn_rows(values: Mapping[str, str], prefix: str, minimum: int = 1) -> list[int]:
    """Rows to draw: every row present (blank ones too, a new row is blank), at least one."""
    found = indices(values, prefix)
    while len(found) < minimum:
        found.append((found[-1] + 1) if found else 0)
    return found


# --- points ---------------------------------------------------------------------------------


def points_payload(values: Mapping[str, str]) -> Any:
    """The request's ``points``: the preset's name, or the custom list as typed."""
    chosen = values.get("points", "").strip()
    if chosen == CUSTOM:
        return numbers_or_text(values.get("points-custom"))
    return chosen or None


def points_values(points: Any, preset: str | None) -> Values:
    """Form values for a stored table (its preset's name when it came from one)."""
    if preset:
        return {"points": preset}
    return {"points": CUSTOM, "points-custom": ", ".join(str(p) for p in points or ())}


def points_boxes(
    values: Mapping[str, str],
    errors: ErrorMap,
    presets: Mapping[str, Sequence[int]],
    *,
    label: Any = None,
) -> dict[str, Any]:
    """The preset select, the custom list box and the tables the page shows (one per preset,
    the chosen one visible; the script switches them)."""
    chosen = values.get("points", "")
    choices = [(slug, slug) for slug in presets] + [(CUSTOM, _("my own table"))]
    select = box(
        values,
        errors,
        "points",
        label or _("Points table"),
        kind="select",
        choices=choices,
        help=_("Points by finishing position: 1st, 2nd, 3rd…; later positions score 0."),
    )
    custom = box(
        values,
        errors,
        "points-custom",
        _("My own table"),
        kind="list",
        help=_("Points from 1st place down, e.g. 12, 9, 7, 5, 3, 1; never increasing."),
    )
    if chosen == CUSTOM:  # the API names the list's problem under "points"
        custom.errors, select.errors = select.errors + custom.errors, []
    tables = [
        {"slug": slug, "points": list(table), "shown": slug == chosen}
        for slug, table in presets.items()
    ]
    typed = numbers_or_text(values.get("points-custom"))
    custom_table = typed if isinstance(typed, list) and chosen == CUSTOM else []
    return {
        "select": select,
        "custom": custom,
        "tables": tables,
        "custom_table": custom_table,
        "is_custom": chosen == CUSTOM,
    }


def row_boxes(
    values: Mapping[str, str],
    errors: ErrorMap,
    prefix: str,
    index: int,
    specs: Sequence[tuple[str, Any, dict[str, Any]]],
) -> list[Box]:
    """The boxes of one row: ``specs`` as (field, label, Box keyword arguments)."""
    return [
        box(values, errors, f"{prefix}-{index}-{name}", label, **kw) for name, label, kw in specs
    ]


__all__ = [
    "CUSTOM",
    "add_row",
    "drawn_rows",
    "names_list",
    "names_text",
    "points_boxes",
    "points_payload",
    "points_values",
    "remove_row",
    "row_action",
    "row_boxes",
    "row_numbers",
]
