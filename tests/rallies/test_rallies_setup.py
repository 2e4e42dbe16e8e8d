"""POST/GET /api/rallies/, GET/PATCH /api/rallies/{id}/: set-up, roles, visibility, 409s."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rallies.helpers import create_rally, rally_payload, sheet, submit
from tournament.rallies.models import Driver, Rally, RallyStage


def test_create_answers_201_with_the_detail_and_every_effective_rule(clients):
    body = create_rally(clients["organiser"], rules={"super_rally_penalty_s": 120})
    assert set(body) >= {"id", "club", "name", "public", "seed", "rules", "drivers", "stages"}
    assert (body["club"], body["name"], body["public"], body["seed"]) == (
        "velo-lisboa",
        "Rali de Sintra",
        True,
        11,
    )
    assert [d["name"] for d in body["drivers"]] == ["Ana", "Rui", "Sara"]
    assert all(isinstance(d["id"], int) for d in body["drivers"])
    assert [(s["number"], s["name"], s["layout"], s["status"]) for s in body["stages"]] == [
        (1, "SS1 Pena", "gravel-flats", "planned"),
        (2, "SS2 Azoia", None, "planned"),
        (3, "SS3 Colares", "twisty-jumps", "planned"),
    ]
    # The detail shows every effective value (API.md), the one sent and the defaults.
    assert body["rules"]["super_rally_penalty_s"] == 120
    assert body["rules"]["super_rally"] is True
    assert body["rules"]["time_card_s"] == {"1": 50, "2": 40, "3": 30, "4": 20, "5": 15, "6": 10}
    assert clients["anonymous"].get(f"/api/rallies/{body['id']}/").json() == body


def test_seed_and_public_are_optional(clients):
    payload = rally_payload()
    del payload["seed"]
    response = clients["organiser"].post("/api/rallies/", payload, format="json")
    assert response.status_code == 201
    assert isinstance(response.json()["seed"], int)
    assert response.json()["public"] is True


def test_a_layout_document_is_accepted_and_shown(clients):
    from games.rallyman import sample_document

    document = sample_document("ford-cuts")
    body = create_rally(clients["organiser"], stages=[{"name": "Own", "layout": document}])
    assert body["stages"][0]["layout"] == document


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("organiser", 201),
        ("superuser", 201),
        ("scorekeeper", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_create(clients, role, code):
    response = clients[role].post("/api/rallies/", rally_payload(), format="json")
    assert response.status_code == code, response.content
    assert Rally.objects.count() == (1 if code == 201 else 0)


def test_an_outsider_gets_403_not_the_validation_errors(clients):
    response = clients["outsider"].post("/api/rallies/", rally_payload(drivers=[]), format="json")
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"drivers": []}, ["drivers"]),
        ({"stages": []}, ["stages"]),
        ({"drivers": [{"name": "Ana"}, {"name": " ana "}]}, ["drivers", 1, "name"]),
        ({"drivers": [{"name": "  "}]}, ["drivers", 0, "name"]),
        ({"stages": [{"name": "x", "layout": "monaco"}]}, ["stages", 0, "layout"]),
        ({"stages": [{"name": "x", "layout": 3}]}, ["stages", 0, "layout"]),
        (
            {"stages": [{"name": "x", "layout": {"format": 1, "name": "x", "tiles": []}}]},
            ["stages", 0, "layout"],
        ),
        ({"rules": {"points": "wrc-2010"}}, ["rules", "points"]),
        ({"rules": {"drop_worst": 1}}, ["rules", "drop_worst"]),
        ({"rules": {"seed": 3}}, ["rules", "seed"]),
        ({"rules": {"no_such_rule": 1}}, ["rules", "no_such_rule"]),
        ({"rules": {"super_rally": "maybe"}}, ["rules", "super_rally"]),
        ({"rules": {"loc_card_s": 5}}, ["rules", "loc_card_s"]),
        ({"seed": -1}, ["seed"]),
        ({"club": "nowhere"}, ["club"]),
        ({"teams": []}, ["teams"]),
    ],
)
def test_bad_set_up_is_a_400_with_the_field_and_nothing_stored(clients, changes, path):
    response = clients["organiser"].post("/api/rallies/", rally_payload(**changes), format="json")
    assert response.status_code == 400, response.content
    node: Any = response.json()
    for step in path:
        node = node[step]
    assert node and all(isinstance(m, str) for m in node), response.json()
    assert not Rally.objects.exists()


def test_list_shows_what_the_caller_may_see(clients):
    public = create_rally(clients["organiser"])
    private = create_rally(clients["organiser"], name="Private", public=False)
    seen = {
        role: {r["id"] for r in clients[role].get("/api/rallies/").json()["results"]}
        for role in ("organiser", "scorekeeper", "outsider", "anonymous", "superuser")
    }
    both = {public["id"], private["id"]}
    assert seen == {
        "organiser": both,
        "scorekeeper": both,
        "outsider": {public["id"]},
        "anonymous": {public["id"]},
        "superuser": both,
    }
    assert set(clients["anonymous"].get("/api/rallies/").json()) == {
        "count",
        "next",
        "previous",
        "results",
    }


@pytest.mark.parametrize("role", ["outsider", "anonymous"])
def test_a_private_rally_is_404_to_every_method(clients, role):
    rally = create_rally(clients["organiser"], public=False)
    base = f"/api/rallies/{rally['id']}"
    client = clients[role]
    answers = [
        client.get(f"{base}/"),
        client.patch(f"{base}/", {"name": "x"}, format="json"),
        client.get(f"{base}/stages/1/"),
        client.post(f"{base}/stages/1/results/", {"results": []}, format="json"),
        client.post(f"{base}/stages/1/simulate/"),
        client.get(f"{base}/stages/1/replay/"),
        client.get(f"{base}/standings/"),
        client.get(f"{base}/standings/?after_stage=9"),
        client.get(f"{base}/history/"),
    ]
    assert [a.status_code for a in answers] == [404] * len(answers)
    for role_in_club in ("organiser", "scorekeeper"):
        assert clients[role_in_club].get(f"{base}/").status_code == 200


def test_unknown_rally_is_404(clients):
    assert clients["organiser"].get("/api/rallies/999999/").status_code == 404
    assert clients["organiser"].get("/api/rallies/abc/").status_code == 404


# --- PATCH --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("organiser", 200),
        ("superuser", 200),
        ("scorekeeper", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_patch(clients, role, code):
    rally = create_rally(clients["organiser"])
    response = clients[role].patch(
        f"/api/rallies/{rally['id']}/", {"name": "Renamed"}, format="json"
    )
    assert response.status_code == code
    assert Rally.objects.get().name == ("Renamed" if code == 200 else "Rali de Sintra")


def test_patch_replaces_the_set_up_before_results(clients):
    rally = create_rally(clients["organiser"])
    response = clients["organiser"].patch(
        f"/api/rallies/{rally['id']}/",
        {"drivers": [{"name": "Eva"}, {"name": "Gil"}], "rules": {"super_rally": False}},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert [d["name"] for d in body["drivers"]] == ["Eva", "Gil"]
    assert [s["name"] for s in body["stages"]] == ["SS1 Pena", "SS2 Azoia", "SS3 Colares"]
    assert body["rules"]["super_rally"] is False
    assert body["rules"]["super_rally_penalty_s"] == 300  # the other rules are kept
    assert Driver.objects.count() == 2
    history = clients["organiser"].get(f"/api/rallies/{rally['id']}/history/").json()
    assert [e["action"] for e in history["results"]] == ["setup_changed", "created"]


def test_patch_of_the_set_up_after_results_is_a_409_but_name_and_public_still_change(clients):
    rally = create_rally(clients["organiser"])
    assert (
        submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320)).status_code
        == 202
    )
    url = f"/api/rallies/{rally['id']}/"
    for change in (
        {"drivers": [{"name": "Eva"}]},
        {"stages": [{"name": "Only"}]},
        {"rules": {"super_rally": False}},
    ):
        response = clients["organiser"].patch(url, change, format="json")
        assert response.status_code == 409, change
    # API.md: the conflict with the state comes first, even for a set-up that would not validate.
    bad = clients["organiser"].patch(url, {"drivers": []}, format="json")
    assert bad.status_code == 409
    assert Driver.objects.count() == 3 and RallyStage.objects.count() == 3
    response = clients["organiser"].patch(url, {"name": "Rali 2", "public": False}, format="json")
    assert response.status_code == 200
    assert (response.json()["name"], response.json()["public"]) == ("Rali 2", False)


@pytest.mark.parametrize(
    "body",
    [
        {"seed": 4},
        {"club": "porto"},
        {"drivers": [{"name": "A"}, {"name": "a"}]},
        {"rules": {"points": [1]}},
        {"name": ""},
    ],
)
def test_bad_patch_is_a_400(clients, body):
    rally = create_rally(clients["organiser"])
    response = clients["organiser"].patch(f"/api/rallies/{rally['id']}/", body, format="json")
    assert response.status_code == 400, response.content
    assert clients["organiser"].get(f"/api/rallies/{rally['id']}/").json() == rally
