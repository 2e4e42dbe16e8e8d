"""POST /api/championships/: set-up, effective settings, roles and every set-up 400."""

from __future__ import annotations

from typing import Any

import pytest

from tests.championships.helpers import create, payload
from tournament.championships.models import Championship, Driver, Race
from tournament.competitions.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_create_answers_the_detail_with_effective_settings(clients):
    detail = create(clients["organiser"])
    assert set(detail) >= {
        "id",
        "club",
        "name",
        "public",
        "seed",
        "rule_set",
        "points",
        "rules",
        "drivers",
        "races",
    }
    assert (detail["club"], detail["seed"], detail["rule_set"], detail["public"]) == (
        "velo-lisboa",
        7,
        "basic",
        True,
    )
    assert detail["points"] == [10, 8, 6, 5, 4, 3, 2, 1]
    # Every parameter of formula_d.md is shown, at its effective value (API.md).
    assert detail["rules"]["drop_worst"] == 0 and detail["rules"]["max_cars"] == 10
    assert "points" not in detail["rules"] and "laps" not in detail["rules"]
    assert [(d["name"], d["team"], d["build"]) for d in detail["drivers"]] == [
        ("Ana", "Scuderia Tejo", None),
        ("Rui", "Scuderia Tejo", None),
        ("Eva", "Equipa Sado", None),
    ]
    ana, rui, eva = (d["id"] for d in detail["drivers"])
    races = detail["races"]
    assert [(r["number"], r["circuit"], r["laps"], r["status"]) for r in races] == [
        (1, "monaco", 2, "planned"),
        (2, "monaco", 1, "planned"),
        (3, "monaco", 1, "planned"),
    ]
    assert races[0]["drivers"] == ["Ana", "Rui", "Eva"]  # FD-78 default: everyone
    assert races[1]["drivers"] == ["Ana", "Eva"] and races[1]["driver_ids"] == [ana, eva]
    assert clients["anonymous"].get(f"/api/championships/{detail['id']}/").json() == detail
    assert AuditEntry.objects.filter(competition_kind="championship", action="created").count() == 1
    assert rui


def test_defaults_and_presets(clients):
    data = payload()
    for key in ("seed", "rule_set", "points", "rules"):
        del data[key]
    data["races"] = [{"circuit": "Monaco"}]
    data["public"] = False
    detail = clients["organiser"].post("/api/championships/", data, format="json").json()
    assert detail["rule_set"] == "basic" and detail["public"] is False
    assert detail["points"] == [10, 8, 6, 5, 4, 3, 2, 1]  # FD-70 default
    assert detail["points_preset"] == "box-team-race"
    assert isinstance(detail["seed"], int)
    # FD-37: one lap by default; the shipped circuit's name is normalised.
    assert detail["races"][0]["laps"] == 1 and detail["races"][0]["circuit"] == "monaco"

    named = create(clients["organiser"], points="f1-2010")
    assert named["points"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    assert named["points_preset"] == "f1-2010"
    custom = create(clients["organiser"], points=[5, 3, 1])
    assert custom["points"] == [5, 3, 1] and custom["points_preset"] is None


def test_advanced_rule_set_takes_its_defaults_and_builds(clients):
    drivers = [
        {
            "name": "Ana",
            "team": "T",
            "build": {"tyres": 6, "brakes": 3, "gearbox": 3, "body": 3, "engine": 3, "handling": 2},
        },
        {"name": "Rui"},
    ]
    detail = create(
        clients["organiser"],
        rule_set="advanced",
        drivers=drivers,
        races=[{"circuit": "monaco"}, {"circuit": "monaco", "laps": 3}],
        rules={"own_car_build": True},
    )
    # FD-58 / FD-60: the advanced defaults, and 2 laps by default.
    assert detail["rules"]["start_great_min"] == 20
    assert [r["laps"] for r in detail["races"]] == [2, 3]
    assert detail["drivers"][0]["build"]["tyres"] == 6
    assert detail["drivers"][1]["team"] is None


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("scorekeeper", 403),
        ("organiser", 201),
        ("superuser", 201),
    ],
)
def test_create_roles(clients, role, expected):
    response = clients[role].post("/api/championships/", payload(), format="json")
    assert response.status_code == expected
    assert Championship.objects.count() == (1 if expected == 201 else 0)


