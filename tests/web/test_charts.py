"""Chart cost does not depend on the values (issue #13, item 3): a bounded number of nice ticks.

A championship whose points table is ``[10000000, 1]``, or a rally with times of 10^7 s (and,
from data stored before the API bounded them, 10^308), must draw its chart with a handful of
ticks; before the fix the tick loop ran once per 5 points or per hour and the page hung.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from tests.championships.helpers import create, race_rows, submit
from tests.rallies.helpers import create_rally, sheet
from tests.rallies.helpers import submit as submit_stage
from tournament.championships.models import Championship
from tournament.rallies.models import RallyStandings
from tournament.web import charts

MAX_TICKS = charts.MAX_INTERVALS + 1
MAX_TIME_TICKS = charts.TIME_INTERVALS + 1


def _ticks(chart: charts.LineChart) -> list[str]:
    return [label for _y, label in chart.y_ticks]


@pytest.mark.parametrize("high", [2, 12, 13, 25, 60, 61, 1000, 10_000_000, 10**308, 10**400])
def test_line_chart_ticks_are_few_and_nice(high):
    chart = charts.line_chart(
        ["1", "2"], [charts.Series("a", (0, high)), charts.Series("b", (0, 1))]
    )
    ticks = [int(label) for label in _ticks(chart)]
    assert 2 <= len(ticks) <= MAX_TICKS
    step = ticks[1] - ticks[0]
    assert all(b - a == step for a, b in itertools.pairwise(ticks))
    # A nice step: 1, 2 or 5 times a power of ten.
    assert re.fullmatch(r"[125]0*", str(step)), step
    assert ticks[0] == 0 and ticks[-1] <= high < ticks[-1] + step


def test_rank_charts_keep_their_ticks():
    # Ranks 1..12: a tick per rank as before; 1..24: every other rank from the leader.
    small = charts.line_chart(["1"], [charts.Series(str(r), (r,)) for r in range(1, 13)])
    assert _ticks(small) == [str(r) for r in range(1, 13)]
    wide = charts.line_chart(["1"], [charts.Series(str(r), (r,)) for r in range(1, 25)])
    assert _ticks(wide) == [str(r) for r in range(1, 25, 2)]


@pytest.mark.parametrize("gap", [59, 3600, 86_400, 10**7, 10**308])
def test_time_ticks_are_few_and_nice(gap):
    step = charts.time_step(gap)
    ticks = charts.tick_values(0, gap, step=step)
    assert 2 <= len(ticks) <= MAX_TIME_TICKS
    assert step in charts.TIME_STEPS or (
        step % 3600 == 0 and re.fullmatch(r"[125]0*", str(step // 3600))
    )


def _y_tick_count(html: str, chart_id: str) -> int:
    """The y-axis labels of one chart (``text-anchor="end"`` texts of its grid)."""
    start = html.index(f'<title id="{chart_id}-t">')
    svg = html[start : html.index("</svg>", start)]
    return svg.count('text-anchor="end"')


def test_championship_page_with_a_huge_points_table(clients, web):
    champ = create(clients["organiser"])
    # Stored before the API bounded points tables (or accepted then): the page must still draw.
    Championship.objects.filter(pk=champ["id"]).update(points=[10_000_000, 1])
    races = ((1, ["Ana", "Rui", "Eva"]), (2, ["Eva", "Ana"]), (3, ["Rui", "Ana", "Eva"]))
    for number, order in races:
        response = submit(clients["scorekeeper"], champ, number, race_rows(champ, number, order))
        assert response.status_code == 202, response.content
    html = web["anonymous"].get(f"/championships/{champ['id']}/").content.decode()
    assert "10000000" in html.replace("\u202f", "").replace(",", "").replace(".", "")
    assert 2 <= _y_tick_count(html, "points") <= MAX_TICKS


def test_rally_page_with_huge_times(clients, web):
    rally = create_rally(clients["organiser"], rules={"super_rally": False})
    response = submit_stage(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    assert response.status_code == 202, response.content
    # Times of 10^7 s and a 309-digit one, as stored before the API bounded times.
    snapshot = RallyStandings.objects.get(competition_id=rally["id"], number=1)
    data: dict[str, Any] = snapshot.data
    for row, extra in zip(data["overall"], (0, 10**7, 10**308), strict=True):
        row["time"] += extra
        row["gap"] = extra
    RallyStandings.objects.filter(pk=snapshot.pk).update(data=data)
    response = web["anonymous"].get(f"/rallies/{rally['id']}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 2 <= _y_tick_count(html, "gaps") <= MAX_TIME_TICKS
