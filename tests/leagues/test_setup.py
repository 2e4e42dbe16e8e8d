"""POST, GET and PATCH /api/leagues/: set-up, effective settings, visibility, every set-up 400."""

from __future__ import annotations

from typing import Any

import pytest

from tests.leagues.helpers import create, payload, rows, submit
from tournament.competitions.models import AuditEntry
from tournament.leagues.models import Driver, League, Race

pytestmark = pytest.mark.django_db


def test_create_answers_the_detail_with_effective_settings(clients):
    detail = create(clients["organiser"])
    assert (detail["club"], detail["name"], detail["game"], detail["public"]) == (
        "velo-lisboa",
        "Heat Spring League",
        "Heat: Pedal to the Metal",
        True,
    )
    assert detail["points"] == [9, 6, 4, 3, 2, 1] and detail["points_preset"] is None
    assert (detail["drop_worst"], detail["points_finishers_only"], detail["bonus_points"]) == (
        0,
        True,
        True,
    )
    assert "rules" not in detail and "seed" not in detail  # API.md: no rules object, no seed
    assert [(d["name"], d["team"]) for d in detail["drivers"]] == [
        ("Ana", "Red"),
        ("Rui", "Red"),
        ("Eva", None),
    ]
    ana, _rui, eva = (d["id"] for d in detail["drivers"])
    assert [(r["number"], r["name"], r["status"], r["version"]) for r in detail["races"]] == [
        (1, "USA", "planned", 0),
        (2, "Italy", "planned", 0),
        (3, "France", "planned", 0),
    ]
    assert detail["races"][0]["drivers"] == ["Ana", "Rui", "Eva"]  # by default everyone
    assert detail["races"][1]["driver_ids"] == [ana, eva]
    assert clients["anonymous"].get(f"/api/leagues/{detail['id']}/").json() == detail
    entry = AuditEntry.objects.get(competition_kind="league", action="created")
    assert entry.changes == {"drivers": 3, "races": 3}


def test_defaults_and_presets(clients):
    data = payload()
    for key in ("game", "points", "drop_worst", "points_finishers_only", "bonus_points"):
        del data[key]
    data["races"] = [{}]
    detail = clients["organiser"].post("/api/leagues/", data, format="json").json()
    assert detail["points"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]  # the league default
    assert detail["points_preset"] == "f1-2010"
    assert (detail["game"], detail["drop_worst"], detail["points_finishers_only"]) == ("", 0, True)
    assert detail["bonus_points"] is False and detail["races"][0]["name"] == ""
    classic = create(clients["organiser"], points="classic")
    assert classic["points"] == [10, 6, 4, 3, 2, 1] and classic["points_preset"] == "classic"


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 401), ("scorekeeper", 403), ("outsider", 403), ("organiser", 201)],
)
def test_create_roles(clients, role, expected):
    response = clients[role].post("/api/leagues/", payload(), format="json")
    assert response.status_code == expected
    assert League.objects.count() == (1 if expected == 201 else 0)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rules": {"drop_worst": 1}}, "rules"),
        ({"seed": 3}, "seed"),
        ({"points": "heat"}, "points"),
        ({"points": "box-team-race"}, "points"),
        ({"points": [1, 3]}, "points"),
        ({"points": []}, "points"),
        ({"points": [3, -1]}, "points"),
        ({"drop_worst": -1}, "drop_worst"),
        ({"drop_worst": "two"}, "drop_worst"),
        ({"bonus_points": "maybe"}, "bonus_points"),
        ({"drivers": []}, "drivers"),
        ({"drivers": [{"name": "Ana"}, {"name": " ana "}]}, "drivers"),
        ({"drivers": [{"name": ""}]}, "drivers"),
        ({"drivers": [{"name": "x" * 81}]}, "drivers"),
        ({"races": []}, "races"),
        ({"races": [{"name": "USA", "drivers": ["Gil"]}]}, "races"),
        ({"races": [{"name": "USA", "drivers": ["Ana", "ana"]}]}, "races"),
        ({"races": [{"name": "USA", "drivers": []}]}, "races"),
        ({"club": "nowhere"}, "club"),
        ({"name": ""}, "name"),
    ],
)
def test_bad_set_ups_are_400s_and_store_nothing(clients, changes, field):
    response = clients["organiser"].post("/api/leagues/", payload(**changes), format="json")
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()
    assert not League.objects.exists() and not Driver.objects.exists()
    assert not Race.objects.exists() and not AuditEntry.objects.exists()


