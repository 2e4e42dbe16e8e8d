"""GET …/standings/: FD-70 to FD-77 through the API, ``after_race``, and the read's cost."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.formula_d import (
    ChampionshipDriver,
    RaceResult,
    build_formula_d_rules,
    compute_standings,
    parse_race_results,
)
from tests.championships.helpers import create, race_rows, standings, submit

pytestmark = pytest.mark.django_db

API_KEYS = {"rank", "driver", "name", "team", "points", "wins", "results", "statuses"}


def fresh(detail: dict[str, Any], races: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """The standings computed afresh by the pure engine from the API's detail and rows."""
    rules, errors = build_formula_d_rules(detail["rules"], detail["rule_set"])
    assert not errors
    return compute_standings(
        [ChampionshipDriver(d["id"], d["name"], d["team"]) for d in detail["drivers"]],
        [RaceResult(n, parse_race_results(rows)) for n, rows in enumerate(races, start=1)],
        points=detail["points"],
        rules=rules,
    ).to_json()


def test_before_any_race_the_lists_are_empty(clients):
    champ = create(clients["organiser"])
    assert standings(clients["anonymous"], champ).json() == {
        "after_race": None,
        "drivers": [],
        "teams": [],
    }
    response = standings(clients["anonymous"], champ, after=1)
    assert response.status_code == 400 and "after_race" in response.json()


def test_standings_match_a_fresh_computation_with_drop_worst_pole_and_teams(clients):
    drivers = [
        {"name": "Ana", "team": "Tejo"},
        {"name": "Rui", "team": "Tejo"},
        {"name": "Eva", "team": "Sado"},
        {"name": "Gil"},
    ]
    champ = create(
        clients["organiser"],
        drivers=drivers,
        races=[{"circuit": "monaco"}] * 3,
        points="classic",
        rules={"drop_worst": 1, "pole_bonus": 2},
    )
    sk = clients["scorekeeper"]
    races = [
        race_rows(champ, 1, ["Ana", "Eva", "Gil", "Rui"], out=("Rui",)),
        race_rows(champ, 2, ["Eva", "Gil", "Rui", "Ana"]),
        race_rows(champ, 3, ["Gil", "Rui", "Eva", "Ana"], out=("Eva", "Ana")),
    ]
    races[1][3]["pole"] = True  # Ana: pole in race 2, last
    for number, rows in enumerate(races, start=1):
        assert submit(sk, champ, number, rows).status_code == 202
    body = standings(clients["anonymous"], champ).json()
    expected = fresh(champ, races)
    assert body["after_race"] == 3
    # issue #17: rows level with the one above carry the same tie_break as a fresh computation.
    keys = [API_KEYS | ({"tie_break"} & set(d)) for d in body["drivers"]]
    assert [{k: d[k] for k in ks} for d, ks in zip(body["drivers"], keys, strict=True)] == (
        expected["drivers"]
    )
    assert body["teams"] == expected["teams"]
    by_name = {d["name"]: d for d in body["drivers"]}
    # classic: 10-6-4-3-2-1. Ana: 10, 3 + 2 (pole), 0 → drops the 0 (FD-74) = 15.
    assert by_name["Ana"]["points"] == 15 and by_name["Ana"]["dropped"] == [3]
    assert by_name["Ana"]["race_points"] == [10, 5, 0]
    assert by_name["Ana"]["statuses"] == ["finished", "finished", "eliminated"]
    assert by_name["Rui"]["results"] == [None, 3, 2]
    # Gil has no team (FD-77): teams are Tejo and Sado only, without drops.
    assert {t["team"]: t["points"] for t in body["teams"]} == {
        "Tejo": 10 + 5 + 0 + 0 + 4 + 6,
        "Sado": 6 + 10 + 0,
    }
    assert [d["rank"] for d in body["drivers"]] == [1, 2, 3, 4]
    # Each driver's progression is the standings points after each race.
    after = [standings(clients["anonymous"], champ, after=n).json() for n in (1, 2, 3)]
    for row in body["drivers"]:
        points = [
            next(d["points"] for d in s["drivers"] if d["driver"] == row["driver"]) for s in after
        ]
        assert row["progression"] == points


def test_countback_breaks_a_points_tie(clients):
    champ = create(
        clients["organiser"],
        races=[{"circuit": "monaco"}] * 2,
        points=[5, 4, 1],
    )
    sk = clients["scorekeeper"]
    submit(sk, champ, 1, race_rows(champ, 1, ["Rui", "Eva", "Ana"]))
    submit(sk, champ, 2, race_rows(champ, 2, ["Eva", "Rui", "Ana"]))
    # Rui and Eva: 9 points, one win and one 2nd each; FD-76 (2): Eva won the latest race.
    body = standings(clients["anonymous"], champ).json()
    assert [(d["name"], d["points"], d["wins"]) for d in body["drivers"]] == [
        ("Eva", 9, 1),
        ("Rui", 9, 1),
        ("Ana", 2, 0),
    ]


@pytest.mark.parametrize("after", ["0", "3", "x", "-1", "99999"])
def test_after_race_out_of_range_is_a_400(clients, after):
    champ = create(clients["organiser"])
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    response = clients["anonymous"].get(
        f"/api/championships/{champ['id']}/standings/?after_race={after}"
    )
    assert response.status_code == 400
    assert response.json()["after_race"]


def _read_queries(client: Any, champ: dict[str, Any]) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = standings(client, champ)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_a_standings_read_costs_the_same_whatever_the_number_of_races(clients):
    small = create(clients["organiser"], races=[{"circuit": "monaco"}])
    large = create(
        clients["organiser"],
        public=False,
        drivers=[{"name": f"D{i}", "team": f"T{i % 3}"} for i in range(10)],
        races=[{"circuit": "monaco"}] * 6,
    )
    names = [d["name"] for d in large["drivers"]]
    submit(clients["scorekeeper"], small, 1, race_rows(small, 1, ["Ana", "Rui", "Eva"]))
    for number in range(1, 7):
        order = names[number:] + names[:number]
        submit(clients["scorekeeper"], large, number, race_rows(large, number, order))
    assert standings(clients["organiser"], large).json()["after_race"] == 6
    small_public = create(clients["organiser"], races=[{"circuit": "monaco"}], public=False)
    submit(
        clients["scorekeeper"], small_public, 1, race_rows(small_public, 1, ["Ana", "Rui", "Eva"])
    )
    # One query: the snapshot's JSON, with the visibility rule inside it.
    assert (
        _read_queries(clients["organiser"], large)
        == _read_queries(clients["organiser"], small_public)
        == 1
    )
    assert _read_queries(clients["anonymous"], small) == 1
