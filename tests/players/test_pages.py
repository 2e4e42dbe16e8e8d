"""Player pages: the record per reader, the merge action, a constant number of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.players import builders
from tournament.clubs.models import Club
from tournament.players.models import Player
from tournament.rallies.models import Driver, Rally


def _rallies(club: Club, ana: Player, count: int, public: bool = True) -> None:
    for n in range(count):
        rally = Rally.objects.create(club=club, name=f"Rally {n} {public}", public=public)
        Driver.objects.create(rally=rally, order=1, name="Ana", club_player=ana)


@pytest.fixture
def ana(users: dict[str, Any]) -> Player:
    club = Club.objects.get(slug="velo-lisboa")
    player = Player.objects.create(club=club, name="Ana")
    _rallies(club, player, 1)
    _rallies(club, player, 1, public=False)
    return player


@pytest.mark.parametrize(
    ("role", "shown"), [("anonymous", 1), ("outsider", 1), ("scorekeeper", 2), ("organiser", 2)]
)
def test_the_player_page_shows_what_the_reader_may_see(
    users: dict[str, Any], ana: Player, role: str, shown: int
) -> None:
    client = Client()
    if role != "anonymous":
        client.force_login(users[role])
    html = client.get(f"/clubs/velo-lisboa/players/{ana.pk}/").content.decode()
    assert html.count('data-kind="rally"') == shown
    assert ("Rally 0 False" in html) is (shown == 2)
    assert ('id="merge-player"' in html) is False  # no other player to merge into yet
    listing = client.get("/clubs/velo-lisboa/players/").content.decode()
    assert f"/clubs/velo-lisboa/players/{ana.pk}/" in listing


def test_an_organiser_merges_on_the_page(users: dict[str, Any], ana: Player) -> None:
    alias = Player.objects.create(club=ana.club, name="Ana S.")
    _rallies(ana.club, alias, 1)
    client = Client()
    client.force_login(users["scorekeeper"])
    url = f"/clubs/velo-lisboa/players/{alias.pk}/"
    assert client.post(url, {"into": ana.pk}).status_code == 403
    client.force_login(users["organiser"])
    assert 'id="merge-player"' in client.get(url).content.decode()
    response = client.post(url, {"into": ana.pk})
    assert response.status_code == 302 and response["Location"].endswith(f"/{ana.pk}/")
    assert Driver.objects.filter(club_player=ana).count() == 3
    assert not Player.objects.filter(pk=alias.pk).exists()


@pytest.mark.parametrize("count", [2, 20])
def test_the_player_page_queries_do_not_grow(
    users: dict[str, Any], ana: Player, count: int, django_assert_max_num_queries: Any
) -> None:
    """Every game, a head-to-head and both charts: the same bound for 2 and 20 competitions."""
    rui = Player.objects.create(club=ana.club, name="Rui")
    made = 0
    while made < count:
        kind = made % 3
        if kind == 0:
            builders.tour(ana.club, f"T{made}", [ana, rui], [[0, 1], [1, 0]], yellow=[0, 1])
        elif kind == 1:
            builders.championship(ana.club, f"C{made}", [ana, rui], [[1, 0]])
        else:
            builders.rally(ana.club, f"R{made}", [ana, rui], [[300, 310]])
        made += 1
    client = Client()
    client.force_login(users["organiser"])
    with django_assert_max_num_queries(22):  # 21 with every game but leagues (measured)
        html = client.get(f"/clubs/velo-lisboa/players/{ana.pk}/?vs={rui.pk}").content.decode()
    with django_assert_max_num_queries(20):  # 19 measured
        assert client.get(f"/api/clubs/velo-lisboa/players/{ana.pk}/").status_code == 200
    with django_assert_max_num_queries(18):
        versus = client.get(f"/api/clubs/velo-lisboa/players/{ana.pk}/head-to-head/{rui.pk}/")
    assert versus.json()["total"]["competitions"] == count
    rallies = sum(1 for m in range(count) if m % 3 == 2)
    assert html.count('data-kind="rally"') == 2 + rallies  # the fixture's two and these
    assert html.count("<tr data-best=") == 3
    legend = html.split('id="chart-versus-legend"')[1].split("</ol>")[0]
    assert legend.count("<li>") == count
