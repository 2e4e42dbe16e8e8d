"""The two readers on hostile input: a plan or an InvalidInput naming a path, never a crash.

Pure (no database): each example mutates one value of a valid Companion backup, or one cell of
a valid CSV, into an arbitrary JSON value or text.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.imports.helpers import complete_tour
from tournament.competitions.errors import InvalidInput
from tournament.tours.imports.companion import read_companion
from tournament.tours.imports.csv_format import read_csv, template_lines, write_csv

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [path] + [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list):
        return [path] + [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]


BACKUP = complete_tour()
PATHS = [p for p in _leaves(BACKUP) if p]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PATHS), JSON)
def test_a_backup_with_any_value_anywhere_reads_or_names_a_path(path, value):
    document = copy.deepcopy(BACKUP)
    node = document
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    try:
        plan = read_companion(document)
    except InvalidInput as exc:
        assert isinstance(exc.detail, dict) and set(exc.detail) == {"document"}
        assert exc.detail["document"]
    else:
        assert len(plan.setup["teams"]) == 3 and all(s.riders for s in plan.stages)


LINES = template_lines()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(LINES) - 1), st.integers(0, len(LINES[0]) - 1), st.text(max_size=12))
def test_a_csv_with_any_cell_reads_or_names_a_line(row, column, text):
    lines = [list(line) for line in LINES]
    lines[row][column] = text
    try:
        plan = read_csv(write_csv(lines), name="Sheet")
    except InvalidInput as exc:
        assert isinstance(exc.detail, dict) and set(exc.detail) == {"csv"} and exc.detail["csv"]
    else:
        assert plan.setup["teams"] and len(plan.setup["stages"]) >= 1