def test_list_and_private_visibility(clients):
    public = create(clients["organiser"], name="Open League")
    private = create(clients["organiser"], name="Club League", public=False)
    body = clients["scorekeeper"].get("/api/leagues/").json()
    assert {x["id"] for x in body["results"]} == {public["id"], private["id"]}
    for role in ("outsider", "anonymous"):
        body = clients[role].get("/api/leagues/").json()
        assert [x["id"] for x in body["results"]] == [public["id"]]
        base = f"/api/leagues/{private['id']}"
        for method, url, data in (
            ("get", f"{base}/", {}),
            ("patch", f"{base}/", {"name": "x"}),
            ("get", f"{base}/races/1/", {}),
            ("post", f"{base}/races/1/results/", {"results": []}),
            ("post", f"{base}/races/1/simulate/", {}),
            ("get", f"{base}/standings/", {}),
            ("get", f"{base}/history/", {}),
            ("get", f"{base}/export/", {}),
        ):
            response = getattr(clients[role], method)(url, data, format="json")
            assert response.status_code == 404, (role, method, url, response.status_code)
    assert clients["anonymous"].get("/api/leagues/999999/").status_code == 404
    assert clients["anonymous"].get(f"/api/leagues/{public['id']}/races/4/").status_code == 404


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 401), ("outsider", 403), ("scorekeeper", 403), ("organiser", 200)],
)
def test_patch_roles(clients, role, expected):
    league = create(clients["organiser"])
    url = f"/api/leagues/{league['id']}/"
    response = clients[role].patch(url, {"name": "Autumn"}, format="json")
    assert response.status_code == expected
    assert League.objects.get().name == ("Autumn" if expected == 200 else "Heat Spring League")


def test_set_up_changes_before_results(clients):
    league = create(clients["organiser"])
    url = f"/api/leagues/{league['id']}/"
    org = clients["organiser"]
    drivers = [{"name": d["name"], "team": d["team"]} for d in league["drivers"]]
    body = org.patch(url, {"drivers": [*drivers, {"name": "Gil"}]}, format="json").json()
    # A new driver joins the races that had everyone, not Italy's explicit list.
    assert [r["drivers"] for r in body["races"]] == [
        ["Ana", "Rui", "Eva", "Gil"],
        ["Ana", "Eva"],
        ["Ana", "Rui", "Eva", "Gil"],
    ]
    body = org.patch(
        url, {"points": "classic", "drop_worst": 1, "game": "Downforce"}, format="json"
    ).json()
    assert (body["points"], body["points_preset"], body["drop_worst"], body["game"]) == (
        [10, 6, 4, 3, 2, 1],
        "classic",
        1,
        "Downforce",
    )
    assert body["bonus_points"] is True  # kept
    body = org.patch(url, {"races": [{"name": "Japan"}]}, format="json").json()
    assert [(r["number"], r["name"]) for r in body["races"]] == [(1, "Japan")]
    history = org.get(f"{url}history/").json()
    assert [e["action"] for e in history["results"]][:3] == ["setup_changed"] * 3


@pytest.mark.parametrize(
    "body",
    [
        {"seed": 3},
        {"rules": {}},
        {"club": "porto"},
        {"points": [1, 5]},
        {"drop_worst": -2},
        {"drivers": [{"name": "Ana"}]},  # Italy enters Eva, no longer a driver
        {"public": "maybe"},
    ],
)
def test_bad_patches_are_400s_and_change_nothing(clients, body):
    league = create(clients["organiser"])
    response = clients["organiser"].patch(f"/api/leagues/{league['id']}/", body, format="json")
    assert response.status_code == 400, response.content
    assert clients["anonymous"].get(f"/api/leagues/{league['id']}/").json() == league


def test_set_up_is_locked_once_results_are_stored(clients):
    league = create(clients["organiser"])
    submit(clients["scorekeeper"], league, 1, rows(league, ["Ana", "Rui", "Eva"]))
    url = f"/api/leagues/{league['id']}/"
    locked: list[dict[str, Any]] = [
        {"points": "classic"},
        {"drop_worst": 1},
        {"bonus_points": False},
        {"points_finishers_only": False},
        {"game": "Downforce"},
        {"races": [{"name": "USA"}]},
        {"drivers": [{"name": "Ana"}]},
    ]
    for body in locked:
        assert clients["organiser"].patch(url, body, format="json").status_code == 409, body
    answer = clients["organiser"].patch(url, {"name": "Renamed", "public": False}, format="json")
    assert answer.status_code == 200
    detail = answer.json()
    assert (detail["name"], detail["public"]) == ("Renamed", False)
    assert detail["drivers"] == league["drivers"] and detail["points"] == league["points"]


def test_the_schema_describes_the_league_endpoints(clients):
    paths = clients["anonymous"].get("/api/schema/?format=json").json()["paths"]
    for path in (
        "/api/leagues/",
        "/api/leagues/{id}/",
        "/api/leagues/{id}/races/{number}/",
        "/api/leagues/{id}/races/{number}/results/",
        "/api/leagues/{id}/races/{number}/simulate/",
        "/api/leagues/{id}/standings/",
        "/api/leagues/{id}/history/",
        "/api/leagues/{id}/export/",
        "/api/leagues/import/",
    ):
        assert path in paths, path
