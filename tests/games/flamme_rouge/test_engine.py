"""Whole stages: rules checked through the round log, outputs, errors and dummy teams."""

from __future__ import annotations

import json

import pytest

from games.flamme_rouge import (
    SetupError,
    SimulationError,
    Stack,
    StageRules,
    simulate_stage,
)
from games.flamme_rouge.cards import EXHAUSTION_CODE
from games.flamme_rouge.movement import find_packs, pack_fronts
from games.flamme_rouge.tables import tables_for
from scoring.rng import derive_rng
from tests.games.flamme_rouge.helpers import COL, setup


def test_fr50_timing_example() -> None:
    # Flat finish, L = 73: A 5 past, B 4 past, C 1 past, squares 2-3 past empty.
    tables = tables_for("abcdefghijklmnopqrstu", StageRules())
    last = tables.last
    fronts = pack_fronts(find_packs([last - 2, last + 1, last + 4, last + 5]))
    seconds = {
        name: tables.timing[fronts[last + k] - last] for name, k in (("A", 5), ("B", 4), ("C", 1))
    }
    assert seconds == {"A": 10, "B": 10, "C": 50}
    # Round 15: D 6 past and E 5 past are one pack: both 0 seconds plus their minute.
    fronts = pack_fronts(find_packs([last + 5, last + 6]))
    assert tables.timing[fronts[last + 5] - last] == tables.timing[fronts[last + 6] - last] == 0


def test_stage_times_follow_pack_fronts_in_the_log() -> None:
    outcome = simulate_stage(setup(1, 4), 7)
    r1 = outcome.header["r1"]
    tables = tables_for(outcome.header["course"]["text"], StageRules())
    by_id = {r.rider_id: r for r in outcome.riders}
    for entry in outcome.log["rounds"]:
        fronts = pack_fronts([tuple(p) for p in entry["packs"]])
        for row in entry["riders"]:
            final = row[COL["to"]] + row[COL["slip"]]
            if row[COL["crossed"]]:
                expected = tables.timing[fronts[final] - tables.last]
                assert row[COL["seconds"]] == expected == by_id[row[0]].seconds
            assert row[COL["minute"]] == int(entry["round"] >= r1 and not row[COL["crossed"]])
    for rider in outcome.riders:
        assert rider.minutes == rider.crossing_round - r1  # FR-49


def test_exhaustion_follows_the_empty_next_square() -> None:
    outcome = simulate_stage(setup(2, 4), 3)
    for entry in outcome.log["rounds"]:
        finals = {row[0]: row[COL["to"]] + row[COL["slip"]] for row in entry["riders"]}
        occupied = set(finals.values())
        for row in entry["riders"]:
            expected = not row[COL["crossed"]] and finals[row[0]] + 1 not in occupied
            assert row[COL["exhausted"]] == int(expected), (entry["round"], row)


def test_first_reshuffle_comes_with_the_fourth_draw() -> None:
    outcome = simulate_stage(setup(1, 3), 11)
    rounds = outcome.log["rounds"]
    for row in rounds[3]["riders"]:
        assert row[COL["reshuffled"]] == 1 and len(row[COL["drawn"]]) == 4
    for entry in rounds[:3]:
        assert all(row[COL["reshuffled"]] == 0 for row in entry["riders"])
        # FR-21: four drawn, one played, three recycled.
        for row in entry["riders"]:
            drawn, played, recycled = row[COL["drawn"]], row[COL["played"]], row[COL["recycled"]]
            assert sorted(drawn) == sorted([played, *recycled]) and len(recycled) == 3


def test_cards_are_conserved() -> None:
    outcome = simulate_stage(setup(4, 4, r11={"exhaustion": 3}), 5)
    for rider in outcome.riders:
        carried = 3 if rider.rider_id == 11 else 0
        exhaustion = sum(1 for c in rider.deck_end if c.kind == "exhaustion")
        assert exhaustion == rider.exhaustion_end
        assert exhaustion == carried + rider.exhaustion_taken - rider.exhaustion_played
        assert len(rider.deck_end) - exhaustion == 15  # every energy card comes back (FR-36)


