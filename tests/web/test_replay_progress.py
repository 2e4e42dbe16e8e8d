"""Progress views of simulated Formula D races and Rallyman stages: rows, corners, per-turn data."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.formula_d.circuit import load_circuit
from games.formula_d.track import Track
from games.rallyman import build_track, load_layout
from tests.championships.helpers import create as create_championship
from tests.rallies.helpers import create_rally
from tournament.web.replay_progress import formula_d_progress, rallyman_progress

pytestmark = pytest.mark.django_db


def _data(html: str) -> dict[str, Any]:
    match = re.search(
        r'<script id="progress-replay-data" type="application/json">(.*?)</script>', html
    )
    assert match is not None
    data: dict[str, Any] = json.loads(match[1])
    return data


def _simulated(clients: Any, api: str, page: str) -> tuple[str, dict[str, Any]]:
    assert clients["scorekeeper"].post(f"{api}/simulate/").status_code == 202
    replay = clients["anonymous"].get(f"{api}/replay/").json()
    response = Client().get(page)
    assert response.status_code == 200
    return response.content.decode(), replay


def _lap_share(track: Track, space: dict[str, Any]) -> float:
    """Percent of the lap from the finish line to the far edge of ``space`` (average spaces)."""
    circuit = track.circuit
    seg = [s.id for s in circuit.segments].index(space["segment"])
    lane = circuit.lanes.index(space["lane"])
    line = circuit.finish_line
    lengths = circuit.segments[line.segment].lengths
    share = sum(a / n for a, n in zip(line.after, lengths, strict=True)) / len(lengths)
    zero = track.nominal_base[line.segment] + track.nominal[line.segment] * share
    d = track.nominal_coord((seg, lane, space["space"] - 1))
    return 100 * ((d - zero) % track.nominal_lap) / track.nominal_lap


def test_a_simulated_race_page_plays_every_car_along_the_lap(clients: Any) -> None:
    champ = create_championship(clients["organiser"])
    html, replay = _simulated(
        clients,
        f"/api/championships/{champ['id']}/races/1",
        f"/championships/{champ['id']}/races/1/",
    )
    assert 'data-replay="progress"' in html and 'data-act="play"' in html
    assert "<span>Turn</span>" in html  # the slider counts turns here, rounds on the board
    assert f'max="{replay["rounds"]}"' in html
    assert html.count('<g class="car ') == len(replay["grid"]) == 3
    assert html.count('<rect class="pg-corner"') == 10  # Monaco's ten corners
    assert "C5 Loews hairpin: 3 stops" in html  # the text alternative names corners and stops
    data = _data(html)
    assert len(data["rounds"]) == replay["rounds"] + 1
    track = Track(load_circuit("monaco"))
    grid = replay["grid"]
    for move in replay["moves"]:
        path = (move.get("legs") or [move])[-1]["path"]
        round_ = data["rounds"][move["round"]]
        i = grid.index(move["driver"])
        if round_["st"][i] != "fin" and path[-1]["segment"] != "PIT":
            assert round_["at"][i] == pytest.approx(_lap_share(track, path[-1]), abs=0.06)
    finished = {r["driver"] for r in replay["results"] if r["status"] == "finished"}
    assert [data["rounds"][-1]["st"][grid.index(d)] for d in sorted(finished)] == ["fin"] * len(
        finished
    )


def test_a_simulated_rally_stage_page_plays_every_car_along_the_stage(clients: Any) -> None:
    rally = create_rally(clients["organiser"])
    html, replay = _simulated(
        clients, f"/api/rallies/{rally['id']}/stages/1", f"/rallies/{rally['id']}/stages/1/"
    )
    assert 'data-replay="progress"' in html and "Every turn in words" in html
    assert html.count('<g class="car ') == 3
    data = _data(html)
    track = build_track(load_layout("gravel-flats"))
    cars = [r["car"] for r in replay["results"]]
    assert data["rounds"][0]["st"] == ["wait"] * 3  # the staggered start (RM-4)
    for turn in replay["turns"]:
        at = data["rounds"][turn["round"]]["at"][cars.index(turn["car"])]
        expected = 100 * track.progress[track.labels.index(turn["to"])] / track.length
        assert at == pytest.approx(min(expected, 100.0), abs=0.06)
    states = data["rounds"][-1]["st"]
    for result, state in zip(replay["results"], states, strict=True):
        assert state == ("fin" if result["status"] == "finished" else "out")


def test_unreadable_logs_draw_nothing() -> None:
    assert formula_d_progress(None, {}) is None
    assert (
        formula_d_progress({"moves": [], "circuit": "nowhere", "grid": [], "laps": 1}, {}) is None
    )
    assert rallyman_progress({"turns": []}, None, {}) is None
    assert rallyman_progress({"turns": [], "results": []}, "no-such-stage", {}) is None
