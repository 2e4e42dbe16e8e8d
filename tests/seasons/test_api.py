"""/api/clubs/{slug}/seasons/: create, read, change, standings (issue #19 item 4)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.seasons.helpers import championship, create_season, item, league
from tournament.players.models import Player
from tournament.seasons.models import Season, SeasonCompetition

pytestmark = pytest.mark.django_db

URL = "/api/clubs/velo-lisboa/seasons/"
POINTS = [10, 8, 6]


@pytest.fixture
def world(clients: dict[str, Any]) -> dict[str, Any]:
    """Two finished leagues, a finished championship, a league half played, a private league
    and another club's league."""
    return {
        "l1": league(clients, "Spring", ["Ana", "Rui", "Eva"]),
        "l2": league(clients, "Summer", ["Rui", "Ana", "Eva"]),
        "fd": championship(clients, "Winter Cup", ["Gil", "Bea", "Eva"]),
        # Eva leads it, but it is not finished: it must not count.
        "open": league(clients, "Autumn", ["Eva", "Gil"], races=2, played=1),
        "private": league(clients, "Members", ["Rui", "Ana"], public=False),
        "porto": league(clients, "Porto", ["Ana", "Rui"], club="porto", by="outsider"),
    }


def _season(clients: dict[str, Any], world: dict[str, Any], *names: str, **body: Any) -> Any:
    kinds = {"fd": "championship"}
    items = [item(kinds.get(n, "league"), world[n]) for n in names]
    response = create_season(
        clients["organiser"], **{"name": "2026", "points": POINTS, "competitions": items, **body}
    )
    assert response.status_code == 201, response.content
    return response.json()


def _rows(standings: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(p["rank"], p["name"], p["points"], p["results"]) for p in standings["players"]]


def test_standings_points_countback_then_name(clients, world):
    season = _season(clients, world, "l1", "l2", "fd", "open")
    assert [c["id"] for c in season["competitions"]] == [
        world[n]["id"] for n in ("l1", "l2", "fd", "open")
    ]
    got = clients["anonymous"].get(f"{URL}{season['id']}/standings/")
    assert got.status_code == 200, got.content
    body = got.json()
    assert [c["finished"] for c in body["competitions"]] == [True, True, True, False]
    # Ana 10+8, Rui 8+10: the same countback (a 1st and a 2nd), so by name; Eva 6+6+6 = 18
    # too, but with no 1st place; Gil and Bea only rode the championship; Eva's lead in the
    # unfinished league counts for nothing.
    assert _rows(body) == [
        (1, "Ana", 18, [1, 2, None, None]),
        (2, "Rui", 18, [2, 1, None, None]),
        (3, "Eva", 18, [3, 3, 3, None]),
        (4, "Gil", 10, [None, None, 1, None]),
        (5, "Bea", 8, [None, None, 2, None]),
    ]
    ties = [p.get("tie_break") for p in body["players"]]
    assert ties[0] is None and ties[3] is None and ties[4] is None
    assert ties[1]["code"] == "season_name"
    assert ties[1]["text"] == "Same points and countback; name order (SEASON-3)"
    assert ties[2]["text"] == "Same points; more wins: 1 against 0 (SEASON-2)"
    ana = Player.objects.get(club__slug="velo-lisboa", key="ana")
    assert body["players"][0]["player_id"] == ana.pk


def test_tie_break_sentences_in_the_readers_language(clients, world):
    season = _season(clients, world, "l1", "l2", "fd")
    body = (
        clients["anonymous"]
        .get(f"{URL}{season['id']}/standings/", HTTP_ACCEPT_LANGUAGE="pt")
        .json()
    )
    texts = [p["tie_break"]["text"] for p in body["players"] if "tie_break" in p]
    assert texts == [
        "Mesmos pontos e desempate por lugares; ordem dos nomes (SEASON-3)",
        "Mesmos pontos; mais vitórias: 1 contra 0 (SEASON-2)",
    ]


def test_the_first_finish_of_the_open_league_counts_once_it_ends(clients, world):
    season = _season(clients, world, "l1", "open")
    from tests.leagues import helpers as leagues

    before = clients["anonymous"].get(f"{URL}{season['id']}/standings/").json()
    assert [(p["name"], p["points"]) for p in before["players"]] == [
        ("Ana", 10),
        ("Rui", 8),
        ("Eva", 6),
    ]
    rows = leagues.rows(world["open"], ["Eva", "Gil"])
    assert leagues.submit(clients["scorekeeper"], world["open"], 2, rows).status_code == 202
    after = clients["anonymous"].get(f"{URL}{season['id']}/standings/").json()
    assert [(p["name"], p["points"], p["results"]) for p in after["players"]] == [
        ("Eva", 16, [3, 1]),
        ("Ana", 10, [1, None]),
        ("Gil", 8, [None, 2]),
        ("Rui", 8, [2, None]),
    ]
    # Gil and Rui: 8 points from one 2nd place each; by name.
    assert after["players"][3]["tie_break"]["code"] == "season_name"