def test_movement_rows_respect_blocking_and_modifiers() -> None:
    outcome = simulate_stage(setup(3, 5), 2)
    for entry in outcome.log["rounds"]:
        ends = [(row[COL["to"]], row[COL["to_lane"]]) for row in entry["riders"]]
        assert len(ends) == len(set(ends))  # one rider per lane after movement
        for row in entry["riders"]:
            assert row[COL["from"]] + row[COL["move"]] == row[COL["target"]]
            assert row[COL["blocked"]] == int(row[COL["to"]] != row[COL["target"]])
            assert row[COL["from"]] <= row[COL["to"]] <= row[COL["target"]]


def test_token_stacks_in_a_whole_stage() -> None:
    stacks = (Stack("s", "major", "sprint", 30), Stack("m", "minor", "mountain", 20))
    outcome = simulate_stage(setup(1, 4, stacks=stacks), 9)
    assert sorted(v for r in outcome.riders for _, v in r.tokens if _ == "s") == [2, 3, 4]
    assert sorted(v for r in outcome.riders for _, v in r.tokens if _ == "m") == [1, 3]
    sprint = {r.rider_id: r.sprint_points for r in outcome.riders}
    assert sum(sprint.values()) == 9
    assert sum(r.mountain_points for r in outcome.riders) == 4


def test_same_seed_same_stage_and_log() -> None:
    a = simulate_stage(setup(7, 3, dummies="both"), 123)
    b = simulate_stage(setup(7, 3, dummies="both"), 123)
    assert a.log_json() == b.log_json() and a.riders == b.riders and a.header == b.header
    c = simulate_stage(setup(7, 3, dummies="both"), derive_rng(123, "stage", 1))
    assert c.log_json() == a.log_json()  # an int seed means derive_rng(seed, "stage", number)
    d = simulate_stage(setup(7, 3, dummies="both"), 124)
    assert d.log_json() != a.log_json()
    json.loads(a.log_json())


def test_header() -> None:
    outcome = simulate_stage(setup(3, 2), 5)
    header = outcome.header
    assert header["seed"] == 5 and header["stage"] == 1
    assert header["course"]["profile"] == "5s 31F 7U 5D 14F 12U 5Uf"
    assert header["winner"] == outcome.riders[0].rider_id
    assert header["rounds"] == max(r.crossing_round or 0 for r in outcome.riders)
    assert header["rules"]["timing_ascent"] == [40, 30, 20, 10, 0]
    assert sorted(header["placement_order"]) == [1, 2]


def test_placement_and_first_round() -> None:
    outcome = simulate_stage(setup(1, 2, dummies="both", order=(2, 1)), 1)
    grid = outcome.log["grid"]
    # FR-60: Peloton, then Muscle Sprinteur, Rouleur; FR-69: sprinteurs first, order 2, 1.
    assert [g[0] for g in grid] == [-1, -2, -3, -4, 22, 12, 21, 11]
    assert grid[0][1:] == [5, 1] and grid[1][1:] == [5, 2] and grid[2][1:] == [4, 1]


def test_submission_drops_dummies() -> None:
    outcome = simulate_stage(setup(1, 3, dummies="both"), 4)
    rows = outcome.submission()
    assert [r["position"] for r in rows] == list(range(1, 7))
    assert {r["rider"] for r in rows} == {11, 12, 21, 22, 31, 32}
    assert list(rows[0]) == [
        "rider",
        "position",
        "minutes",
        "seconds",
        "sprint_points",
        "mountain_points",
        "exhaustion",
    ]
    players = [r for r in outcome.riders if not r.is_dummy]
    assert [r["rider"] for r in rows] == [r.rider_id for r in players]


