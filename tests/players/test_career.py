"""Best results and head-to-head on hand-made data (tests/players/conftest.py), page and API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournament.players.career import best_results
from tournament.players.history import club_history

pytestmark = pytest.mark.django_db


def _versus(client: Client, a: Any, b: Any) -> Any:
    return client.get(f"/api/clubs/velo-lisboa/players/{a.pk}/head-to-head/{b.pk}/")


def test_head_to_head_counts_per_game_for_the_public(history: dict[str, Any]) -> None:
    body = _versus(Client(), history["ana"], history["rui"]).json()
    assert body["player"]["name"] == "Ana" and body["other"]["name"] == "Rui"
    games = {g["kind"]: g for g in body["games"]}
    # Volta: Ana 1st vs Rui 2nd; stages 1 and 3 Ana ahead, stage 2 Rui.
    assert games["tour"] == {
        "kind": "tour",
        "competitions": 1,
        "ahead": 1,
        "behind": 0,
        "events": 3,
        "events_ahead": 2,
        "events_behind": 1,
    }
    # Taça: Rui ahead in both races and the standings.
    assert (games["championship"]["behind"], games["championship"]["events_behind"]) == (1, 2)
    # Serra: one stage each, Ana wins the rally.
    assert (games["rally"]["ahead"], games["rally"]["events_ahead"]) == (1, 1)
    assert body["total"] == {
        "competitions": 3,
        "ahead": 2,
        "behind": 1,
        "events": 7,
        "events_ahead": 3,
        "events_behind": 4,
    }
    assert "Clube" not in {c["name"] for c in body["competitions"]}  # private


def test_a_member_also_counts_the_private_tour(
    history: dict[str, Any], users: dict[str, Any]
) -> None:
    client = Client()
    client.force_login(users["scorekeeper"])
    body = _versus(client, history["rui"], history["ana"]).json()
    assert body["total"] == {
        "competitions": 4,
        "ahead": 1,
        "behind": 3,
        "events": 8,
        "events_ahead": 4,
        "events_behind": 4,
    }
    clube = next(c for c in body["competitions"] if c["name"] == "Clube")
    assert (clube["rank"], clube["other_rank"], clube["ahead"]) == (2, 1, "other")


def test_head_to_head_refuses_the_same_player_and_strangers(history: dict[str, Any]) -> None:
    client = Client()
    same = _versus(client, history["ana"], history["ana"])
    assert same.status_code == 400 and "other" in same.json()
    url = f"/api/clubs/velo-lisboa/players/{history['ana'].pk}/head-to-head/999999/"
    assert client.get(url).status_code == 404
    page = client.get(f"/clubs/velo-lisboa/players/{history['ana'].pk}/?vs=abc")
    assert page.status_code == 400 and 'id="versus-error"' in page.content.decode()


def test_best_results_per_game(history: dict[str, Any]) -> None:
    from django.contrib.auth.models import AnonymousUser

    rows = club_history(history["club"], AnonymousUser(), players=[history["ana"].pk])
    best = {b.kind: b for b in best_results(rows, history["ana"].pk)}
    assert list(best) == ["tour", "championship", "rally"]
    assert (best["tour"].rank, best["tour"].event, best["tour"].event_count) == (1, 1, 2)
    # 2nd in Taça and (so far) in Inverno; 2nd in all three races.
    champ = best["championship"]
    assert (champ.rank, champ.rank_count, champ.event, champ.event_count) == (2, 2, 2, 3)
    assert (best["rally"].rank, best["rally"].event, best["rally"].event_count) == (1, 1, 1)


def test_the_page_shows_head_to_head_best_results_and_charts(history: dict[str, Any]) -> None:
    ana, rui = history["ana"], history["rui"]
    html = Client().get(f"/clubs/velo-lisboa/players/{ana.pk}/?vs={rui.pk}").content.decode()
    assert 'id="player-best"' in html and 'id="versus-games"' in html
    assert "met in 3 competitions" in html
    assert 'id="player-ranks-chart"' in html and 'id="player-versus-chart"' in html
    assert html.count('id="player-ranks-n-chart"') == 1  # the narrow layout too
    legend = html.split('id="chart-ranks-legend"')[1].split("</ol>")[0]
    assert legend.count("<li>") == 4  # Volta, Taça, Serra, Inverno (Clube is private)
    assert f'<option value="{rui.pk}" selected>' in html


def test_the_record_api_gives_best_results_per_game(history: dict[str, Any]) -> None:
    body = Client().get(f"/api/clubs/velo-lisboa/players/{history['rui'].pk}/").json()
    best = {b["kind"]: b for b in body["best"]}
    # Rui: 2nd in Volta (best stage: 1st on stage 2), won Taça (both races), 2nd in Serra.
    assert best["tour"] == {
        "kind": "tour",
        "competitions": 1,
        "rank": 2,
        "rank_count": 1,
        "event": 1,
        "event_count": 1,
    }
    assert (best["championship"]["rank"], best["championship"]["event_count"]) == (1, 2)
    assert (best["rally"]["rank"], best["rally"]["event"]) == (2, 1)
    assert len(body["competitions"]) == 3  # Clube is private
