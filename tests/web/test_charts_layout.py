"""Charts and tables laid out for the width they get (issue #16), checked without a browser.

The browser matrix (tests/browser/test_pages_matrix.py) measures the drawn pages; these tests
pin the geometry and markup rules themselves: both chart layouts, end labels a line apart
however many lines end level, x labels that keep their width, ticks in natural steps written as
times, points as scored with dropped results marked, and which table columns stay or fold.
"""

from __future__ import annotations

import itertools
import re

import pytest

from tournament.web import charts, points, tables
from tournament.web.components import GAP, NUMBER, RANK, TEXT, TIME, Cell, Column, Row, Table

TEXTS = re.compile(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')


def _texts(body: str) -> list[tuple[float, float, str]]:
    return [(float(x), float(y), text) for x, y, text in TEXTS.findall(body)]


def test_both_layouts_and_end_labels_a_line_apart_when_lines_end_level():
    # Eight riders all ending level (a tie) and two more: every label keeps its own line.
    series = [charts.Series(f"Rider {n}", (n, 3)) for n in range(1, 9)]
    series += [charts.Series("Last", (9, 9)), charts.Series("First", (10, 1))]
    chart = charts.line_chart(["1", "2"], series)
    assert [lay.name for lay in chart.layouts] == ["narrow", "wide"]
    assert [lay.width for lay in chart.layouts] == [320, 640]
    for lay in chart.layouts:
        label_x = max(x for x, _, _ in _texts(lay.body))
        ends = sorted(y for x, y, _ in _texts(lay.body) if x == label_x)
        assert len(ends) == len(series)
        assert all(b - a >= charts.LINE - 0.05 for a, b in itertools.pairwise(ends)), ends
        assert ends[0] >= 0 and ends[-1] <= lay.height


def test_x_labels_keep_their_width_on_a_phone():
    events = [str(n) for n in range(1, 22)]
    chart = charts.line_chart(events, [charts.Series("a", tuple(range(1, 22)))])
    narrow, wide = chart.layouts
    for lay in (narrow, wide):
        bottom = max(y for _, y, _ in _texts(lay.body))
        shown = [(x, t) for x, y, t in _texts(lay.body) if y == bottom]
        assert shown[0][1] == "1" and shown[-1][1] == "21"
        width = 2 * charts.CHAR + 8
        assert all(b[0] - a[0] >= width for a, b in itertools.pairwise(shown)), shown
    assert len([1 for _, y, _ in _texts(narrow.body) if y == bottom]) < 21


def test_gap_ticks_are_natural_time_steps_written_as_times():
    chart = charts.line_chart(
        ["1", "2"],
        [charts.Series("Ana", (0, 0)), charts.Series("Sara", (20, 55))],
        y_step=charts.time_step,
        y_label=lambda v: f"+{v // 60}:{v % 60:02d}",
    )
    for lay in chart.layouts:
        labels = [label for _, label in lay.y_ticks]
        assert labels[0] == "+0:00" and all(re.fullmatch(r"\+\d+:\d\d", t) for t in labels)
        seconds = [int(t[1:].split(":")[0]) * 60 + int(t.split(":")[1]) for t in labels]
        step = seconds[1] - seconds[0]
        assert step in (15, 30, 60) and seconds[-1] >= 55  # the axis ends on a tick above 55 s
    assert 10 not in charts.TIME_STEPS  # 15 s, 30 s, 1 min, 5 min, ...


def test_points_chart_shows_points_as_scored_and_marks_dropped_results():
    data = {
        "after_race": 3,
        "drivers": [
            # 10 + 0 + 10 scored, race 2 dropped: the line reads 10, 10, 20.
            {"name": "Ana", "team": "A", "race_points": [10, 0, 10], "dropped": [2],
             "progression": [10, 10, 20]},
            {"name": "Rui", "team": "A", "race_points": [8, 10, 8], "dropped": [],
             "progression": [8, 18, 26]},
        ],
    }  # fmt: skip
    chart = points.points_chart(data)
    assert chart is not None
    ana, rui = chart.series
    assert ana.values == (10, 10, 20) and ana.marked == frozenset({1})
    assert rui.values == (8, 18, 26) and not rui.marked and rui.dashed
    assert chart.rows[0] == ("Ana", ("10", "(10)", "20"))
    for lay in chart.layouts:
        assert lay.body.count('class="mark"') == 1
        assert lay.y_ticks[0][1] == "0"  # points count from zero


def test_labels_are_escaped_and_cut_to_their_room():
    long = "<b>Alexandrina Mariana da Conceição</b>"
    chart = charts.line_chart(["1"], [charts.Series(long, (1,))])
    for lay in chart.layouts:
        assert "<b>" not in lay.body and "&lt;b&gt;" in lay.body  # the <title> has it whole
        label = [t for _, _, t in _texts(lay.body) if "Alex" in t or "&lt;" in t][-1]
        assert label.endswith("…")


def _table(columns: tuple[Column, ...], rows: list[tuple[Cell, ...]]) -> Table:
    return Table("t", "T", columns, tuple(Row(r) for r in rows))


GENERAL = (
    Column("rank", "#", RANK),
    Column("rider", "Rider", TEXT),
    Column("team", "Team", TEXT),
    Column("time", "Time", TIME),
    Column("gap", "Gap", GAP),
)


def test_standings_keep_rank_name_and_deciding_figure_and_fold_the_rest():
    row = (Cell(1, RANK), Cell("Ana <R>"), Cell("Team Ana", href="/t/1/"), Cell(280, TIME),
           Cell(0, GAP))  # fmt: skip
    lay = _table(GENERAL, [row]).layout
    assert [css for _, css in lay.head] == ["num", "", "more", "num", "num"]
    assert lay.css.startswith("fold-")
    # The team folds under the name, with its label and link; every text is escaped.
    assert '<span class="fk">Team</span> <a href="/t/1/">Team Ana</a>' in lay.body
    assert "Ana &lt;R&gt;" in lay.body and "<R>" not in lay.body
    assert '<td class="num">4:40</td>' in lay.body and '<td class="num">—</td>' in lay.body


def test_points_tables_keep_points_and_a_matrix_sticks_instead_of_folding():
    tp = (Column("rank", "#", RANK), Column("team", "Team"), Column("podium", "Podium", NUMBER),
          Column("total", "Total", NUMBER))  # fmt: skip
    assert tables.key_columns(tp) == {0, 1, 3}
    grid = (Column("driver", "Driver"), *(Column(f"r{n}", f"R{n}") for n in range(1, 6)),
            Column("points", "Points", NUMBER))  # fmt: skip
    lay = _table(grid, [(Cell("Ana"), *(Cell(str(n)) for n in range(5)), Cell(12, NUMBER))]).layout
    assert lay.css == "matrix" and "folded" not in lay.body
    assert lay.head[0][1] == "stick-l stick-l0 stick-last"
    assert lay.head[-1][1] == "num stick-r"


@pytest.mark.parametrize(("need", "css"), [(10, ""), (16, ""), (17, "fold-20"), (40, "fold-40"),
                                           (79, "fold-80"), (200, "fold-all")])  # fmt: skip
def test_fold_classes_exist_in_the_stylesheet(need, css):
    from django.conf import settings

    assert tables.fold_class(need) == css
    sheet = (settings.BASE_DIR / "static/podium/podium.css").read_text()
    if css:
        assert f".{css} .more{{display:none}}" in sheet
