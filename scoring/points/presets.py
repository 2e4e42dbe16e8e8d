"""Points tables of leagues (API.md "Leagues": ``points`` is a list or one of these names).

FD-70's table form applies: non-negative, non-increasing integers; positions beyond the table
score 0. Heat's own championship scale is not here: no source we could cite gives it
(docs/decisions-leagues.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from scoring.params import ParamError, as_int_tuple

LEAGUE_POINTS_PRESETS: dict[str, tuple[int, ...]] = {
    "f1-2010": (25, 18, 15, 12, 10, 8, 6, 4, 2, 1),
    "classic": (10, 6, 4, 3, 2, 1),
}
DEFAULT_LEAGUE_POINTS = "f1-2010"


def points_table(
    value: Any,
    presets: Mapping[str, tuple[int, ...]] = LEAGUE_POINTS_PRESETS,
    default: str = DEFAULT_LEAGUE_POINTS,
) -> tuple[int, ...]:
    """A preset name or a non-increasing list of non-negative integers (None: ``default``)."""
    if value is None:
        return presets[default]
    if isinstance(value, str):
        if value not in presets:
            raise ParamError(
                "Unknown points preset; use " + ", ".join(presets) + " or a list.",
                "unknown_preset",
                choices=tuple(presets),
            )
        return presets[value]
    table = as_int_tuple(value, minimum=0, allow_empty=False)
    if any(a < b for a, b in itertools.pairwise(table)):
        raise ParamError("Points must not increase down the table.", "points_increasing")
    return table