def test_dummies_take_no_exhaustion_by_default() -> None:
    outcome = simulate_stage(setup(2, 2, dummies="both"), 8)
    assert all(r.exhaustion_taken == 0 for r in outcome.riders if r.is_dummy)
    rules = StageRules(dummies_take_exhaustion=True)
    outcome = simulate_stage(setup(2, 2, dummies="both", rules=rules), 8)
    assert sum(r.exhaustion_taken for r in outcome.riders if r.is_dummy) > 0


def test_dummies_and_tokens_switch() -> None:
    stacks = (Stack("s", "major", "sprint", 10),)
    rules = StageRules(dummies_take_tokens=False)
    for seed in range(5):
        outcome = simulate_stage(setup(1, 2, dummies="both", stacks=stacks, rules=rules), seed)
        assert all(not r.tokens for r in outcome.riders if r.is_dummy)
        assert sum(r.sprint_points for r in outcome.riders) == 9


def test_recovery_returns_exhaustion() -> None:
    seen = 0
    for seed in range(10):
        outcome = simulate_stage(setup(1, 4, r11={"specialist": "domestique"}), seed)
        for entry in outcome.log["rounds"]:
            for row in entry["riders"]:
                if row[COL["recovered"]]:
                    assert row[0] == 11 and row[COL["played"]] == 22
                    seen += 1
    assert seen > 0
    off = StageRules(specialist_effects="none")
    outcome = simulate_stage(setup(1, 4, r11={"specialist": "domestique"}, rules=off), 0)
    assert not any(row[COL["recovered"]] for e in outcome.log["rounds"] for row in e["riders"])


def test_limited_exhaustion_supply() -> None:
    outcome = simulate_stage(setup(2, 4, rules=StageRules(exhaustion_supply=0)), 1)
    assert all(r.exhaustion_taken == 0 for r in outcome.riders)
    outcome = simulate_stage(setup(2, 4, rules=StageRules(exhaustion_supply=3)), 1)
    for role in ("rouleur", "sprinteur"):
        held = sum(r.exhaustion_end for r in outcome.riders if r.rider_type == role)
        assert held <= 3


def test_base_mode_ends_with_the_first_crossing() -> None:
    outcome = simulate_stage(setup(1, 4, rules=StageRules(tour_mode=False)), 2)
    crossed = [r for r in outcome.riders if r.crossing_round]
    assert crossed and all(r.crossing_round == outcome.header["rounds"] for r in crossed)
    assert outcome.riders[0].crossing_round == outcome.header["rounds"]
    assert outcome.header["r1"] is None


def test_fr70_base_mode_results_are_integers_and_rank_by_fr72() -> None:
    # Regression (FR-70 "integers only"): a base-mode rider who never crossed had
    # crossing_round None. Now 0, and squares_past is his square - L (0 or less), so the
    # FR-72 order is crossers first, then the others by the same keys.
    fields = ("crossing_round", "squares_past", "lane", "minutes", "seconds", "exhaustion_end")
    seen = 0
    for seed in range(20):
        outcome = simulate_stage(setup(1, 4, rules=StageRules(tour_mode=False)), seed)
        last = outcome.header["course"]["last_before_line"]
        final = {
            row[0]: row[COL["to"]] + row[COL["slip"]] for row in outcome.log["rounds"][-1]["riders"]
        }
        for rider in outcome.riders:
            assert all(type(getattr(rider, f)) is int for f in fields), rider
            assert json.dumps(rider.to_json())
            assert rider.squares_past == final[rider.rider_id] - last
            if not rider.crossing_round:
                seen += 1
                assert rider.squares_past <= 0
        keys = [
            (not r.crossing_round, r.crossing_round, -r.squares_past, r.lane)
            for r in outcome.riders
        ]
        assert keys == sorted(keys)
    assert seen > 0


