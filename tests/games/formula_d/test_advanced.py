"""The advanced rule set with scripted dice (formula_d.md §13, FD-58 to FD-68)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

import pytest

from games.formula_d import (
    BLACK,
    AdvancedDriver,
    Entrant,
    FormulaDError,
    MoveOption,
    Race,
    ScriptedDice,
    advanced,
    simulate_race,
    track_for,
)
from games.formula_d.track import PIT
from scoring.formula_d.rules import build_formula_d_rules
from tests.games.formula_d.builders import MONACO, SEG, L, M, R, at, car, ending_at, race_with

ADV = build_formula_d_rules({}, "advanced")[0]
FULL = {"tyres": 6, "brakes": 3, "gearbox": 3, "body": 3, "engine": 3, "handling": 2}


def adv(cars, rolls=(), **kw):  # type: ignore[no-untyped-def]
    return race_with(cars, rolls, rule_set="advanced", **kw)


def test_cars_start_with_the_six_zones_or_their_own_build() -> None:
    # FD-59: defaults 6/3/3/3/3/2; with own_car_build a driver's build replaces them.
    race, _, _ = adv([{"pos": at("S1", M, 1)}])
    assert car(race, 1).zones == FULL and car(race, 1).wp == 20
    rules = build_formula_d_rules({"own_car_build": True}, "advanced")[0]
    build = {"tyres": 8, "brakes": 4, "gearbox": 2, "body": 2, "engine": 2, "handling": 2}
    entrants = [Entrant(1, "A", build=build), Entrant(2, "B")]
    race = Race(track_for(MONACO), entrants, laps=1, rules=rules, dice=ScriptedDice([]),
                policy=AdvancedDriver(), rule_set="advanced")  # fmt: skip
    assert [c.zones for c in race.cars] == [build, FULL]
    bad = [Entrant(1, "A", build={**build, "tyres": 9})]
    with pytest.raises(FormulaDError) as err:
        simulate_race("monaco", bad, laps=1, rules=rules, rule_set="advanced", rng=Random(1))
    assert err.value.code == "bad_build"


def test_voluntary_braking_costs_brakes_and_is_limited_by_them() -> None:
    # FD-60: 1 brake WP per space not moved; no braking the brakes cannot pay.
    race, _, policy = adv(
        [{"pos": at("S1", M, 1), "gear": 3}],
        [(3, 8)],
        gears={1: [3]},
        pick=ending_at(at("S1", M, 6)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).zones == {**FULL, "brakes": 0}
    assert min(o.steps for o in policy.seen[0]) == 5  # at most 3 spaces braked


def test_overshoot_costs_tyres() -> None:
    # FD-60: from S1 L17 an 8 ends 2 spaces beyond C2's exit line (1 stop short).
    race, _, _ = adv(
        [{"pos": at("S1", L, 17), "gear": 3}],
        [(3, 8)],
        gears={1: [3]},
        pick=ending_at(at("S2", L, 2)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).zones == {**FULL, "tyres": 4}


def test_losing_the_last_tyre_wp_spins_and_the_next_move_is_in_first() -> None:
    # FD-61: 2 tyre WP, 2 spaces beyond: spin; next move in 1st with no downshift cost.
    race, dice, policy = adv(
        [{"pos": at("S1", L, 17), "gear": 3, "zones": {"tyres": 2}}],
        [(3, 8), (1, 2)],
        gears={1: [3, 1]},
        pick=ending_at(at("S2", L, 2)),
    )
    d1 = car(race, 1)
    race.play_move(d1)
    assert d1.running and d1.spun and d1.zones is not None and d1.zones["tyres"] == 0
    assert race.allowed_gears(d1) == [1]
    race.policy.pick = lambda opts: opts[-1]  # type: ignore[attr-defined]
    race.play_move(d1)
    assert d1.zones["gearbox"] == 3 and d1.zones["brakes"] == 3 and not d1.spun
    assert policy.allowed[-1] == [1] and dice.remaining == 0


def test_a_tyre_loss_larger_than_the_tyres_left_eliminates() -> None:
    race, _, _ = adv(
        [{"pos": at("S1", L, 17), "gear": 3, "zones": {"tyres": 1}}],
        [(3, 8)],
        gears={1: [3]},
        pick=ending_at(at("S2", L, 2)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).status == "eliminated"
    assert at("S2", L, 2) in race.adv.debris  # type: ignore[union-attr]  # FD-64


@pytest.mark.parametrize(("start", "blocked", "brakes", "tyres"), [(3, 6, 0, 3), (2, 5, 0, 4)])
def test_blocking_table(start: int, blocked: int, brakes: int, tyres: int) -> None:
    # FD-62: a wall of cars on space 6; roll 8 in 3rd; the mover stops on space 5.
    cars = [
        {"pos": at("S1", M, start), "gear": 3},
        {"pos": at("S1", L, 6)},
        {"pos": at("S1", M, 6)},
        {"pos": at("S1", R, 6)},
    ]
    # FD-60 collision: the mover rolls once per car next to it (M6 ahead), then that car
    rolls = [(3, 8), (BLACK, 20), (BLACK, 20)]
    race, dice, policy = adv(cars, rolls, gears={1: [3]})
    race.play_move(car(race, 1))
    mover = car(race, 1)
    assert policy.seen[0][0].forced == blocked
    assert mover.zones == {**FULL, "brakes": brakes, "tyres": tyres}
    assert dice.remaining == 0


def test_seven_blocked_spaces_eliminate() -> None:
    cars = [
        {"pos": at("S1", M, 4), "gear": 3},
        {"pos": at("S1", L, 6)},
        {"pos": at("S1", M, 6)},
        {"pos": at("S1", R, 6)},
    ]
    race, _, _ = adv(cars, [(3, 8)], gears={1: [3]})
    race.play_move(car(race, 1))
    assert car(race, 1).status == "eliminated"


def test_downshift_table_and_gearbox_at_zero() -> None:
    # FD-63: 6th -> 3rd skips 2 gears: gearbox 1 + brakes 1.
    race, _, _ = adv([{"pos": at("S5", M, 1), "gear": 6}], [(3, 4)], gears={1: [3]})
    race.play_move(car(race, 1))
    assert car(race, 1).zones == {**FULL, "gearbox": 2, "brakes": 2}
    # FD-59: with no gearbox WP only one-gear downshifts remain.
    race, _, _ = adv([{"pos": at("S5", M, 1), "gear": 6, "zones": {"gearbox": 0}}])
    assert race.allowed_gears(car(race, 1)) == [5, 6]
    # FD-60: no downshift whose brake cost cannot be paid (skip 2 needs a brake WP).
    race, _, _ = adv([{"pos": at("S5", M, 1), "gear": 6, "zones": {"brakes": 0}}])
    assert race.allowed_gears(car(race, 1)) == [4, 5, 6]


def test_collision_mover_rolls_per_car_and_body_loss_leaves_debris() -> None:
    # FD-60: D1 stops behind D2 and beside D3: it rolls twice, then D2 and D3 once; 1 fails.
    race, dice, _ = adv(
        [{"pos": at("S1", M, 1), "gear": 2}, {"pos": at("S1", M, 5)}, {"pos": at("S1", L, 4)}],
        [(2, 3), (BLACK, 1), (BLACK, 2), (BLACK, 1), (BLACK, 20)],
        gears={1: [2]},
        pick=ending_at(at("S1", M, 4)),
    )
    race.order = sorted(race.cars, key=race.order_key)
    race.play_move(car(race, 1))
    assert [c.zones["body"] for c in race.cars] == [2, 2, 3]  # type: ignore[index]
    assert race.adv is not None and race.adv.debris == {at("S1", M, 4), at("S1", M, 5)}
    assert dice.remaining == 0


def test_body_at_zero_eliminates() -> None:
    race, _, _ = adv(
        [{"pos": at("S1", M, 1), "gear": 2, "zones": {"body": 1}}, {"pos": at("S1", M, 5)}],
        [(2, 3), (BLACK, 1), (BLACK, 20)],
        gears={1: [2]},
        pick=ending_at(at("S1", M, 4)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).status == "eliminated"


def test_engine_test_costs_engine_wp() -> None:
    # FD-60: engine test on 20 in 5th; 1-4 fails in the dry.
    race, dice, _ = adv([{"pos": at("S5", M, 1), "gear": 5}], [(5, 20), (BLACK, 4)], gears={1: [5]})
    race.play_move(car(race, 1))
    assert car(race, 1).zones == {**FULL, "engine": 2}
    assert race.adv is not None and at("S5", M, 21) in race.adv.debris
    assert dice.remaining == 0


def test_debris_space_costs_a_handling_test_unless_avoided() -> None:
    # FD-64: passing over debris: a black-die test, 1-4 loses a road-handling WP.
    race, dice, _ = adv(
        [{"pos": at("S1", M, 1), "gear": 2}], [(2, 2), (BLACK, 4)], gears={1: [2]},
        pick=ending_at(at("S1", M, 3)),
    )  # fmt: skip
    assert race.adv is not None
    race.adv.drop_debris(at("S1", M, 3))
    race.play_move(car(race, 1))
    assert car(race, 1).zones == {**FULL, "handling": 1} and dice.remaining == 0
    # A lane change avoids the space: the cheapest way to M4 goes round it (no test).
    race, dice, _ = adv(
        [{"pos": at("S1", M, 1), "gear": 2}], [(2, 3)], gears={1: [2]},
        pick=ending_at(at("S1", M, 4)),
    )  # fmt: skip
    assert race.adv is not None
    race.adv.drop_debris(at("S1", M, 3))
    race.play_move(car(race, 1))
    assert car(race, 1).zones == FULL and dice.remaining == 0


def into_box_then_furthest(options: Sequence[MoveOption]) -> MoveOption:
    return next((o for o in options if o.into_box), options[-1])


def test_pit_stop_restores_tyres_only_and_a_quick_stop_leaves_at_once() -> None:
    # FD-68: box 1 is 3 spaces from C10 R2; black die 6 = quick: 3 spaces in 4th at once.
    worn = {"tyres": 1, "brakes": 1}
    race, dice, _ = adv(
        [{"pos": at("C10", R, 2), "gear": 2, "corner_stops": 1, "zones": worn}],
        [(2, 4), (BLACK, 6)],
        gears={1: [2]},
        laps=2,
        pick=into_box_then_furthest,
    )
    d1 = car(race, 1)
    race.play_move(d1)
    assert d1.zones == {**FULL, "brakes": 1} and d1.laps_done == 1
    assert d1.pos == (PIT, 0, 5) and d1.gear == 4 and not d1.in_box
    assert dice.remaining == 0


def test_slow_pit_stop_leaves_on_the_next_move() -> None:
    race, _, policy = adv(
        [{"pos": at("C10", R, 2), "gear": 2, "corner_stops": 1}],
        [(2, 4), (BLACK, 11), (4, 7)],
        gears={1: [2, 4]},
        laps=2,
        pick=into_box_then_furthest,
    )
    d1 = car(race, 1)
    race.play_move(d1)
    assert d1.pos == (PIT, 0, 2) and d1.in_box
    race.play_move(d1)
    assert policy.allowed[-1] == [1, 2, 3, 4] and d1.pos == (PIT, 0, 9)


def slipstream_pick(options: Sequence[MoveOption]) -> MoveOption:
    if any(o.slipstream for o in options):
        return max(options, key=lambda o: o.steps)
    return ending_at(at("S5", M, 8))(options)


def test_slipstream_adds_three_spaces_round_the_leader() -> None:
    # FD-65: both in 4th, D1 ends right behind D2 and pulls out, passes and cuts back in.
    race, dice, policy = adv(
        [{"pos": at("S5", M, 1), "gear": 4}, {"pos": at("S5", M, 9), "gear": 4}],
        [(4, 7)],
        gears={1: [4]},
        pick=slipstream_pick,
    )
    race.play_move(car(race, 1))
    d1 = car(race, 1)
    assert d1.pos[0] == SEG["S5"] and d1.pos[2] == 10  # 3 spaces on from M8
    assert d1.zones == FULL and dice.remaining == 0
    assert policy.seen[1][0].steps == 0  # declining is an option
    assert any(e.kind == "slipstream" for e in race.moves[-1].events)


def test_no_slipstream_below_fourth_or_behind_a_faster_gear() -> None:
    race, _, policy = adv(
        [{"pos": at("S5", M, 1), "gear": 4}, {"pos": at("S5", M, 9), "gear": 5}],
        [(4, 7), (BLACK, 20), (BLACK, 20)],  # D1 stops behind D2: collision tests
        gears={1: [4]},
        pick=slipstream_pick,
    )
    race.play_move(car(race, 1))
    assert len(policy.seen) == 1 and car(race, 1).pos == at("S5", M, 8)


def test_slipstream_into_a_corner_costs_a_brake_wp() -> None:
    # D1 ends behind D2 two spaces before C2: every 3-space slipstream enters C2 (FD-60).
    race, dice, _ = adv(
        [{"pos": at("S1", M, 9), "gear": 4}, {"pos": at("S1", M, 17), "gear": 4}],
        [(4, 7)],
        gears={1: [4]},
        pick=lambda opts: (
            max(opts, key=lambda o: o.steps)
            if any(o.slipstream for o in opts)
            else ending_at(at("S1", M, 16))(opts)
        ),
    )
    d1 = car(race, 1)
    race.play_move(d1)
    assert d1.pos[0] == SEG["C2"] and d1.zones == {**FULL, "brakes": 2}
    assert d1.corner == SEG["C2"] and d1.stops == 1 and dice.remaining == 0


def test_soft_tyres_double_the_overshoot_on_lap_one() -> None:
    # FD-66: soft tyres in the dry, lap 1: overshoot x2.
    rules = build_formula_d_rules({"tyres": True}, "advanced")[0]
    race, _, _ = adv(
        [{"pos": at("S1", L, 17), "gear": 3, "crossings": 0, "started": True}],
        [(3, 8)],
        gears={1: [3]},
        rules=rules,
        pick=ending_at(at("S2", L, 2)),
    )
    car(race, 1).tyre = "soft"
    race.play_move(car(race, 1))
    assert car(race, 1).zones == {**FULL, "tyres": 2}


def test_hard_tyres_in_the_rain_add_three_spaces_to_corner_moves() -> None:
    # FD-66: hard tyres, rain: +3 on every corner move (compulsory); straight moves unchanged.
    rules = build_formula_d_rules({"tyres": True, "weather": True}, "advanced")[0]
    race, _, policy = adv(
        [{"pos": at("S1", L, 10), "gear": 3}], [(3, 6)], gears={1: [3]}, rules=rules
    )
    assert race.adv is not None
    race.adv.weather = "rain"
    race.play_move(car(race, 1))
    corner = [o for o in policy.seen[0] if advanced.corner_move(o, race)]
    straight = [o for o in policy.seen[0] if not advanced.corner_move(o, race)]
    assert corner and all(o.roll == 9 for o in corner)
    assert straight and all(o.roll == 6 for o in straight)


def test_weather_chart_and_changes() -> None:
    # FD-67: Monaco chart rain 1-7, changeable 8-12, good 13-20; in a changeable state a chart
    # roll moves one step towards Good or Rain.
    rules = build_formula_d_rules({"weather": True}, "advanced")[0]
    race, dice, _ = adv(
        [{"pos": at("S1", M, 1)}], [(BLACK, 10), (BLACK, 3), (BLACK, 9), (BLACK, 15)], rules=rules
    )
    assert race.adv is not None
    advanced.roll_weather(race)
    assert race.adv.weather == "changeable" and not race.adv.wet
    advanced.weather_change(race)
    assert race.adv.weather == "rain-changeable" and race.adv.wet
    advanced.weather_change(race)  # changeable band: no change
    advanced.weather_change(race)  # good band: one step back
    assert race.adv.weather == "changeable" and dice.remaining == 0
    assert race.adv.weather_log == ["changeable", "rain-changeable", "changeable"]


def test_rain_collision_threshold() -> None:
    # FD-60: in the wet a collision test fails on 1-2.
    race, _, _ = adv(
        [{"pos": at("S1", M, 1), "gear": 2}, {"pos": at("S1", M, 5)}],
        [(2, 3), (BLACK, 2), (BLACK, 3)],
        gears={1: [2]},
        pick=ending_at(at("S1", M, 4)),
    )
    assert race.adv is not None
    race.adv.weather = "rain"
    race.play_move(car(race, 1))
    assert [c.zones["body"] for c in race.cars] == [2, 3]  # type: ignore[index]


def test_result_rows_carry_wp_left_per_zone() -> None:
    race, _, _ = adv(
        [{"pos": at("S0", L, 15), "gear": 1, "crossings": 1}, {"pos": at("S1", M, 1)}],
        [(1, 2)],
        gears={1: [1]},
    )
    race.play_move(car(race, 1))
    race.eliminate(car(race, 2), "test")
    rows = race.outcome().submission()
    assert rows[0]["wp_left"] == FULL
    assert rows[1]["wp_left"] == dict.fromkeys(FULL, 0)


class Technician:
    """A scripted policy that also plans technical stops (FD-69)."""

    def __init__(self, plan: dict[str, int]) -> None:
        self.plan = plan

    def choose_gear(self, race: Race, car: Any, allowed: Sequence[int]) -> int:
        return max(allowed)

    def choose_move(self, race: Race, car: Any, options: Sequence[MoveOption]) -> MoveOption:
        return into_box_then_furthest(options)

    def choose_technical_stop(self, race: Race, car: Any) -> dict[str, int]:
        return self.plan


def test_technical_stop_uses_the_reservoir_and_rolls_no_stop_speed() -> None:
    # FD-69: 2 reservoir WP to one or two non-tyre zones; tyres changed; leaves next move <= 4th.
    rules = build_formula_d_rules({"pit_reservoir": True}, "advanced")[0]
    worn = {"tyres": 1, "brakes": 1, "body": 2}
    race, dice, _ = adv(
        [{"pos": at("C10", R, 2), "gear": 2, "corner_stops": 1, "zones": worn}],
        [(3, 4)],  # Technician shifts up to 3rd; 3 spaces reach box 1
        laps=2,
        rules=rules,
    )
    race.policy = Technician({"brakes": 1, "body": 1})
    d1 = car(race, 1)
    race.play_move(d1)
    assert d1.zones == {**FULL, "brakes": 2, "body": 3} and d1.reservoir == 0
    assert d1.in_box and race.allowed_gears(d1) == [1, 2, 3, 4] and dice.remaining == 0
    race.policy = Technician({"engine": 1})
    assert not advanced.technical_stop(race, d1)  # nothing left: an ordinary stop
    d1.reservoir = 2
    race.policy = Technician({"tyres": 1})
    with pytest.raises(FormulaDError) as err:
        advanced.technical_stop(race, d1)  # tyres are not a reservoir zone
    assert err.value.code == "illegal_technical_stop"