def test_an_outsider_learns_nothing_from_validation(clients):
    bad = payload(points="nope")
    assert clients["outsider"].post("/api/championships/", bad, format="json").status_code == 403
    assert clients["anonymous"].post("/api/championships/", bad, format="json").status_code == 401


BUILD = {"tyres": 6, "brakes": 3, "gearbox": 3, "body": 3, "engine": 3, "handling": 2}


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"rules": {"points": [3, 2, 1]}}, ("rules", "points")),  # a top-level setting
        ({"rules": {"laps": 2}}, ("rules", "laps")),  # FD-37: set per race
        ({"rules": {"seed": 3}}, ("rules", "seed")),
        ({"rules": {"no_such_rule": 1}}, ("rules", "no_such_rule")),
        ({"rules": {"drop_worst": -1}}, ("rules", "drop_worst")),
        ({"rules": {"max_cars": 11}}, ("rules", "max_cars")),
        ({"rules": {"street_rules": "yes"}}, ("rules", "street_rules")),
        ({"rule_set": "expert"}, ("rule_set",)),
        ({"points": "nascar"}, ("points",)),
        ({"points": [1, 2, 3]}, ("points",)),  # FD-70: non-increasing
        ({"points": [10, -1]}, ("points",)),
        ({"points": []}, ("points",)),
        ({"seed": -1}, ("seed",)),
        ({"drivers": []}, ("drivers",)),
        ({"races": []}, ("races",)),
        ({"laps": 2}, ("laps",)),  # unknown top-level key
        ({"races": [{"circuit": "monaco", "laps": 3}]}, ("races", 0, "laps")),  # FD-37 basic
        ({"races": [{"circuit": "monaco", "laps": 0}]}, ("races", 0, "laps")),
        ({"races": [{"circuit": "monaco", "laps": "2"}]}, ("races", 0, "laps")),
        ({"races": [{"circuit": ""}]}, ("races", 0, "circuit")),
        ({"races": [{"circuit": "monaco", "drivers": ["Zé"]}]}, ("races", 0, "drivers")),
        ({"races": [{"circuit": "monaco", "drivers": ["Ana", "ana"]}]}, ("races", 0, "drivers")),
        ({"races": [{"circuit": "monaco", "drivers": []}]}, ("races", 0, "drivers")),
        ({"drivers": [{"name": "Ana"}, {"name": " ana "}]}, ("drivers", 1, "name")),
        ({"drivers": [{"name": "Ana", "build": BUILD}]}, ("drivers", 0, "build")),  # FD-59
    ],
)
def test_bad_set_up_is_a_400_and_stores_nothing(clients, changes, path):
    response = clients["organiser"].post("/api/championships/", payload(**changes), format="json")
    assert response.status_code == 400, response.content
    body: Any = response.json()
    for key in path:
        body = body[key]
    assert body and all(isinstance(m, str) for m in body)
    assert not Championship.objects.exists() and not Driver.objects.exists()
    assert not Race.objects.exists()


def test_max_cars_applies_to_races_without_drivers(clients):
    many = [{"name": f"D{i}"} for i in range(11)]
    response = clients["organiser"].post(
        "/api/championships/",
        payload(
            drivers=many,
            races=[{"circuit": "monaco", "drivers": ["D1", "D2"]}, {"circuit": "monaco"}],
        ),
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["races"][0] == {}
    assert "max_cars" in response.json()["races"][1]["drivers"][0]


@pytest.mark.parametrize(
    "build",
    [
        {"tyres": 6, "brakes": 3, "gearbox": 3, "body": 3, "engine": 3},  # a zone missing
        {"tyres": 15, "brakes": 1, "gearbox": 1, "body": 1, "engine": 1, "handling": 1},
        {"tyres": 6, "brakes": 3, "gearbox": 3, "body": 3, "engine": 3, "handling": 3},  # 21 WP
        {"tyres": 6, "brakes": 0, "gearbox": 3, "body": 4, "engine": 3, "handling": 2},
    ],
)
def test_bad_builds_under_own_car_build(clients, build):
    response = clients["organiser"].post(
        "/api/championships/",
        payload(
            rule_set="advanced",
            rules={"own_car_build": True},
            drivers=[{"name": "Ana", "build": build}],
            races=[{"circuit": "monaco"}],
        ),
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["drivers"][0]["build"]


def test_street_rules_are_not_combined_with_advanced(clients):
    response = clients["organiser"].post(
        "/api/championships/",
        payload(rule_set="advanced", rules={"street_rules": True}),
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["rules"]["street_rules"]
