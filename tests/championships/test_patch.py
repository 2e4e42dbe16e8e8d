"""PATCH /api/championships/{id}/: name and public any time, the set-up before results only."""

from __future__ import annotations

import pytest

from tests.championships.helpers import create, race_rows, submit
from tournament.championships.models import Championship

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("scorekeeper", 403),
        ("organiser", 200),
        ("superuser", 200),
    ],
)
def test_patch_roles(clients, role, expected):
    champ = create(clients["organiser"])
    response = clients[role].patch(
        f"/api/championships/{champ['id']}/", {"name": "Spring Cup"}, format="json"
    )
    assert response.status_code == expected
    name = Championship.objects.get(pk=champ["id"]).name
    assert name == ("Spring Cup" if expected == 200 else "Formula D Winter Cup")


def test_set_up_changes_before_results(clients):
    champ = create(clients["organiser"])
    url = f"/api/championships/{champ['id']}/"
    org = clients["organiser"]
    # A new driver is entered in the races that had everyone, not in race 2's explicit list.
    drivers = [*champ["drivers"], {"name": "Gil", "team": None}]
    body = org.patch(
        url,
        {"drivers": [{"name": d["name"], "team": d["team"]} for d in drivers]},
        format="json",
    ).json()
    assert [r["drivers"] for r in body["races"]] == [
        ["Ana", "Rui", "Eva", "Gil"],
        ["Ana", "Eva"],
        ["Ana", "Rui", "Eva", "Gil"],
    ]
    body = org.patch(url, {"points": "f1-2010", "rules": {"pole_bonus": 1}}, format="json").json()
    assert body["points"][0] == 25 and body["rules"]["pole_bonus"] == 1
    assert body["rules"]["drop_worst"] == 0  # kept
    # Values at the basic defaults take the advanced ones (FD-58/FD-60); chosen ones stay.
    body = org.patch(url, {"rule_set": "advanced"}, format="json").json()
    assert body["rule_set"] == "advanced"
    assert body["rules"]["start_great_min"] == 20 and body["rules"]["pole_bonus"] == 1
    body = org.patch(url, {"races": [{"circuit": "monaco", "laps": 3}]}, format="json").json()
    assert [(r["number"], r["laps"]) for r in body["races"]] == [(1, 3)]
    history = org.get(f"{url}history/").json()
    assert [e["action"] for e in history["results"]][:4] == ["setup_changed"] * 4


@pytest.mark.parametrize(
    "body",
    [
        {"seed": 3},
        {"club": "porto"},
        {"races": [{"circuit": "monaco", "laps": 9}]},
        {"drivers": [{"name": "Ana"}]},  # race 2 names Eva, no longer a driver
        {"rules": {"points": [1]}},
        {"points": [1, 5]},
        {"rule_set": "expert"},
        {"public": "maybe"},
    ],
)
def test_bad_patches_are_400s_and_change_nothing(clients, body):
    champ = create(clients["organiser"])
    response = clients["organiser"].patch(f"/api/championships/{champ['id']}/", body, format="json")
    assert response.status_code == 400, response.content
    assert clients["anonymous"].get(f"/api/championships/{champ['id']}/").json() == champ


def test_set_up_is_locked_once_results_are_stored(clients):
    champ = create(clients["organiser"])
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    url = f"/api/championships/{champ['id']}/"
    for body in (
        {"rules": {"drop_worst": 1}},
        {"drivers": [{"name": "Ana"}, {"name": "Rui"}, {"name": "Eva"}]},
        {"races": [{"circuit": "monaco"}]},
        {"points": "classic"},
    ):
        response = clients["organiser"].patch(url, body, format="json")
        assert response.status_code == 409, body
    answer = clients["organiser"].patch(url, {"name": "Renamed", "public": False}, format="json")
    assert answer.status_code == 200
    detail = answer.json()
    assert (detail["name"], detail["public"]) == ("Renamed", False)
    assert detail["drivers"] == champ["drivers"] and detail["rules"] == champ["rules"]
