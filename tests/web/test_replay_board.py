"""The board replay of a simulated Flamme Rouge stage: course, tokens, per-round positions."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client

from scoring.clock import clock
from tournament.tours.models import Stage, StageResultVersion
from tournament.web.replay import Square, parse_profile

pytestmark = pytest.mark.django_db


def _page(clients: dict[str, Any], tour: dict[str, Any], number: int) -> tuple[str, Any]:
    for n in range(1, number + 1):  # a stage is simulated from the standings before it
        response = clients["scorekeeper"].post(f"/api/tours/{tour['id']}/stages/{n}/simulate/")
        assert response.status_code == 202
    page = Client().get(f"/tours/{tour['id']}/stages/{number}/")
    assert page.status_code == 200
    stage = Stage.objects.get(competition_id=tour["id"], number=number)
    replay = StageResultVersion.objects.get(event=stage, number=stage.version).replay
    return page.content.decode(), replay


def _board(html: str) -> ET.Element:
    match = re.search(r'<div class="fr-board"[^>]*>(.*?)</div>', html, re.S)
    assert match is not None
    return ET.fromstring(f"<board>{match[1]}</board>")


def _data(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="fr-replay-data" type="application/json">(.*?)</script>', html)
    assert match is not None
    data: dict[str, Any] = json.loads(match[1])
    return data


def _end_of_round(replay: dict[str, Any]) -> list[dict[int, int]]:
    """Every rider's square after each round, straight from the log (to + slip, FR-38)."""
    log = replay["log"]
    col = {name: i for i, name in enumerate(log["columns"])}
    out = [{rider: square for rider, square, _lane in log["grid"]}]
    for entry in log["rounds"]:
        out.append({r[col["rider"]]: r[col["to"]] + r[col["slip"]] for r in entry["riders"]})
    return out


def test_the_board_has_every_square_and_every_position_of_the_log(clients: Any, tour: Any) -> None:
    html, replay = _page(clients, tour, 2)  # the mountain stage, with a token stack
    board = _board(html)
    header, log = replay["header"], replay["log"]
    squares = [u for u in board.iter("use") if re.match(r"t-[FUDSC]", u.get("class", ""))]
    assert len(squares) == header["course"]["length"] == 79
    assert sum("t-U" in u.get("class", "") for u in squares) == 7 + 12 + 5  # 7U, 12U, 5Uf
    assert sum("r-f" in u.get("class", "") for u in squares) == 5
    blocks = [svg for svg in board if svg.get("class") == "fr-block"]
    assert [int(b.get("data-first", 0)) for b in blocks] == list(range(1, 80, 10))
    assert len([r for r in board.iter("rect") if r.get("class") == "line-finish"]) == 1
    assert any("Token stack m1" in (t.text or "") for t in board.iter("title"))
    # The tokens stand on the grid; every round of the data equals the log's.
    order = [rider for rider, _square, _lane in log["grid"]]
    tokens = {
        int(g.get("data-r", -1)): g for g in board.iter("g") if g.get("class", "")[:2] == "rd"
    }
    assert len(tokens) == len(order) == len(log["riders"]) == 6  # three teams of two
    for i, (_rider, square, lane) in enumerate(log["grid"]):
        assert (int(tokens[i].get("data-sq", 0)), int(tokens[i].get("data-lane", 0))) == (
            square,
            lane,
        )
    data = _data(html)
    expected = _end_of_round(replay)
    assert len(data["rounds"]) == len(expected) == header["rounds"] + 1
    for number, (round_, squares_of) in enumerate(zip(data["rounds"], expected, strict=True)):
        drawn = {order[i]: round_["at"][2 * i] for i in range(len(order)) if round_["at"][2 * i]}
        assert drawn == squares_of, number
    # Who has crossed, in the finishing order of the results (FR-72), with their stage times.
    names = {r["id"]: r["name"] for t in tour["teams"] for r in t["riders"]}
    assert data["rounds"][-1]["done"] == [
        f"{names[r['rider_id']]} {clock(r['time_s'])}" for r in replay["riders"]
    ]


def test_the_controls_legend_table_and_icons(clients: Any, tour: Any) -> None:
    html, replay = _page(clients, tour, 1)
    rounds = replay["header"]["rounds"]
    for act in ("back", "play", "forward"):
        assert re.search(rf"<button type=\"button\" class=\"button\" data-act=\"{act}\"", html), act
    assert f'type="range" min="0" max="{rounds}"' in html
    assert "podium/replay.js" in html and "podium/replay.css" in html
    assert "<figcaption" in html and "the finish line is after square" in html
    assert 'aria-live="polite"' in html
    # SVG icons with an accessible name instead of emoji that need an emoji font.
    assert "🏁" not in html and "★" not in html and "⇢" not in html
    crossed = re.findall(r'<img class="icon" src="[^"]*/icons/flag\.svg" alt="([^"]+)"', html)
    assert crossed == ["crossed the line"] * 6  # one per rider of the three teams
    # The table still tells the whole story.
    assert html.count('<tr><th scope="row">') == rounds


def test_icons_are_svg_files_with_a_name() -> None:
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "static" / "podium" / "icons"
    icons = sorted(folder.glob("*.svg"))
    assert {p.stem for p in icons} >= {"flag", "star", "slipstream", "exhaustion", "eliminated"}
    for path in icons:
        root = ET.parse(path).getroot()
        title = root.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and title.text, path.name
        assert root.get("role") == "img", path.name


def test_profiles_become_squares() -> None:
    squares = parse_profile("2s 1F3 1Cb 2Uf")
    assert squares == (
        Square(1, "F", 2, "s"),
        Square(2, "F", 2, "s"),
        Square(3, "F", 3, ""),
        Square(4, "C", 2, "b"),
        Square(5, "U", 2, "f"),
        Square(6, "U", 2, "f"),
    )
    with pytest.raises(ValueError, match="not a profile run"):
        parse_profile("5s 3X")
