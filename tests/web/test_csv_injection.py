"""CSV formula injection (issue #13, item 4): names that a spreadsheet would run come out inert.

Every CSV the service writes (the five classification downloads of a tour) is read back with the
csv module: a text cell that began with ``=``, ``+``, ``-`` or ``@`` carries a leading ``'``; the
numbers the service computed (ranks, times, gaps, points) stay plain numbers.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.conftest import stage_rows, tour_payload
from tournament.web.exports import FORMULA_STARTS, csv_value

HOSTILE = [
    '=HYPERLINK("http://evil.example","x")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
]


@pytest.fixture
def hostile_tour(clients: dict[str, Any]) -> dict[str, Any]:
    """A tour whose three teams and six riders are named like formulas; stage 1 resolved."""
    payload = tour_payload()
    for i, team in enumerate(payload["teams"]):
        team["name"] = HOSTILE[i]
        team["riders"][0]["name"] = HOSTILE[(i + 1) % len(HOSTILE)] + " R"
        team["riders"][1]["name"] = HOSTILE[(i + 2) % len(HOSTILE)] + " S"
    created = clients["organiser"].post("/api/tours/", payload, format="json")
    assert created.status_code == 201, created.content
    detail = created.json()
    response = clients["scorekeeper"].post(
        f"/api/tours/{detail['id']}/stages/1/results/",
        {"results": stage_rows(detail)},
        format="json",
    )
    assert response.status_code == 202, response.content
    return detail


def _rows(web: dict[str, Any], detail: dict[str, Any], slug: str) -> list[list[str]]:
    response = web["anonymous"].get(f"/tours/{detail['id']}/standings/{slug}.csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("slug", ["general", "sprint", "mountain", "team", "tour_points"])
def test_no_cell_of_any_classification_csv_starts_a_formula(web, hostile_tour, slug):
    rows = _rows(web, hostile_tour, slug)
    names = {cell for row in rows[1:] for cell in row if not cell.lstrip("-").isdigit()}
    assert names, "the CSV names teams or riders"
    for cell in names:
        assert not cell.startswith(FORMULA_STARTS), cell
    # Every hostile name is still there, readable, behind the quote.
    teams = {f"'{team['name']}" for team in hostile_tour["teams"]}
    riders = {f"'{rider['name']}" for team in hostile_tour["teams"] for rider in team["riders"]}
    assert names == (teams if slug in ("team", "tour_points") else teams | riders)


def test_numbers_stay_numbers(web, hostile_tour):
    rows = _rows(web, hostile_tour, "general")
    assert rows[0] == ["#", "Rider", "Team", "Time (s)", "Gap (s)"]
    for row in rows[1:]:
        rank, _rider, team, time, gap = row
        assert rank.isdigit() and time.isdigit() and gap.isdigit()
        assert team.startswith("'")


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),  # text that looks like a number is still text (a name, a reason)
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ana R", "Ana R"),
        ("a=b", "a=b"),
        ("", ""),
        (None, ""),
        (-42, -42),  # a number the service computed (a gap) stays a number
        (3.5, 3.5),
        (0, 0),
    ],
)
def test_csv_value(value, written):
    assert csv_value(value) == written
