"""Between stages: start order (RM-6) and what a car brings to the next stage (RM-31, RM-40)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.rallyman.errors import RallymanError
from games.rallyman.layout import load_layout
from games.rallyman.rally import stage_entries, start_order
from games.rallyman.simulate import CarEntry, CarRun, StageRun, simulate_stage
from games.rallyman.track import build_track
from scoring.params import build_rules
from scoring.rally.rules import RallyRules

ENTRY = [11, 12, 13, 14]
STANDINGS = [13, 11, 14]  # after stage 1: 12 is out of the rally (RM-46)


def rules(**data: object) -> RallyRules:
    built, errors = build_rules(RallyRules, data)
    assert not errors
    return built


def test_rm6_first_stage_in_entry_list_order() -> None:
    assert start_order(1, [], ENTRY, RallyRules()) == ENTRY
    assert start_order(1, STANDINGS, ENTRY, RallyRules()) == ENTRY  # no classification yet


def test_rm6_later_stages_leader_first_without_drivers_out() -> None:
    assert start_order(2, STANDINGS, ENTRY, RallyRules()) == [13, 11, 14]
    assert start_order(3, STANDINGS, ENTRY, rules(later_stage_order="entry")) == [11, 13, 14]


def test_rm6_random_orders_shuffle_the_entry_list_order_with_the_given_rng() -> None:
    first = rules(first_stage_order="random")
    order = start_order(1, [], ENTRY, first, rng=random.Random(5))
    expected = list(ENTRY)
    random.Random(5).shuffle(expected)
    assert order == expected and sorted(order) == ENTRY
    later = rules(later_stage_order="random")
    order = start_order(2, STANDINGS, ENTRY, later, rng=random.Random(5))
    expected = [11, 13, 14]  # entry-list order first, as the service does
    random.Random(5).shuffle(expected)
    assert order == expected
    with pytest.raises(RallymanError) as err:
        start_order(1, [], ENTRY, first)
    assert err.value.code == "rng_needed"


@pytest.mark.parametrize(
    ("number", "previous", "entry", "code"),
    [
        (0, [], ENTRY, "bad_stage_number"),
        (1, [], [11, 11], "duplicate_car"),
        (2, [11, 99], ENTRY, "bad_classification"),
        (2, [11, 11], ENTRY, "bad_classification"),
    ],
)
def test_rm6_bad_inputs(number: int, previous: list[int], entry: list[int], code: str) -> None:
    with pytest.raises(RallymanError) as err:
        start_order(number, previous, entry, RallyRules())
    assert err.value.code == code


def car_run(car: int, status: str, carried: int, damage: tuple[int, int, int]) -> CarRun:
    finished = status == "finished"
    return CarRun(
        car,
        status,
        9,
        "1 2 3" if finished else None,
        120,
        0,
        120 if finished else None,
        carried,
        "" if finished else "no_gear_dice",
        damage,
    )


PREVIOUS = StageRun(
    "Lab",
    (car_run(13, "finished", 4, (1, 0, 2)), car_run(11, "retired", 0, (6, 0, 0))),
    20,
    (),
)


def test_rm31_rm40_defaults_start_clean() -> None:
    entries = stage_entries([13, 11, 14], RallyRules(), PREVIOUS)
    assert entries == [CarEntry(13), CarEntry(11), CarEntry(14)]
    assert stage_entries([13], RallyRules(), None) == [CarEntry(13)]


def test_rm31_carried_tokens_and_rm40_damage_without_repair() -> None:
    keep = rules(tokens_carry_over=True, repair_between_stages=False)
    entries = stage_entries([13, 11, 14], keep, PREVIOUS)
    # 11 retired: it restarts repaired (Super Rally ruling); 14 did not run the last stage.
    assert entries == [CarEntry(13, 4, (1, 0, 2)), CarEntry(11), CarEntry(14)]
    only_damage = stage_entries([13], rules(repair_between_stages=False), PREVIOUS)
    assert only_damage == [CarEntry(13, 0, (1, 0, 2))]


def test_stage_entries_read_a_stored_replay() -> None:
    keep = rules(tokens_carry_over=True, repair_between_stages=False)
    replay: dict[str, Any] = PREVIOUS.replay_json()
    assert replay["results"][0]["damage"] == [1, 0, 2]
    assert stage_entries([13, 11], keep, replay) == stage_entries([13, 11], keep, PREVIOUS)
    # An older replay: no damage recorded, tokens in the service's top-level map.
    old = {"results": [{"car": 13, "status": "finished"}], "carried_tokens": {"13": 3}}
    assert stage_entries([13], keep, old) == [CarEntry(13, 3)]


def test_rm40_damage_brought_to_a_stage_counts_from_the_first_turn() -> None:
    track = build_track(load_layout("gravel-flats"))
    entries = [CarEntry(1), CarEntry(2, damage=(4, 1, 2)), CarEntry(3, damage=(6, 0, 0))]
    run = simulate_stage(track, entries, RallyRules(), random.Random(2))
    damaged = [t for t in run.replay if t["car"] == 2]
    # Two gear dice (6 - 4) a turn, no brake or coast die (RM-40).
    assert all(sum(d["kind"] == "gear" for d in t["dice"]) <= 2 for t in damaged)
    assert all(d["kind"] == "gear" for t in damaged for d in t["dice"])
    assert run.cars[1].status == "finished" and run.cars[1].damage[0] >= 4
    # No gear die at all: out before its first turn.
    assert run.cars[2].status == "retired" and run.cars[2].turns == 0
    assert run.cars[2].retire_reason == "no_gear_dice"
    assert all(t["car"] != 3 for t in run.replay)