def test_private_competitions_count_only_for_the_club(clients, world):
    season = _season(clients, world, "l1", "private")
    members = clients["scorekeeper"].get(f"{URL}{season['id']}/standings/").json()
    assert [(p["name"], p["points"]) for p in members["players"]] == [
        ("Ana", 18),
        ("Rui", 18),
        ("Eva", 6),
    ]
    for role in ("anonymous", "outsider"):
        body = clients[role].get(f"{URL}{season['id']}/standings/").json()
        assert [c["id"] for c in body["competitions"]] == [world["l1"]["id"]]
        assert [(p["name"], p["points"]) for p in body["players"]] == [
            ("Ana", 10),
            ("Rui", 8),
            ("Eva", 6),
        ]
        detail = clients[role].get(f"{URL}{season['id']}/").json()
        assert detail["competitions"] == [{"kind": "league", "id": world["l1"]["id"]}]
        listed = clients[role].get(URL).json()["results"]
        assert listed[0]["competitions"] == detail["competitions"]


@pytest.mark.parametrize(
    ("role", "code"),
    [("anonymous", 401), ("outsider", 403), ("scorekeeper", 403), ("organiser", 201)],
)
def test_only_organisers_create(clients, world, role, code):
    body = {"name": "2026", "points": POINTS, "competitions": [item("league", world["l1"])]}
    response = create_season(clients[role], **body)
    assert response.status_code == code, response.content
    assert Season.objects.count() == (1 if code == 201 else 0)


@pytest.mark.parametrize(
    ("role", "code"),
    [("anonymous", 401), ("outsider", 403), ("scorekeeper", 403), ("organiser", 200)],
)
def test_only_organisers_change_and_everyone_reads(clients, world, role, code):
    season = _season(clients, world, "l1")
    url = f"{URL}{season['id']}/"
    response = clients[role].patch(url, {"points": [3, 2, 1]}, format="json")
    assert response.status_code == code, response.content
    assert Season.objects.get().points == ([3, 2, 1] if code == 200 else POINTS)
    assert clients[role].get(url).status_code == 200
    assert clients[role].get(f"{url}standings/").status_code == 200
    assert clients[role].get(URL).status_code == 200


