"""Every number the API takes has an upper bound, checked where every path checks (issue #13).

Item 3, API side: a scorekeeper's rally time ``{"time": 1e308}`` was accepted and stored as a
309-digit integer, and every visit to the rally's page then ran until the web server killed it;
a championship with ``"points": [10000000, 1]`` did the same to its chart. The bounds live in
``scoring.bounds`` and are enforced by the pure checks the API, the forms, the admin and the
import all run (``scoring/params.py`` for rules, each game's result validation for results).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.bounds import (
    MAX_EVENT_SECONDS,
    MAX_LIST_LENGTH,
    MAX_PENALTIES,
    MAX_PENALTY_SECONDS,
    MAX_POINTS,
    MAX_REASON_LENGTH,
)
from scoring.params import ParamError, as_int_tuple
from scoring.rally.sheet import TimeFormatError, parse_time
from tests.championships.helpers import payload as championship_payload
from tests.conftest import stage_rows, tour_payload
from tests.rallies.helpers import create_rally, sheet, submit

pytestmark = pytest.mark.django_db


# --- the pure checks ---


@pytest.mark.parametrize("value", [1e308, 86401, float(86401), "1440:01", "99999999:00"])
def test_a_rally_time_over_a_day_is_refused(value):
    with pytest.raises(TimeFormatError) as caught:
        parse_time(value)
    assert caught.value.code == "time_too_long"


@pytest.mark.parametrize("value", [MAX_EVENT_SECONDS, "1440:00", 261, "4:21"])
def test_a_rally_time_of_at_most_a_day_is_read(value):
    assert parse_time(value) <= MAX_EVENT_SECONDS


def test_rule_lists_are_bounded_in_length_and_value():
    assert as_int_tuple([MAX_POINTS] * MAX_LIST_LENGTH) == (MAX_POINTS,) * MAX_LIST_LENGTH
    for bad in ([MAX_POINTS + 1], [1] * (MAX_LIST_LENGTH + 1), [10_000_000, 1]):
        with pytest.raises(ParamError):
            as_int_tuple(bad)


# --- through the API ---


def _rally_rows(rally: dict[str, Any], **first: Any) -> list[dict[str, Any]]:
    rows = sheet(rally, 300, 310, 320)
    rows[0].update(first)
    return rows


def test_a_rally_time_of_1e308_is_a_400_and_nothing_is_stored(clients):
    rally = create_rally(clients["organiser"])
    body = json.dumps({"results": _rally_rows(rally)}).replace('"time": 300', '"time": 1e308')
    assert "1e308" in body
    response = clients["scorekeeper"].post(
        f"/api/rallies/{rally['id']}/stages/1/results/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["results"][0]["time"]
    stage = clients["anonymous"].get(f"/api/rallies/{rally['id']}/stages/1/").json()
    assert stage["version"] == 0


@pytest.mark.parametrize(
    ("first", "field"),
    [
        ({"time": MAX_EVENT_SECONDS + 1}, "time"),
        ({"time": "1440:01"}, "time"),
        (
            {"penalties": [{"seconds": 10, "reason": "jump start"}] * (MAX_PENALTIES + 1)},
            "penalties",
        ),
        (
            {"penalties": [{"seconds": MAX_PENALTY_SECONDS + 1, "reason": "x"}]},
            ("penalties", 0, "seconds"),
        ),
        (
            {"penalties": [{"seconds": 10, "reason": "x" * (MAX_REASON_LENGTH + 1)}]},
            ("penalties", 0, "reason"),
        ),
        ({"time": None, "log": "1 " * 6000}, "log"),
    ],
    ids=["time", "m:ss", "penalty-count", "penalty-seconds", "penalty-reason", "log-length"],
)
def test_rally_sheet_bounds_are_a_400(clients, first, field):
    rally = create_rally(clients["organiser"])
    response = submit(clients["scorekeeper"], rally["id"], 1, _rally_rows(rally, **first))
    assert response.status_code == 400, response.content
    error: Any = response.json()["results"][0]
    for step in field if isinstance(field, tuple) else (field,):
        error = error[step]
    assert error, response.json()


def test_rally_values_at_their_bounds_are_accepted(clients):
    rally = create_rally(clients["organiser"])
    first = {
        "time": MAX_EVENT_SECONDS,
        "penalties": [{"seconds": MAX_PENALTY_SECONDS, "reason": "r" * MAX_REASON_LENGTH}],
    }
    response = submit(clients["scorekeeper"], rally["id"], 1, _rally_rows(rally, **first))
    assert response.status_code == 202, response.content


def test_a_rally_time_of_1e308_in_an_import_is_a_400(clients):
    rally = create_rally(clients["organiser"])
    assert submit(clients["scorekeeper"], rally["id"], 1, _rally_rows(rally)).status_code == 202
    document = clients["organiser"].get(f"/api/rallies/{rally['id']}/export/").json()
    document["events"][0]["versions"][0]["rows"][0]["time"] = 1e308
    response = clients["organiser"].post(
        "/api/rallies/import/", {"club": "velo-lisboa", "document": document}, format="json"
    )
    assert response.status_code == 400, response.content
    errors = response.json()["document"]["events"][0]["versions"][0]
    assert "time" in json.dumps(errors), errors


def test_a_stage_time_over_a_day_is_a_400(clients, tour):
    rows = stage_rows(tour)
    rows[0]["minutes"] = MAX_EVENT_SECONDS // 60 + 1
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": rows}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["results"][0]["minutes"]


def test_stage_points_over_the_bound_are_a_400(clients, tour):
    rows = stage_rows(tour)
    rows[1]["sprint_points"] = MAX_POINTS + 1
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": rows}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["results"][1]["sprint_points"]


@pytest.mark.parametrize(
    "points", [[10_000_000, 1], [MAX_POINTS + 1], list(range(MAX_LIST_LENGTH + 1, 0, -1))]
)
def test_a_points_table_out_of_bounds_is_a_400(clients, points):
    response = clients["organiser"].post(
        "/api/championships/", championship_payload(points=points), format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["points"]


def test_tour_point_tables_in_the_rules_are_bounded(clients):
    response = clients["organiser"].post(
        "/api/tours/", tour_payload(rules={"podium_tp": [10_000_000, 2, 1]}), format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["rules"]["podium_tp"]


def test_names_are_bounded_in_length(clients):
    long = "x" * 200
    payload = tour_payload(name="y" * 161)
    payload["teams"][0]["name"] = long
    payload["teams"][0]["riders"][0]["name"] = long
    response = clients["organiser"].post("/api/tours/", payload, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["name"] and body["teams"][0]["name"] and body["teams"][0]["riders"][0]["name"]
