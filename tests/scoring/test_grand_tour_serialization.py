"""Standings JSON (scoring/grand_tour/serialization.py): API.md's shape and an exact round trip."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from scoring.grand_tour import (
    GrandTourRules,
    StageResults,
    TourSetup,
    compute_standings,
    initial_standings,
    standings_from_json,
    standings_to_json,
)
from tests.scoring.gt_builders import make_setup, stage, tours

SETUP = make_setup(teams=2, stages=2, rest_days=[1])
STAGE = stage(
    SETUP,
    1,
    [
        ("RS", "0:00", 4, 0, 5),
        ("BR", "0:10", 0, 2, None),
        ("BS", "0:10", 1, 0, 2),
        ("RR", "1:00", 0, 0, 1),
    ],
)
API_KEYS = [
    "after_stage",
    "general",
    "sprint",
    "mountain",
    "team",
    "jerseys",
    "tour_points",
    "exhaustion",
    "next_start_order",
]


def test_shape_matches_the_api_contract() -> None:
    data = standings_to_json(compute_standings(SETUP, [STAGE], GrandTourRules())[0])
    assert list(data) == [*API_KEYS, "stage", "final", "winner"]
    assert data["after_stage"] == 1
    assert data["general"][0] == {
        "rank": 1,
        "rider": 12,
        "name": "RS",
        "team": 1,
        "time": 0,
        "gap": 0,
    }
    assert data["sprint"][0] == {"rank": 1, "rider": 12, "name": "RS", "team": 1, "points": 4}
    assert data["mountain"][0] == {"rank": 1, "rider": 21, "name": "BR", "team": 2, "points": 2}
    assert data["team"] == [
        {"rank": 1, "team": 2, "name": "Blue", "time": 20, "gap": 0},
        {"rank": 2, "team": 1, "name": "Red", "time": 60, "gap": 40},
    ]
    assert data["jerseys"] == {"yellow": 12, "green": 22, "polka_dot": 21}
    assert data["tour_points"][0] == {
        "rank": 1,
        "team": 1,
        "name": "Red",
        "podium": 3,
        "rest_days": 2,
        "classification": 0,
        "total": 5,
    }
    assert data["exhaustion"] == [
        {"rider": 11, "cards": 1},
        {"rider": 12, "cards": 3},
        {"rider": 21, "cards": None},
        {"rider": 22, "cards": 1},
    ]
    assert isinstance(data["next_start_order"], list)
    assert data["stage"] == {
        "number": 1,
        "podium": [12, 21, 22],
        "rest_day": True,
        "rest_day_awards": [
            {"classification": "general", "rider": 12},
            {"classification": "sprint", "rider": 12},
            {"classification": "mountain", "rider": 21},
        ],
    }
    assert data["final"] is False and data["winner"] is None
    assert json.loads(json.dumps(data)) == data


def test_initial_standings_json() -> None:
    data = standings_to_json(initial_standings(SETUP, GrandTourRules()))
    assert data == {
        "after_stage": None,
        "general": [],
        "sprint": [],
        "mountain": [],
        "team": [],
        "jerseys": {"yellow": None, "green": None, "polka_dot": None},
        "tour_points": [],
        "exhaustion": [],
        "next_start_order": data["next_start_order"],
        "stage": None,
        "final": False,
        "winner": None,
    }
    assert sorted(data["next_start_order"]) == [1, 2]
    assert standings_from_json(data) == initial_standings(SETUP, GrandTourRules())


def test_final_json() -> None:
    setup = make_setup(teams=2, stages=1)
    final = compute_standings(setup, [StageResults(1, STAGE.rows)], GrandTourRules())[0]
    data = standings_to_json(final)
    assert data["final"] is True and data["next_start_order"] is None
    # Podium Red 3, Blue 2+1. Bonus (first column): GC RS 3, BR 2, BS 1; SC RS 2, BS 1;
    # MC BR 2; Team Blue (20 s) 1. Red 3+3+2 = 8, Blue 3+3+1+2+1 = 10.
    assert [(r["name"], r["classification"], r["total"]) for r in data["tour_points"]] == [
        ("Blue", 7, 10),
        ("Red", 5, 8),
    ]
    assert data["winner"] == 2
    assert standings_from_json(data) == final


def test_not_a_snapshot() -> None:
    with pytest.raises(ValueError, match="snapshot"):
        standings_from_json({"after_stage": 1})


def plain(value: object) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or isinstance(value, (bool, int, str))


@settings(max_examples=60, deadline=None)
@given(tours())
def test_round_trip_is_exact(tour: tuple[TourSetup, list[StageResults], GrandTourRules]) -> None:
    setup, stages, rules = tour
    for standings in compute_standings(setup, stages, rules):
        data = standings_to_json(standings)
        assert plain(data)
        assert json.loads(json.dumps(data)) == data
        assert standings_from_json(json.loads(json.dumps(data))) == standings
