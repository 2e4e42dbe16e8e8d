"""The hall of fame on hand-made data (tests/players/conftest.py): titles, records, holders,
per reader (a private competition counts only for the club's members), page and API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.players import builders

pytestmark = pytest.mark.django_db
API = "/api/clubs/velo-lisboa/hall-of-fame/"
PAGE = "/clubs/velo-lisboa/hall-of-fame/"


def _client(users: dict[str, Any], role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(users[role])
    return client


def _records(body: dict[str, Any]) -> dict[str, tuple[int, list[tuple[str, str]]]]:
    return {
        f"{r['key']}-{r['kind']}": (
            r["figure"],
            [(h["name"], h["competition"]) for h in r["holders"]],
        )
        for r in body["records"]
    }


def test_titles_per_player_and_game(history: dict[str, Any]) -> None:
    titles = Client().get(API).json()["titles"]
    assert [(t["name"], t["total"]) for t in titles] == [("Ana", 2), ("Rui", 2), ("Gil", 1)]
    ana, rui, gil = titles
    assert ana["games"] == {"tour": 1, "championship": 0, "league": 0, "rally": 1}
    assert ana["jerseys"] == 0
    assert rui["games"]["championship"] == 1 and rui["jerseys"] == 1  # yellow after stage 3
    assert gil["jerseys"] == 1 and sum(gil["games"].values()) == 0  # green


def test_records_of_the_public_history(history: dict[str, Any]) -> None:
    records = _records(Client().get(API).json())
    assert records == {
        "event_wins-tour": (2, [("Ana", "Volta")]),
        "margin-tour": (4, [("Ana", "Volta")]),  # 13 − 9 Tour Points
        "lead_run-tour": (2, [("Ana", "Volta")]),  # yellow after stages 1 and 2
        "jersey_stages-tour": (3, [("Gil", "Volta")]),  # green after every stage
        "event_wins-championship": (2, [("Rui", "Taça")]),
        "margin-championship": (8, [("Rui", "Taça")]),  # 20 − 12
        "lead_run-championship": (2, [("Rui", "Taça")]),
        "event_wins-rally": (1, [("Ana", "Serra"), ("Rui", "Serra")]),
        "margin-rally": (10, [("Ana", "Serra")]),  # 580 s against 590 s
        "lead_run-rally": (1, [("Rui", "Serra"), ("Ana", "Serra")]),
    }


def test_a_longer_private_run_counts_only_for_members(
    history: dict[str, Any], users: dict[str, Any]
) -> None:
    club, rui, gil = history["club"], history["rui"], history["gil"]
    builders.tour(club, "Secreta", [rui, gil], [[0, 1]] * 3, yellow=[0, 0, 0], public=False)
    public = _records(Client().get(API).json())
    member = _records(_client(users, "scorekeeper").get(API).json())
    assert public["lead_run-tour"] == (2, [("Ana", "Volta")])
    assert member["lead_run-tour"] == (3, [("Rui", "Secreta")])
    assert member["event_wins-tour"] == (3, [("Rui", "Secreta")])


@pytest.mark.parametrize(
    ("role", "private"),
    [("anonymous", False), ("outsider", False), ("scorekeeper", True), ("organiser", True)],
)
def test_the_page_and_holders_per_reader(
    history: dict[str, Any], users: dict[str, Any], role: str, private: bool
) -> None:
    client = _client(users, role)
    holders = client.get(API).json()["holders"]
    shown = {h["name"]: [(t["title"], t["name"]) for t in h["titles"]] for h in holders}
    expected = {"Inverno": [("leader", "Gil")]}
    if private:
        expected["Clube"] = [("leader", "Ana"), ("yellow", "Ana")]
    assert shown == expected
    html = client.get(PAGE).content.decode()
    assert ("Clube" in html) is private
    assert 'data-record="margin-rally"' in html and "0:10" in html
    assert html.count("<tr data-player=") == 3
    club_page = client.get("/clubs/velo-lisboa/").content.decode()
    assert PAGE in club_page


def test_an_empty_club_has_an_empty_hall(users: dict[str, Any]) -> None:
    assert Client().get("/api/clubs/porto/hall-of-fame/").json() == {
        "titles": [],
        "records": [],
        "holders": [],
    }
    assert Client().get("/clubs/porto/hall-of-fame/").status_code == 200
    assert Client().get("/api/clubs/nowhere/hall-of-fame/").status_code == 404


@pytest.mark.parametrize("count", [2, 20])
def test_the_hall_of_fame_queries_do_not_grow(
    history: dict[str, Any], users: dict[str, Any], count: int, django_assert_max_num_queries: Any
) -> None:
    club, ana, rui = history["club"], history["ana"], history["rui"]
    for n in range(count // 2):
        builders.tour(club, f"T{n}", [ana, rui], [[n % 2, 1 - n % 2]] * 2, yellow=[0, 1])
        builders.championship(club, f"C{n}", [ana, rui], [[0, 1]])
    client = _client(users, "organiser")
    with django_assert_max_num_queries(20):  # 18 measured
        html = client.get(PAGE).content.decode()
    assert 'data-record="event_wins-tour"' in html
    with django_assert_max_num_queries(20):
        body = client.get(API).json()
    assert body["titles"][0]["total"] >= count // 2
