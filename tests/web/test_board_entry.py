"""Entering a Grand Tour stage from the board (issue #15 item 6): GT-2.1-2.3 with the tour's
Timing tile, by the code the engine reads the tile with; the page previews and submits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.flamme_rouge import RiderEntry, StageSetup, TeamEntry, simulate_stage
from scoring.grand_tour.timing import Crossing, board_issues, board_times, tile_seconds
from tests.conftest import riders_of, tour_payload
from tournament.competitions.models import Status
from tournament.tours.models import Stage

pytestmark = pytest.mark.django_db

FLAT = (50, 40, 30, 20, 10, 0)


def test_the_rules_example_fr_50() -> None:
    """FR-50: round r1 A is 5 past, B 4 past (one pack), C 1 past; then D 6 past, E 5 past."""
    a, b, c, d, e = 1, 2, 3, 4, 5
    crossings = [
        Crossing(c, 1, 1),
        Crossing(b, 1, 5, place=2),
        Crossing(a, 1, 5, place=1),
        Crossing(e, 2, 6, place=2),
        Crossing(d, 2, 6, place=1),
    ]
    assert board_issues(crossings, [a, b, c, d, e], FLAT) == []
    times = [(t.rider, t.position, t.minutes, t.seconds) for t in board_times(crossings, FLAT)]
    assert times == [(a, 1, 0, 10), (b, 2, 0, 10), (c, 3, 0, 50), (d, 4, 1, 0), (e, 5, 1, 0)]


def test_a_round_without_crossers_still_costs_a_minute() -> None:
    crossings = [Crossing(1, 1, 3), Crossing(2, 3, 1)]  # nobody crossed in round 2
    assert [(t.minutes, t.seconds) for t in board_times(crossings, FLAT)] == [(0, 30), (2, 50)]
    assert tile_seconds((40, 30, 20, 10, 0), 5) == 0


def _engine_crossings(outcome: Any) -> tuple[list[Crossing], set[int]]:
    """What a scorekeeper reads off the board, from the engine's riders (dummies included):
    the round (from the first crossing), the pack front (consecutive squares of that round's
    crossers, GT-2.1) and the place among the tour riders of the pack."""
    r1 = min(r.crossing_round for r in outcome.riders)
    fronts: dict[tuple[int, int], int] = {}
    for rider in outcome.riders:
        squares = {
            x.squares_past for x in outcome.riders if x.crossing_round == rider.crossing_round
        }
        front = rider.squares_past
        while front + 1 in squares:
            front += 1
        fronts[(rider.crossing_round, rider.squares_past)] = front
    crossings, places = [], {}
    for rider in outcome.riders:  # finishing order (FR-72)
        if rider.is_dummy:
            continue
        front = fronts[(rider.crossing_round, rider.squares_past)]
        key = (rider.crossing_round, front)
        places[key] = places.get(key, 0) + 1
        crossings.append(
            Crossing(rider.rider_id, rider.crossing_round - r1 + 1, front, places[key])
        )
    packs = {(c.round, c.front) for c in crossings if places[(c.round + r1 - 1, c.front)] > 1}
    return crossings, packs


@pytest.mark.parametrize("dummies", ["none", "both"])
def test_board_times_equal_the_engines_times(dummies: str) -> None:
    teams = tuple(
        TeamEntry(t, (RiderEntry(10 * t + 1, "rouleur"), RiderEntry(10 * t + 2, "sprinteur")))
        for t in (1, 2, 3)
    )
    rounds_seen, packs_seen = set(), 0
    for seed in range(12):
        course = "abcdefghijklmnopqrstu" if seed % 2 else "abcfimetKGLHJsdopRQNU"
        setup = StageSetup(course=course, teams=teams, dummy_teams=dummies, number=seed + 1)
        outcome = simulate_stage(setup, seed)
        crossings, packs = _engine_crossings(outcome)
        # The stage's side of the tile: the ascent side for a course ending uphill (``U``).
        rules = setup.rules
        values = tuple(rules.timing_ascent if course.endswith("U") else rules.timing_flat)
        riders = [r["rider"] for r in outcome.submission()]
        assert board_issues(crossings, riders, values, dummies=dummies != "none") == []
        got = [(t.rider, t.position, t.minutes, t.seconds) for t in board_times(crossings, values)]
        expected = [
            (r["rider"], r["position"], r["minutes"], r["seconds"]) for r in outcome.submission()
        ]
        assert got == expected, seed
        rounds_seen |= {c.round for c in crossings}
        packs_seen += len(packs)
    # The comparison covered later rounds (Time tokens) and packs of several tour riders.
    assert max(rounds_seen) >= 2 and packs_seen > 0


def test_board_issues_name_each_problem() -> None:
    riders = [1, 2, 3]
    crossings = [Crossing(1, 1, 7), Crossing(1, 1, 2), Crossing(9, 0, 1, place=0)]
    issues = board_issues(crossings, riders, FLAT)
    assert sorted((i.code, -1 if i.index is None else i.index, i.field or "") for i in issues) == [
        ("board_front", 0, "front"),
        ("board_missing", -1, ""),
        ("board_missing", -1, ""),
        ("board_place", 2, "place"),
        ("board_repeated_rider", 0, "rider"),
        ("board_repeated_rider", 1, "rider"),
        ("board_round", 2, "round"),
        ("board_unknown_rider", 2, "rider"),
    ]
    assert sorted(i.params["rider"] for i in issues if i.code == "board_missing") == [2, 3]
    taken = [Crossing(1, 1, 3, place=1), Crossing(2, 1, 3, place=1), Crossing(3, 1, 1)]
    assert [i.code for i in board_issues(taken, riders, FLAT)] == ["board_place_taken"] * 2
    late = [Crossing(1, 2, 3), Crossing(2, 2, 2), Crossing(3, 3, 1)]
    assert [i.code for i in board_issues(late, riders, FLAT)] == ["board_no_first_round"]
    assert board_issues(late, riders, FLAT, dummies=True) == []  # dummies crossed first


# --- the page ---------------------------------------------------------------------------------


@pytest.fixture
def tour(clients: Any) -> dict[str, Any]:
    response = clients["organiser"].post("/api/tours/", tour_payload(), format="json")
    assert response.status_code == 201
    detail: dict[str, Any] = response.json()
    return detail


def _board(tour: dict[str, Any], cards: list[tuple[int, int, int | None]], **extra: Any) -> dict:
    """The board form: per rider in entry order (round, front, place)."""
    riders = riders_of(tour)
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": len(riders),
        "form-INITIAL_FORMS": len(riders),
        "version": 0,
        **extra,
    }
    for i, (rider, (rnd, front, place)) in enumerate(zip(riders, cards, strict=True)):
        data[f"form-{i}-rider"] = rider["id"]
        data[f"form-{i}-round"] = rnd
        data[f"form-{i}-front"] = front
        data[f"form-{i}-place"] = "" if place is None else place
        data[f"form-{i}-sprint_points"] = 1 if i == 0 else ""
        data[f"form-{i}-exhaustion"] = 2
    return data


#: FR-50's shape with six riders: round 1 a pack of two (front 5) and one rider at 1; round 2
#: a pack of three at 6 (one minute each).
CARDS = [(1, 5, 2), (1, 5, 1), (1, 1, None), (2, 6, 1), (2, 6, 3), (2, 6, 2)]
EXPECTED = [(1, 0, 10), (0, 0, 10), (2, 0, 50), (3, 1, 0), (5, 1, 0), (4, 1, 0)]  # entry order


def _url(tour: dict[str, Any], number: int = 1) -> str:
    return f"/tours/{tour['id']}/stages/{number}/board/"


def test_the_page_for_each_role(web: dict[str, Client], tour: dict[str, Any], clients: Any) -> None:
    page = web["scorekeeper"].get(_url(tour))
    assert page.status_code == 200
    body = page.content.decode()
    assert body.count('<fieldset class="rider') == 6
    assert '<option value="5">5 · 0:10</option>' in body  # the flat tile beside its squares
    assert web["organiser"].get(_url(tour)).status_code == 200
    assert web["outsider"].get(_url(tour)).status_code == 403
    assert web["bystander"].post(_url(tour), _board(tour, CARDS)).status_code == 403
    assert web["anonymous"].get(_url(tour))["Location"].startswith("/login/")
    assert web["scorekeeper"].get(_url(tour, 9)).status_code == 404
    stage = web["scorekeeper"].get(f"/tours/{tour['id']}/stages/1/").content.decode()
    assert f'href="{_url(tour)}"' in stage and "Enter from the board" in stage
    assert _url(tour) not in web["anonymous"].get(f"/tours/{tour['id']}/stages/1/").content.decode()


def test_preview_shows_the_times_and_stores_nothing(
    web: dict[str, Client], tour: dict[str, Any]
) -> None:
    response = web["scorekeeper"].post(_url(tour), _board(tour, CARDS, action="preview"))
    body = response.content.decode()
    times = [int(t) for t in re.findall(r'data-time="(\d+)"', body)]
    assert times == [10, 10, 50, 60, 60, 60]
    assert Stage.objects.get(competition_id=tour["id"], number=1).version == 0
    fragment = (
        web["scorekeeper"]
        .post(_url(tour), _board(tour, CARDS, action="preview"), HTTP_X_PODIUM_PREVIEW="1")
        .content.decode()
    )
    assert "<html" not in fragment and fragment.count("data-time=") == 6


def test_submit_stores_ordinary_results(
    web: dict[str, Client], tour: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = web["scorekeeper"].post(_url(tour), _board(tour, CARDS, action="submit"))
    assert response.status_code == 302
    assert response["Location"] == f"/tours/{tour['id']}/stages/1/"
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    assert stage.status == Status.RESOLVED and stage.source == "submitted"
    rows = {row["rider"]: row for row in stage.results}
    for rider, (position, minutes, seconds) in zip(riders_of(tour), EXPECTED, strict=True):
        row = rows[rider["id"]]
        assert (row["position"] - 1, row["minutes"], row["seconds"]) == (position, minutes, seconds)
        assert row["exhaustion"] == 2
    assert rows[riders_of(tour)[0]["id"]]["sprint_points"] == 1
    # Read back: the board shows what was entered.
    again = web["scorekeeper"].get(_url(tour)).content.decode()
    assert again.count('value="6" selected') == 3 and again.count('value="2" selected') >= 3


def test_bad_boards_store_nothing_and_say_where(
    web: dict[str, Client], tour: dict[str, Any]
) -> None:
    blank = list(CARDS)
    blank[2] = ("", "", None)  # type: ignore[assignment]
    body = web["scorekeeper"].post(_url(tour), _board(tour, blank, action="submit")).content
    assert b"This field is required." in body and b'aria-invalid="true"' in body
    taken = list(CARDS)
    taken[1] = (1, 5, 2)  # two riders of one pack in place 2
    body = web["scorekeeper"].post(_url(tour), _board(tour, taken, action="submit")).content
    assert b"Another rider of this pack (same round, same foremost square) has place 2." in body
    late = [(r + 1, f, p) for r, f, p in CARDS]
    body = web["scorekeeper"].post(_url(tour), _board(tour, late, action="submit")).content
    assert b"Round 1 is the first round in which a rider crossed" in body
    assert Stage.objects.get(competition_id=tour["id"], number=1).version == 0


def test_the_services_refusals_come_back(web: dict[str, Client], tour: dict[str, Any]) -> None:
    """Stage 3 (flat) before stage 1: the same 409 as the API, shown above the cards."""
    body = web["scorekeeper"].post(_url(tour, 3), _board(tour, CARDS, action="submit")).content
    assert b"Stage 1 has no results yet; results are accepted in order." in body
    assert Stage.objects.get(competition_id=tour["id"], number=3).version == 0
    # Stage 2 finishes uphill: its tile has five squares, so a front at 6 is refused.
    body = web["scorekeeper"].post(_url(tour, 2), _board(tour, CARDS, action="preview")).content
    text = body.decode()
    assert '<option value="6">6 · ' not in text and "6 is not one of the available" in text