def test_patch_changes_the_table_and_the_competitions(clients, world):
    season = _season(clients, world, "l1")
    url = f"{URL}{season['id']}/"
    items = [item("league", world["l2"]), item("championship", world["fd"])]
    response = clients["organiser"].patch(
        url, {"name": "Year", "points": [1], "competitions": items}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json() == {
        "id": season["id"],
        "name": "Year",
        "points": [1],
        "competitions": items,
    }
    body = clients["anonymous"].get(f"{url}standings/").json()
    assert [(p["name"], p["points"]) for p in body["players"]] == [
        ("Gil", 1),
        ("Rui", 1),
        ("Ana", 0),
        ("Bea", 0),
        ("Eva", 0),
    ]
    bad = clients["organiser"].patch(
        url, {"competitions": [item("league", world["porto"])]}, format="json"
    )
    assert bad.status_code == 400
    # A PATCH changes the keys sent, but each item it sends is whole.
    half = clients["organiser"].patch(url, {"competitions": [{"id": 1}]}, format="json")
    assert half.status_code == 400 and half.json()["competitions"][0]["kind"]
    assert list(SeasonCompetition.objects.values_list("competition_id", flat=True)) == [
        world["l2"]["id"],
        world["fd"]["id"],
    ]


BAD_BODIES = [
    ({"points": [10, -1]}, ("points", 1)),
    ({"points": [10, 1.5]}, ("points", 1)),
    ({"points": [True]}, ("points", 0)),
    ({"points": ["ten"]}, ("points", 0)),
    ({"points": []}, ("points",)),
    ({"points": "10,8"}, ("points",)),
    ({"competitions": []}, ("competitions",)),
    ({"competitions": [{"kind": "chess", "id": 1}]}, ("competitions", 0, "kind")),
    ({"competitions": [{"kind": "league"}]}, ("competitions", 0, "id")),
    ({"name": "  "}, ("name",)),
    ({"colour": "red"}, ("colour",)),
    ({"competitions": [{"kind": "league", "id": 1, "colour": 1}]}, ("competitions", 0, "colour")),
]


@pytest.mark.parametrize(("change", "path"), BAD_BODIES)
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(clients, users, change, path):
    body = {"name": "2026", "points": POINTS, "competitions": [{"kind": "league", "id": 1}]}
    response = create_season(clients["organiser"], **{**body, **change})
    assert response.status_code == 400, response.content
    found: Any = response.json()
    for key in path:
        found = found[key]
    assert found
    assert Season.objects.count() == 0


def test_unknown_or_another_clubs_competition_is_a_400_on_that_item(clients, world):
    items = [
        item("league", world["l1"]),
        item("league", world["porto"]),
        {"kind": "championship", "id": 999999},  # no such championship
        item("league", world["l1"]),  # twice
    ]
    response = create_season(clients["organiser"], name="2026", points=POINTS, competitions=items)
    assert response.status_code == 400, response.content
    errors = response.json()["competitions"]
    # Errors per item, {} for the good one (API.md: field errors nested for list items).
    assert [sorted(e) for e in errors] == [[], ["id"], ["id"], ["id"]]
    assert errors[1]["id"] == [f"league {world['porto']['id']} is not a competition of this club."]
    assert errors[2]["id"] == ["championship 999999 is not a competition of this club."]
    assert "already in the season" in errors[3]["id"][0]
    assert Season.objects.count() == SeasonCompetition.objects.count() == 0
    _season(clients, world, "l1")
    again = create_season(
        clients["organiser"], name="2026", points=POINTS, competitions=[item("league", world["l2"])]
    )
    assert again.status_code == 400 and "name" in again.json()
    assert Season.objects.count() == 1


def test_standings_cost_the_same_queries_whatever_the_season_length(clients, world):
    short = _season(clients, world, "l1", "fd")
    long = _season(clients, world, "l1", "l2", "open", "private", "fd", name="Long")
    counts = []
    for season in (short, long):
        with CaptureQueriesContext(connection) as queries:
            response = clients["organiser"].get(f"{URL}{season['id']}/standings/")
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_an_unknown_season_or_club_is_a_404(clients, world):
    assert clients["anonymous"].get(f"{URL}999999/standings/").status_code == 404
    assert clients["anonymous"].get("/api/clubs/nope/seasons/").status_code == 404
    season = _season(clients, world, "l1")
    # Another club's season id under this club's slug: not found.
    assert clients["anonymous"].get(f"/api/clubs/porto/seasons/{season['id']}/").status_code == 404


def test_a_tour_and_a_rally_count_by_tour_points_and_overall_rank(clients, users):
    from tests.rallies.helpers import create_rally, sheet, submit
    from tests.web.builders import build_tour
    from tournament.clubs.models import Club
    from tournament.tours.models import Team

    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"), by=users["organiser"], stages=2, resolved=2
    )
    rally = create_rally(clients["organiser"], stages=[{"name": "SS1 Pena"}])
    # Rui fastest, then Ana, then Sara (drivers in entry order Ana, Rui, Sara).
    response = submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 290, 310))
    assert response.status_code == 202, response.content
    items = [{"kind": "tour", "id": tour.pk}, {"kind": "rally", "id": rally["id"]}]
    made = create_season(clients["organiser"], name="All games", points=POINTS, competitions=items)
    assert made.status_code == 201, made.content
    body = clients["anonymous"].get(f"{URL}{made.json()['id']}/standings/").json()
    assert [c["finished"] for c in body["competitions"]] == [True, True]
    # The tour's final Tour Points ranks, as its own standings give them.
    final = clients["anonymous"].get(f"/api/tours/{tour.pk}/standings/").json()
    player_of = dict(Team.objects.filter(tour=tour).values_list("pk", "club_player__name"))
    tour_rank = {player_of[r["team"]]: r["rank"] for r in final["tour_points"]}
    rally_rank = {"Rui": 1, "Ana": 2, "Sara": 3}
    got = {p["name"]: (p["points"], p["results"]) for p in body["players"]}
    expected = {
        name: (
            sum(POINTS[r - 1] for r in (tour_rank.get(name), rally_rank.get(name)) if r),
            [tour_rank.get(name), rally_rank.get(name)],
        )
        for name in {*tour_rank, *rally_rank}
    }
    assert got == expected
    assert sorted(tour_rank.values()) == [1, 2, 3] and set(tour_rank) == {"Ana", "Rui", "Gil"}


def test_merged_players_keep_their_best_rank_and_deleted_competitions_stop_counting(clients):
    spring = league(clients, "Spring", ["Ana", "Rui", "Eva"])
    summer = league(clients, "Summer", ["Eva", "Rui", "Ana"])
    items = [item("league", spring), item("league", summer)]
    made = create_season(clients["organiser"], name="2026", points=POINTS, competitions=items)
    url = f"{URL}{made.json()['id']}/standings/"
    ids = {d["name"]: d["player_id"] for d in spring["drivers"]}
    # Rui was Ana all along: her entries are 1st and 2nd in Spring, 2nd and 3rd in Summer.
    merge = f"/api/clubs/velo-lisboa/players/{ids['Rui']}/merge/"
    response = clients["organiser"].post(merge, {"into": ids["Ana"]}, format="json")
    assert response.status_code == 200, response.content
    body = clients["anonymous"].get(url).json()
    assert _rows(body) == [(1, "Ana", 18, [1, 2]), (2, "Eva", 16, [3, 1])]
    from tournament.leagues.models import League

    League.objects.filter(pk=summer["id"]).delete()
    body = clients["anonymous"].get(url).json()
    assert [c["id"] for c in body["competitions"]] == [spring["id"]]
    assert _rows(body) == [(1, "Ana", 10, [1]), (2, "Eva", 6, [3])]
