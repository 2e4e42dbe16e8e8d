"""POST /api/tours/import-companion/: Companion backups in the app's own format (issue #19 item 6).

One complete tour is imported once per module (the fixture's figures are hand-checked in
``helpers.complete_tour``); the refusals each assert the path named and that nothing was stored.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest
from django.apps import apps

from tests.imports.helpers import SECRET, backup, complete_tour, rest_day, rider, stage
from tournament.competitions.models import AuditAction, AuditEntry
from tournament.players.models import Player
from tournament.tours.models import Tour

pytestmark = pytest.mark.django_db
URL = "/api/tours/import-companion/"


def post(client: Any, document: Any, **extra: Any) -> Any:
    return client.post(URL, {"club": "velo-lisboa", "document": document, **extra}, format="json")


def stored() -> tuple[int, int, int]:
    return Tour.objects.count(), Player.objects.count(), AuditEntry.objects.count()


@pytest.fixture
def imported(clients: Any, caplog: Any) -> dict[str, Any]:
    caplog.set_level(logging.DEBUG)
    response = post(clients["organiser"], complete_tour())
    assert response.status_code == 201, response.content
    return {"detail": response.json(), "logs": caplog}


def test_a_complete_backup_becomes_a_resolved_tour(clients, imported):
    detail = imported["detail"]
    assert detail["name"] == "Volta do Porto"
    assert [t["name"] for t in detail["teams"]] == ["Red", "Blue", "Green"]
    assert [t["player"] for t in detail["teams"]] == ["Ana", "Rui", "Gil"]
    assert all(t["player_id"] for t in detail["teams"])  # linked to the club's players
    red = detail["teams"][0]["riders"]
    assert [(r["role"], r["specialist"]) for r in red] == [
        ("rouleur", "super_rouleur"),
        ("sprinteur", "super_sprinteur"),
    ]
    assert detail["rest_days_after"] == [1]
    assert detail["rules"]["timing_tile"] is False
    assert detail["rules"]["classification_tp"]["general"] == [[3, 2, 1]]
    # Entered as submitted results; the worker resolves them after the import commits.
    assert [s["status"] for s in detail["stages"]] == ["submitted"] * 3
    again = clients["anonymous"].get(f"/api/tours/{detail['id']}/").json()
    assert [s["status"] for s in again["stages"]] == ["resolved"] * 3
    standings = clients["anonymous"].get(f"/api/tours/{detail['id']}/standings/").json()
    assert standings["after_stage"] == 3
    names = {r["id"]: r["name"] for t in detail["teams"] for r in t["riders"]}
    # Ana's sprinteur: 0:00 + 0:40 + 0:00 = 40 s, the best total time.
    leader = standings["general"][0]
    assert (names[leader["rider"]], leader["time"]) == ("Ana - Sprinteur", 40)
    stage_one = clients["anonymous"].get(f"/api/tours/{detail['id']}/stages/1/").json()
    assert [(r["position"], r["minutes"], r["seconds"]) for r in stage_one["results"][:3]] == [
        (1, 0, 0),
        (2, 0, 10),
        (3, 0, 20),
    ]
    # An empty fatigue count is unknown (null), "1" is 1.
    cards = {names[r["rider"]]: r["exhaustion"] for r in stage_one["results"]}
    assert cards["Ana - Sprinteur"] == 1 and cards["Gil - Rouleur"] is None


def test_the_companions_tour_points_are_compared_and_podiums_kept(clients, imported):
    detail = imported["detail"]
    blue = detail["teams"][1]["id"]
    assert detail["differences"] == [
        {
            "entry": "stage",
            "stage": 2,
            "team": blue,
            "team_name": "Blue",
            "player": "Rui",
            "file": 3,
            "podium": 2,
            "where": "document.game.gameResults.entries[2]",
        }
    ]
    standings = clients["anonymous"].get(f"/api/tours/{detail['id']}/standings/").json()
    tp = {row["team"]: row for row in standings["tour_points"]}
    # Rui: 2 (stage 1) + 1 (Rest Day, MC) + 2 (stage 2, Podium's) + 1 (stage 3) = 6 podium+rest.
    assert tp[blue]["podium"] + tp[blue]["rest_days"] == 6
    history = clients["organiser"].get(f"/api/tours/{detail['id']}/history/").json()["results"]
    entry = next(e for e in history if e["action"] == AuditAction.IMPORTED)
    assert entry["changes"]["differences"] == detail["differences"]
    assert "Companion" in entry["summary"] and "1 Tour Points differences" in entry["summary"]


def test_the_admin_key_is_never_stored_or_logged(clients, imported):
    detail = imported["detail"]
    # Every row of every table (Django's and Podium's), every column, as text.
    found = []
    models = apps.get_models(include_auto_created=True)
    for model in models:
        for row in model._default_manager.values_list():
            if SECRET in repr(row):
                found.append(model._meta.label)
    assert len(models) > 20 and found == []
    for url in ("history", "export"):
        body = clients["organiser"].get(f"/api/tours/{detail['id']}/{url}/").content.decode()
        assert SECRET not in body and "FR7K2Q" not in body, url
    assert SECRET not in str(detail)
    assert SECRET not in imported["logs"].text


def test_a_mid_tour_backup_leaves_the_later_stages_to_ride(clients):
    entries = complete_tour()["game"]["gameResults"]["entries"][:2]  # stage 1 and its Rest Day
    entries[1]["players"][1]["rouleur"]["tourPoints"] = ""  # Rui's MC lead not entered in the app
    document = backup(entries, stages=5, rest_days=["1", "3"])
    response = post(clients["organiser"], document, name="Half a Volta", public=False)
    assert response.status_code == 201, response.content
    detail = response.json()
    assert detail["name"] == "Half a Volta" and detail["public"] is False
    assert [s["status"] for s in detail["stages"]] == ["submitted"] + ["planned"] * 4
    assert detail["rest_days_after"] == [1, 3]
    assert [
        (d["entry"], d["stage"], d["team_name"], d["file"], d["podium"])
        for d in detail["differences"]
    ] == [("rest_day", 1, "Blue", 0, 1)]
    assert detail["differences"][0]["where"] == "document.game.gameResults.entries[1]"
    # No Specialists outside the app's "dummy" mode.
    assert {r["specialist"] for t in detail["teams"] for r in t["riders"]} == {None}


def test_equal_times_are_ordered_by_tie_break_order(clients):
    # Everyone finishes in 0:10; the app entered Rui first this time (tieBreakOrder 0, 1).
    one = stage(1, [(rider("0:10"), rider("0:10"))] * 3)
    one["players"][1]["sprinteur"]["tieBreakOrder"] = -2
    one["players"][1]["rouleur"]["tieBreakOrder"] = -1
    response = post(clients["organiser"], backup([one], stages=1))
    assert response.status_code == 201, response.content
    detail = response.json()
    names = {r["id"]: r["name"] for t in detail["teams"] for r in t["riders"]}
    results = clients["anonymous"].get(f"/api/tours/{detail['id']}/stages/1/").json()["results"]
    assert [names[r["rider"]] for r in results] == [
        "Rui - Sprinteur",
        "Rui - Rouleur",
        "Ana - Sprinteur",
        "Ana - Rouleur",
        "Gil - Sprinteur",
        "Gil - Rouleur",
    ]


def _broken(change: Any) -> dict[str, Any]:
    document = complete_tour()
    change(document)
    return document


def _set(path: list[Any], value: Any) -> Any:
    def change(document: dict[str, Any]) -> None:
        node = document
        for step in path[:-1]:
            node = node[step]
        if value is KeyError:
            del node[path[-1]]
        else:
            node[path[-1]] = value

    return change


ENTRIES = ["game", "gameResults", "entries"]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        # A missing time: the app would read it as 0:00, the stage's best.
        (
            _set([*ENTRIES, 2, "players", 0, "rouleur", "time"], ""),
            [*ENTRIES, 2, "players", 0, "rouleur", "time"],
        ),
        (
            _set([*ENTRIES, 3, "players", 2, "sprinteur", "time"], "1:75"),
            [*ENTRIES, 3, "players", 2, "sprinteur", "time"],
        ),
        (_set(["formatVersion"], 2), ["formatVersion"]),
        (_set(["formatVersion"], KeyError), ["formatVersion"]),
        (_set(["app"], "Other App"), ["app"]),
        (_set(["game", "createGameDraft"], KeyError), ["game", "createGameDraft"]),
        (
            _set(["game", "createGameDraft", "playerNames"], KeyError),
            ["game", "createGameDraft", "playerNames"],
        ),
        (
            _set(["game", "createGameDraft", "stages"], "twenty"),
            ["game", "createGameDraft", "stages"],
        ),
        (
            _set([*ENTRIES, 0, "players", 1, "sprinteur", "sprintPoints"], "3.5"),
            [*ENTRIES, 0, "players", 1, "sprinteur", "sprintPoints"],
        ),
        (
            _set([*ENTRIES, 0, "players", 1, "rouleur"], KeyError),
            [*ENTRIES, 0, "players", 1, "rouleur"],
        ),
        # A Specialist Podium does not know, at the team's field of the backup (relocated).
        (
            _set(
                ["game", "createGameDraft", "dummyTeams", 2, "rouleurSpecialRiderId"], "sprinter-x"
            ),
            ["game", "createGameDraft", "dummyTeams", 2, "rouleurSpecialRiderId"],
        ),
        # Stage 3 without stage 2; a Rest Day the set-up does not have.
        (_set([*ENTRIES, 2, "stageNumber"], 4), [*ENTRIES, 2, "stageNumber"]),
        (_set([*ENTRIES, 1, "stageNumber"], 2), [*ENTRIES, 1, "stageNumber"]),
    ],
    ids=[
        "empty-time",
        "bad-seconds",
        "format-version-2",
        "no-format-version",
        "other-app",
        "no-draft",
        "no-player-names",
        "stage-count-text",
        "decimal-count",
        "no-rouleur",
        "unknown-specialist",
        "stage-gap",
        "rest-day-not-set-up",
    ],
)
def test_a_backup_it_cannot_read_is_a_400_at_the_field_and_stores_nothing(clients, change, where):
    before = stored()
    response = post(clients["organiser"], _broken(change))
    assert response.status_code == 400, response.content
    node: Any = response.json()["document"]
    for step in where:
        assert isinstance(node, (dict, list)), (where, response.json())
        node = node[step]
    assert isinstance(node, list) and all(isinstance(m, str) and m for m in node), node
    assert stored() == before
    assert SECRET not in response.content.decode()


def test_a_backup_without_a_rest_day_entry_yet_or_with_a_duplicate_stage(clients):
    document = complete_tour()
    entries = document["game"]["gameResults"]["entries"]
    entries.append(copy.deepcopy(entries[0]))
    response = post(clients["organiser"], document)
    assert response.status_code == 400
    assert "stageNumber" in response.json()["document"]["game"]["gameResults"]["entries"][4]
    # Without its Rest Day entry the tour imports: Podium still awards the Rest Day's TP.
    del entries[4], entries[1]
    response = post(clients["organiser"], document)
    assert response.status_code == 201, response.content


def test_only_the_clubs_organisers_import(clients):
    document = backup([rest_day(1, [(0, 0)] * 3)], stages=2, rest_days=["1"])
    assert post(clients["anonymous"], document).status_code == 401
    assert post(clients["scorekeeper"], document).status_code == 403
    assert post(clients["outsider"], document).status_code == 403
    unknown = clients["organiser"].post(URL, {"club": "nowhere", "document": {}}, format="json")
    assert unknown.status_code == 400 and "club" in unknown.json()
