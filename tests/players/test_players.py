"""Club players: name matching, links from every game, the API, merging, the data migration."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps as global_apps

from tests.api import helpers as tours
from tests.championships import helpers as championships
from tests.leagues import helpers as leagues
from tests.rallies import helpers as rallies
from tournament.championships.models import Driver as FDDriver
from tournament.clubs.models import Club
from tournament.players.linking import link_existing
from tournament.players.matching import match_key
from tournament.players.models import Player
from tournament.tours.models import Team

PLAYERS = "/api/clubs/velo-lisboa/players/"
FD_RACES = [{"circuit": "monaco", "laps": 1}]
LEAGUE_RACES = [{"name": "USA"}]


def test_match_key_folds_case_and_spaces_but_keeps_accents():
    assert match_key("  Ana   Sousa ") == match_key("ana sousa") == "ana sousa"
    assert match_key("JOSÉ") == match_key("josé")
    assert match_key("José") != match_key("Jose")


def test_every_game_links_its_entries_by_name(clients: dict[str, Any]):
    organiser = clients["organiser"]
    tour = tours.create(organiser, tours.payload(teams=[tours.team("Red"), tours.team("Blue")]))
    fd = championships.create(
        organiser, races=FD_RACES, drivers=[{"name": " red "}, {"name": "Rui"}, {"name": "Eva"}]
    )
    league = leagues.create(organiser)
    rally = rallies.create_rally(organiser, drivers=[{"name": "RUI"}, {"name": "Ana"}])
    players = {p["name"]: p["id"] for p in organiser.get(PLAYERS).json()["results"]}
    assert sorted(players) == ["Ana", "Blue", "Eva", "Red", "Rui"]
    assert [t["player_id"] for t in tour["teams"]] == [players["Red"], players["Blue"]]
    assert [d["player_id"] for d in fd["drivers"]] == [players[n] for n in ("Red", "Rui", "Eva")]
    assert [d["player_id"] for d in league["drivers"]] == [
        players[n] for n in ("Ana", "Rui", "Eva")
    ]
    assert [d["player_id"] for d in rally["drivers"]] == [players["Rui"], players["Ana"]]


def test_a_create_request_may_name_the_player(clients: dict[str, Any]):
    organiser = clients["organiser"]
    ana = organiser.post(PLAYERS, {"name": "Ana Sousa"}, format="json").json()
    rally = rallies.create_rally(
        organiser, drivers=[{"name": "A. Sousa", "player_id": ana["id"]}, {"name": "Rui"}]
    )
    assert rally["drivers"][0]["player_id"] == ana["id"]
    other = Player.objects.create(club=Club.objects.get(slug="porto"), name="Eva")
    count = FDDriver.objects.count()
    response = organiser.post(
        "/api/championships/",
        championships.payload(
            races=FD_RACES, drivers=[{"name": "Ana"}, {"name": "Eva", "player_id": other.pk}]
        ),
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "player_id" in response.json()["drivers"][1]
    assert FDDriver.objects.count() == count  # nothing stored


def test_players_api_create_rename_link_and_refuse(clients: dict[str, Any], users: dict[str, Any]):
    organiser = clients["organiser"]
    made = organiser.post(PLAYERS, {"name": "  Ana  ", "user": "bystander"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["name"] == "Ana" and made.json()["user"] == "bystander"
    assert organiser.post(PLAYERS, {"name": "ANA"}, format="json").status_code == 400
    assert (
        organiser.post(PLAYERS, {"name": "x", "user": "nobody"}, format="json").status_code == 400
    )
    assert clients["scorekeeper"].post(PLAYERS, {"name": "Rui"}, format="json").status_code == 403
    assert clients["anonymous"].post(PLAYERS, {"name": "Rui"}, format="json").status_code == 401
    url = f"{PLAYERS}{made.json()['id']}/"
    renamed = organiser.patch(url, {"name": "Ana Sousa", "user": None}, format="json")
    assert renamed.status_code == 200 and renamed.json()["user"] is None
    assert Player.objects.get(pk=made.json()["id"]).key == "ana sousa"
    assert clients["outsider"].patch(url, {"name": "Z"}, format="json").status_code == 403
    assert organiser.put(url, {"name": "Z"}, format="json").status_code == 405
    assert Player.objects.count() == 1


def test_merging_moves_every_entry(clients: dict[str, Any]):
    organiser = clients["organiser"]
    rallies.create_rally(organiser, drivers=[{"name": "Ana"}, {"name": "Rui"}])
    championships.create(organiser, races=FD_RACES, drivers=[{"name": "Ana S."}, {"name": "Eva"}])
    ana = Player.objects.get(key="ana")
    alias = Player.objects.get(key="ana s.")
    merge = f"{PLAYERS}{alias.pk}/merge/"
    assert clients["scorekeeper"].post(merge, {"into": ana.pk}, format="json").status_code == 403
    assert organiser.post(merge, {"into": alias.pk}, format="json").status_code == 400
    other = Player.objects.create(club=Club.objects.get(slug="porto"), name="Ana")
    assert organiser.post(merge, {"into": other.pk}, format="json").status_code == 400
    response = organiser.post(merge, {"into": ana.pk}, format="json")
    assert response.status_code == 200, response.content
    assert not Player.objects.filter(pk=alias.pk).exists()
    assert FDDriver.objects.get(name="Ana S.").club_player_id == ana.pk
    record = organiser.get(f"{PLAYERS}{ana.pk}/").json()
    assert sorted(c["kind"] for c in record["competitions"]) == ["championship", "rally"]


def test_the_data_migration_links_existing_entries(clients: dict[str, Any]):
    organiser = clients["organiser"]
    tours.create(organiser, tours.payload(teams=[tours.team("Red"), tours.team("Blue")]))
    leagues.create(organiser, races=LEAGUE_RACES, drivers=[{"name": "red"}, {"name": "Rui"}])
    # As before the migration: entries without players, no players.
    Team.objects.update(club_player=None)
    global_apps.get_model("leagues", "Driver").objects.update(club_player=None)
    Player.objects.all().delete()
    link_existing(global_apps)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Blue", "Red", "Rui"]
    red = Player.objects.get(key="red")
    assert Team.objects.get(name="Red").club_player == red
    assert global_apps.get_model("leagues", "Driver").objects.get(name="red").club_player == red
    link_existing(global_apps)  # idempotent
    assert Player.objects.count() == 3


@pytest.mark.parametrize("role", ["anonymous", "outsider", "organiser"])
def test_the_record_hides_private_competitions(clients: dict[str, Any], role: str):
    organiser = clients["organiser"]
    rallies.create_rally(organiser, drivers=[{"name": "Ana"}, {"name": "Rui"}])
    rallies.create_rally(organiser, public=False, drivers=[{"name": "Ana"}, {"name": "Eva"}])
    ana = Player.objects.get(key="ana")
    record = clients[role].get(f"{PLAYERS}{ana.pk}/").json()
    assert len(record["competitions"]) == (2 if role == "organiser" else 1)
    first = record["competitions"][0]
    assert first["kind"] == "rally" and first["finished"] is False and first["rank"] is None
