"""Export/import carries each entry's club player (issue #19 item 1): a round trip keeps the
links, an import into another club links to (or creates) that club's players by match key."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.championships import helpers as fd
from tests.conftest import stage_rows
from tournament.clubs.models import Club
from tournament.players.models import Player
from tournament.tours.models import Team, Tour

pytestmark = pytest.mark.django_db


def _players(slug: str) -> dict[str, int]:
    return dict(Player.objects.filter(club__slug=slug).values_list("name", "pk"))


def _rename(clients: dict[str, Any], player_id: int, name: str) -> None:
    url = f"/api/clubs/velo-lisboa/players/{player_id}/"
    response = clients["organiser"].patch(url, {"name": name}, format="json")
    assert response.status_code == 200, response.content


def _import(client: Any, collection: str, club: str, document: dict[str, Any]) -> Any:
    return client.post(
        f"/api/{collection}/import/", {"club": club, "document": document}, format="json"
    )


def test_tour_round_trip_keeps_the_player_links(clients, tour):
    url = f"/api/tours/{tour['id']}/stages/1/results/"
    assert (
        clients["scorekeeper"].post(url, {"results": stage_rows(tour)}, format="json").status_code
        == 202
    )
    ana = tour["teams"][0]["player_id"]
    _rename(clients, ana, "Ana Sousa")  # the team still says "Ana": the link is what counts
    document = clients["organiser"].get(f"/api/tours/{tour['id']}/export/").json()
    assert document["players"] == [
        {"entry": 0, "name": "Ana Sousa"},
        {"entry": 1, "name": "Rui"},
        {"entry": 2, "name": "Gil"},
    ]
    before = _players("velo-lisboa")
    same = _import(clients["organiser"], "tours", "velo-lisboa", document)
    assert same.status_code == 201, same.content
    assert [t["player_id"] for t in same.json()["teams"]] == [t["player_id"] for t in tour["teams"]]
    assert _players("velo-lisboa") == before  # no stray "Ana" made from the team's text
    # Another club: its own players of those names, created (one already there, in capitals).
    Player.objects.create(club=Club.objects.get(slug="porto"), name="RUI")
    other = _import(clients["outsider"], "tours", "porto", document)
    assert other.status_code == 201, other.content
    porto = _players("porto")
    assert sorted(porto) == ["Ana Sousa", "Gil", "RUI"]
    assert [t["player_id"] for t in other.json()["teams"]] == [
        porto["Ana Sousa"],
        porto["RUI"],
        porto["Gil"],
    ]
    standings = clients["outsider"].get(f"/api/tours/{other.json()['id']}/standings/").json()
    assert standings["after_stage"] == 1


def test_championship_round_trip_keeps_the_player_links(clients):
    champ = fd.create(clients["organiser"])
    rows = fd.race_rows(champ, 1, ["Eva", "Ana", "Rui"])
    assert fd.submit(clients["scorekeeper"], champ, 1, rows).status_code == 202
    ids = {d["name"]: d["player_id"] for d in champ["drivers"]}
    # Rui and Eva are one person: both drivers now link to Eva's player.
    merged = clients["organiser"].post(
        f"/api/clubs/velo-lisboa/players/{ids['Rui']}/merge/", {"into": ids["Eva"]}, format="json"
    )
    assert merged.status_code == 200, merged.content
    document = clients["organiser"].get(f"/api/championships/{champ['id']}/export/").json()
    assert document["players"] == [
        {"entry": 0, "name": "Ana"},
        {"entry": 1, "name": "Eva"},
        {"entry": 2, "name": "Eva"},
    ]
    copy_ = _import(clients["organiser"], "championships", "velo-lisboa", document)
    assert copy_.status_code == 201, copy_.content
    assert [d["player_id"] for d in copy_.json()["drivers"]] == [ids["Ana"], ids["Eva"], ids["Eva"]]
    assert "Rui" not in _players("velo-lisboa")  # the merge holds through the import
    other = _import(clients["outsider"], "championships", "porto", document)
    assert other.status_code == 201, other.content
    porto = _players("porto")
    assert sorted(porto) == ["Ana", "Eva"]
    assert [d["player_id"] for d in other.json()["drivers"]] == [
        porto["Ana"],
        porto["Eva"],
        porto["Eva"],
    ]
    original = clients["organiser"].get(f"/api/championships/{champ['id']}/standings/").json()
    imported = clients["outsider"].get(f"/api/championships/{other.json()['id']}/standings/").json()
    assert [r["points"] for r in imported["drivers"]] == [r["points"] for r in original["drivers"]]


@pytest.mark.parametrize(
    ("links", "path"),
    [
        ([{"entry": 9, "name": "Ana"}], ("players", 0, "entry")),
        ([{"entry": 0, "name": "  "}], ("players", 0, "name")),
        ([{"entry": 0, "name": "Ana"}, {"entry": 0, "name": "Rui"}], ("players",)),
        ([{"entry": -1, "name": "Ana"}], ("players", 0, "entry")),
        ("Ana", ("players",)),
    ],
)
def test_a_bad_player_link_is_a_400_and_stores_nothing(clients, tour, links, path):
    document = clients["organiser"].get(f"/api/tours/{tour['id']}/export/").json()
    broken = copy.deepcopy(document)
    broken["players"] = links
    players, tours = Player.objects.count(), Tour.objects.count()
    response = _import(clients["outsider"], "tours", "porto", broken)
    assert response.status_code == 400, response.content
    found: Any = response.json()["document"]
    for key in path:
        found = found[key]
    assert found
    assert (Player.objects.count(), Tour.objects.count()) == (players, tours)


def test_a_document_without_links_still_links_by_name(clients, tour):
    document = clients["organiser"].get(f"/api/tours/{tour['id']}/export/").json()
    del document["players"]
    response = _import(clients["outsider"], "tours", "porto", document)
    assert response.status_code == 201, response.content
    linked = Team.objects.filter(tour_id=response.json()["id"]).values_list(
        "club_player__name", flat=True
    )
    assert sorted(linked) == ["Ana", "Gil", "Rui"]