def test_fr70_the_peloton_deck_is_reported_once() -> None:
    # Regression: each Peloton rider's deck_end listed the shared face-down deck, so the team
    # carried its cards twice (and the first rider also every card played).
    rules = StageRules(dummies_take_exhaustion=True)
    for seed in range(10):
        outcome = simulate_stage(setup(1, 3, dummies="peloton", rules=rules), seed)
        first, second = (next(r for r in outcome.riders if r.rider_id == rid) for rid in (-1, -2))
        labels = sorted(c.label for c in first.deck_end)
        assert labels == sorted(
            ["3", "4", "5", "6", "7"] * 3 + ["A", "A"] + ["X"] * first.exhaustion_end
        )
        assert first.exhaustion_end == first.exhaustion_taken - first.exhaustion_played
        taken = sum(
            row[COL["exhausted"]]
            for e in outcome.log["rounds"]
            for row in e["riders"]
            if row[0] < 0
        )
        assert first.exhaustion_taken == taken
        assert second.deck_end == () and second.exhaustion_end == second.exhaustion_taken == 0


def test_max_rounds() -> None:
    with pytest.raises(SimulationError) as info:
        simulate_stage(setup(1, 2, rules=StageRules(max_rounds=3)), 1)
    assert info.value.code == "max_rounds_exceeded" and info.value.params["max_rounds"] == 3


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"course": "abxu"}, "course_unknown_tile"),
        ({"course": "abc"}, "course_no_finish"),
        ({"course": "Abcu", "count": 5}, "too_many_riders"),
        (
            {"course": 1, "count": 4, "dummies": "both", "order": None, "extra": 2},
            "too_many_riders",
        ),
        ({"r11": {"specialist": "climber"}}, "unknown_specialist"),
        ({"r12": {"specialist": "grimpeur"}}, "specialist_wrong_role"),
        ({"r11": {"exhaustion": -1}}, "invalid_exhaustion"),
        ({"order": (1, 2, 2, 4)}, "invalid_placement_order"),
        ({"stacks": (Stack("s", "major", "sprint", 99),)}, "invalid_stack_square"),
        ({"stacks": (Stack("s", "huge", "sprint", 9),)}, "invalid_stack_type"),
        ({"stacks": (Stack("s", "major", "green", 9),)}, "invalid_stack_side"),
        ({"dummies": "all"}, "invalid_dummy_teams"),
        ({"rules": StageRules(breakaway_variant=True)}, "breakaway_unsupported"),
    ],
)
def test_bad_setups(kwargs: dict[str, object], code: str) -> None:
    extra = int(kwargs.pop("extra", 0))  # type: ignore[call-overload]
    if extra:
        kwargs["count"] = 4 + extra  # 12 riders on a 10-place start
    from games.flamme_rouge import FlammeRougeError

    with pytest.raises(FlammeRougeError) as info:
        simulate_stage(setup(**kwargs), 1)  # type: ignore[arg-type]
    assert info.value.code == code and info.value.message
    assert isinstance(info.value, ValueError)
    assert json.dumps(info.value.to_json())


def test_unknown_specialist_is_a_setup_error() -> None:
    with pytest.raises(SetupError):
        simulate_stage(setup(r21={"specialist": "Grimpeur"}), 1)


def test_peloton_attack_moves_two_and_nine() -> None:
    seen = 0
    for seed in range(30):
        outcome = simulate_stage(setup(1, 2, dummies="peloton"), seed)
        for entry in outcome.log["rounds"]:
            rows = [r for r in entry["riders"] if r[0] < 0]
            if len(rows) == 2 and rows[0][COL["played"]] == 1:  # attack card code
                seen += 1
                tables = tables_for(outcome.header["course"]["text"], StageRules())
                front, back = rows  # race order: the first row is ahead
                assert front[COL["target"]] == tables.dest[front[COL["from"]]][2]
                assert back[COL["target"]] == tables.dest[back[COL["from"]]][9]
    assert seen > 0


def test_exhaustion_code_is_zero_in_logs() -> None:
    outcome = simulate_stage(setup(5, 4), 3)
    played = [row[COL["played"]] for e in outcome.log["rounds"] for row in e["riders"]]
    assert EXHAUSTION_CODE in played
    assert outcome.log["cards"][EXHAUSTION_CODE] == ["exhaustion", 2, []]
