"""A player's record: rank, titles, event wins and jerseys from resolved results."""

from __future__ import annotations

from typing import Any

from tests.api import helpers as tours
from tests.rallies import helpers as rallies
from tournament.players.models import Player

PLAYERS = "/api/clubs/velo-lisboa/players/"


def _record(client: Any, key: str) -> dict[str, Any]:
    player = Player.objects.get(key=key)
    response = client.get(f"{PLAYERS}{player.pk}/")
    assert response.status_code == 200, response.content
    return {c["kind"]: c for c in response.json()["competitions"]}


def test_a_finished_rally_gives_rank_title_and_wins(clients: dict[str, Any]):
    organiser = clients["organiser"]
    rally = rallies.create_rally(
        organiser, drivers=[{"name": "Ana"}, {"name": "Rui"}], stages=[{"name": "SS1"}]
    )
    assert (
        rallies.submit(organiser, rally["id"], 1, rallies.sheet(rally, 300, 280)).status_code == 202
    )
    rui, ana = _record(organiser, "rui")["rally"], _record(organiser, "ana")["rally"]
    assert rui["finished"] is True and rui["rank"] == 1 and rui["titles"] == ["overall"]
    assert rui["event_wins"] == 1 and rui["entry"] == "Rui"
    assert ana["rank"] == 2 and ana["titles"] == [] and ana["event_wins"] == 0


def test_a_tour_gives_tour_points_rank_stage_wins_and_jerseys(clients: dict[str, Any]):
    organiser = clients["organiser"]
    detail = tours.create(organiser, tours.payload(stages=2, team_count=3))
    rows = tours.rows_in_order(detail, times=[0, 0, 10, 10, 20, 20])
    assert tours.submit(organiser, detail["id"], 1, rows).status_code == 202
    red = _record(organiser, "red")["tour"]
    assert red["finished"] is False and red["titles"] == [] and red["event_wins"] == 1
    assert red["rank"] == 1
    assert red["jerseys"].get("yellow") == 1
    assert tours.submit(organiser, detail["id"], 2, rows).status_code == 202
    red = _record(organiser, "red")["tour"]
    assert red["finished"] is True and red["event_wins"] == 2
    assert "tour_points" in red["titles"] and "yellow" in red["titles"]
    assert red["jerseys"]["yellow"] == 2
    blue = _record(organiser, "blue")["tour"]
    assert blue["rank"] == 2 and blue["event_wins"] == 0 and "tour_points" not in blue["titles"]
