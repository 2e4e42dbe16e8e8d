"""Whole stages: staggered start, turn order, the automatic driver, and properties over seeds."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rm_lab import Lab, lab_track

from games.rallyman.engine import Plan, TurnContext
from games.rallyman.layout import SAMPLE_STAGES, load_layout
from games.rallyman.policy import AutoDriver
from games.rallyman.simulate import CarEntry, simulate_stage, turn_order
from games.rallyman.track import Track, build_track
from games.rallyman.turn import RollState
from scoring.params import build_rules
from scoring.rally.notation import log_time
from scoring.rally.rules import RallyRules
from scoring.rally.sheet import check_stage_sheet
from scoring.rng import derive_rng

RULES = RallyRules()


@cache
def sample(name: str) -> Track:
    return build_track(load_layout(name))


def cars(n: int) -> list[CarEntry]:
    return [CarEntry(c) for c in range(1, n + 1)]


# --- RM-4 to RM-9 ----------------------------------------------------------------------------


def test_rm4_staggered_start_order_of_the_first_rounds() -> None:
    run = simulate_stage(sample("gravel-flats"), cars(4), RULES, random.Random(3))
    by_round: dict[int, list[int]] = {}
    for turn in run.replay:
        by_round.setdefault(turn["round"], []).append(turn["car"])
    assert by_round[1] == [1]
    assert sorted(by_round[2]) == [1, 2] and by_round[2][-1] == 2
    assert sorted(by_round[3]) == [1, 2, 3] and by_round[3][-1] == 3
    assert sorted(by_round[4]) == [1, 2, 3, 4] and by_round[4][-1] == 4
    # RM-9: the first car of each round is the leader
    assert all(
        t["leader"] == (i == 0)
        for r in by_round
        for i, t in enumerate(t for t in run.replay if t["round"] == r)
    )


def test_rm7_rm8_turn_order_distance_gear_inside_start() -> None:
    track = lab_track(
        {"kind": "straight", "rows": 4},
        {"kind": "corner", "turn": "left", "inside": [2, 2], "outside": [3, 3, 3]},
    )
    lab = Lab(track, cars=5)
    a = lab.place(1, "A.1.r1-right", gear=3)
    b = lab.place(2, "A.1.r1-left", gear=3)  # left = inside of the next (left) corner
    c = lab.place(3, "A.1.r2-right", gear=1)  # furthest
    d = lab.place(4, "A.1.r1-right", gear=4)  # faster at equal distance
    e = lab.place(5, "A.1.r1-right", gear=3)
    e.on_track = False  # crashed: keeps its place (RM-8)
    order = turn_order(lab.state, [a, b, c, d, e])
    assert [x.car for x in order] == [3, 4, 2, 1, 5]  # ties go to the earlier start (ruling)


def test_rm41_a_car_that_never_moves_retires_after_the_turn_limit() -> None:
    class Parked:
        def plan(self, ctx: TurnContext) -> Plan:
            return Plan()

        def before_die(self, ctx: TurnContext, roll: RollState) -> str:
            return "roll"

    rules, errors = build_rules(RallyRules, {"max_turns_per_stage": 5})
    assert not errors
    run = simulate_stage(sample("gravel-flats"), cars(2), rules, random.Random(1), driver=Parked())
    assert [c.status for c in run.cars] == ["retired", "retired"]
    assert all(c.turns == 5 and c.retire_reason == "max_turns" for c in run.cars)
    assert run.sheet() == [
        {"driver": 1, "status": "retired"},
        {"driver": 2, "status": "retired"},
    ]


def test_rm31_tokens_carry_over_instead_of_being_deducted() -> None:
    rules, _ = build_rules(RallyRules, {"tokens_carry_over": True})
    track = sample("gravel-flats")
    for seed in range(10):
        carried = simulate_stage(track, cars(3), rules, random.Random(seed), last_stage=False)
        plain = simulate_stage(track, cars(3), rules, random.Random(seed), last_stage=True)
        for c, p in zip(carried.cars, plain.cars, strict=True):
            if c.status == "finished":
                assert c.tokens == 0 and c.net_time == c.cards
                assert c.carried_tokens == p.tokens
                assert "t" not in (c.log or "")
    start = simulate_stage(track, [CarEntry(1, tokens=5)], RULES, random.Random(0))
    assert start.replay[0]["tokens"] >= 5 - start.replay[0]["tokens_spent"]


def test_the_driver_is_cautious_on_red_tiles() -> None:
    modes: dict[str, int] = {}
    for name in ("gravel-flats", "twisty-jumps"):
        runs = [simulate_stage(sample(name), cars(6), RULES, random.Random(s)) for s in range(5)]
        turns = [t for r in runs for t in r.replay]
        modes[name] = sum(t["mode"] == "big_attack" for t in turns) * 100 // len(turns)
    # Many more Big Attacks on open gravel than on the red-danger twisty stage.
    assert modes["gravel-flats"] > 3 * max(modes["twisty-jumps"], 1)


def test_big_attack_only_on_straights() -> None:
    track = sample("ford-cuts")
    for seed in range(5):
        run = simulate_stage(track, cars(6), RULES, random.Random(seed))
        for t in run.replay:
            if t["mode"] == "big_attack" and not t["loc"]:
                assert ".r" in t["to"] or "finish" in t["to"]


def test_duplicate_cars_are_refused() -> None:
    with pytest.raises(ValueError):
        simulate_stage(sample("ford-cuts"), [CarEntry(1), CarEntry(1)], RULES, random.Random(0))


# --- properties over many seeds -----------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(SAMPLE_STAGES),
    st.integers(1, 6),
)
def test_every_car_finishes_or_retires_and_times_add_up(seed: int, name: str, n: int) -> None:
    run = simulate_stage(sample(name), cars(n), RULES, derive_rng(seed, "rally_stage", 1))
    assert [c.car for c in run.cars] == list(range(1, n + 1))
    for car in run.cars:
        assert car.status in ("finished", "retired")
        turns = [t for t in run.replay if t["car"] == car.car]
        assert len(turns) == car.turns
        assert car.cards == sum(t["card"] for t in turns)
        if car.status == "finished":
            assert turns[-1]["finished"]
            assert car.log is not None and car.net_time is not None
            # stage time = sum of its cards - tokens x token_seconds (no penalties simulated)
            assert car.net_time == car.cards - car.tokens * RULES.token_seconds
            assert log_time(car.log, RULES).net_time == car.net_time
            assert car.tokens == turns[-1]["tokens"]
    sheet = check_stage_sheet(run.sheet(), entry_list=list(range(1, n + 1)), rules=RULES)
    assert sheet.ok


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(SAMPLE_STAGES))
def test_same_seed_same_stage(seed: int, name: str) -> None:
    one = simulate_stage(sample(name), cars(4), RULES, derive_rng(seed, "rally_stage", 2))
    two = simulate_stage(
        build_track(load_layout(name)),
        cars(4),
        RULES,
        derive_rng(seed, "rally_stage", 2),
        driver=AutoDriver(),
    )
    assert one == two


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_damage_and_hazard_parameters_still_end_every_stage(seed: int) -> None:
    rules, errors = build_rules(
        RallyRules,
        {
            "hazard_limit": 2,
            "loc_outcome_weights": {"sisu": 0, "spin": 0, "crash": 1},
            "crash_token_weights": {"gear": 1, "brake": 0, "coast": 0, "green_flag": 0},
        },
    )
    assert not errors
    run = simulate_stage(sample("twisty-jumps"), cars(6), rules, random.Random(seed))
    assert all(c.status in ("finished", "retired") for c in run.cars)
    for c in run.cars:
        if c.status == "retired":
            assert c.retire_reason in ("no_gear_dice", "max_turns")
