"""Engine rules with scripted dice: one test (or a few) per RM rule the engine applies."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rm_lab import Lab, lab_track, straight_lab

from games.rallyman.check import check_stage
from games.rallyman.engine import Plan, Step, TurnContext, check_plan, turn_dice
from games.rallyman.errors import PlanError
from games.rallyman.simulate import CarEntry, simulate_stage
from games.rallyman.track import FINISH
from games.rallyman.turn import RollState, return_after_crash
from scoring.params import build_rules
from scoring.rally.rules import RallyRules

R = "A.1.r{}-{}"


def row(r: int, lane: str = "left") -> str:
    return R.format(r, lane)


def rules(**data: object) -> RallyRules:
    built, errors = build_rules(RallyRules, data)
    assert not errors
    return built


# --- planning: RM-10 to RM-15 -------------------------------------------------------------


def test_rm11_gear_dice_step_one_gear_at_a_time() -> None:
    lab = straight_lab()
    lab.place(1, "A.0.start-left")
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step(row(0), 2),)))
    assert err.value.code == "gear_step"
    effects = check_plan(lab.ctx(), Plan((lab.step(row(0), 1), lab.step(row(1), 2))))
    assert [e.gear_after for e in effects] == [1, 2]


def test_rm11_first_die_repeating_the_gear_is_a_parameter() -> None:
    lab = straight_lab()
    lab.place(1, row(0), gear=3)
    with pytest.raises(PlanError, match="gear 3 cannot follow"):
        check_plan(lab.ctx(), Plan((lab.step(row(1), 3),)))
    lab = straight_lab(rules=rules(first_die_may_repeat_gear=True))
    lab.place(1, row(0), gear=3)
    assert check_plan(lab.ctx(), Plan((lab.step(row(1), 3),)))[0].gear_after == 3
    with pytest.raises(PlanError):  # only the first die
        check_plan(lab.ctx(), Plan((lab.step(row(1), 4), lab.step(row(2), 4))))


def test_rm12_no_coast_die_in_gear_0() -> None:
    lab = straight_lab()
    lab.place(1, "A.0.start-left")
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step(row(0)),)))
    assert err.value.code == "coast_in_gear_0"


def test_rm13_brake_skips_gears_and_takes_no_space() -> None:
    lab = straight_lab(rules=rules(allowance={"gear": 6, "coast": 2, "brake": 2}))
    lab.place(1, row(0), gear=6)
    record, chance = lab.play([lab.step(row(1), 4, brakes=1)], hazards="..")
    assert record.end == lab.sid(row(1)) and record.gear_end == 4
    assert chance.rolled == [2, 2]  # the red die has 2 hazard faces, gear 4 too (RM-1)
    lab.place(1, row(0), gear=6)
    record, _ = lab.play([lab.step(row(1), 3, brakes=2)], hazards="...")
    assert record.gear_end == 3  # two brakes drop three gears
    lab.place(1, row(0), gear=6)
    with pytest.raises(PlanError, match="cannot follow"):
        check_plan(lab.ctx(), Plan((lab.step(row(1), 3, brakes=1),)))


def test_rm15_each_die_once_and_the_allowance() -> None:
    lab = straight_lab()
    lab.place(1, row(0), gear=1)
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step(row(1), 2), lab.step(row(2), 1), lab.step(row(3), 2))))
    assert err.value.code == "gear_used"
    coasts = [lab.step(row(r)) for r in (1, 2, 3)]
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan(tuple(coasts)))
    assert err.value.code == "no_coast_die" and err.value.params["step"] == 2
    lab.place(1, row(0), gear=5)
    with pytest.raises(PlanError) as err:  # one brake die in the box (RM-3)
        check_plan(lab.ctx(), Plan((lab.step(row(1), 3, brakes=1), lab.step(row(2), 1, brakes=1))))
    assert err.value.code == "no_brake_die"


def test_rm10_one_space_forward_same_lane_or_diagonal() -> None:
    lab = straight_lab()
    lab.place(1, row(0), gear=1)
    assert check_plan(lab.ctx(), Plan((lab.step(row(1, "right"), 2),)))
    for bad in (row(2), row(0, "right")):
        with pytest.raises(PlanError) as err:
            check_plan(lab.ctx(), Plan((lab.step(bad, 2),)))
        assert err.value.code == "not_connected"


# --- corners, drifts, shortcuts, jumps, fords: RM-16 to RM-21 ----------------------------

CORNER = {"kind": "corner", "turn": "left", "inside": [2, 2], "outside": [3, 3, 3]}


def corner_lab(**kwargs: Any) -> Lab:
    return Lab(
        lab_track({"kind": "straight", "rows": 2}, CORNER, {"kind": "straight", "rows": 2}),
        **kwargs,
    )


def test_rm16_a_lane_is_kept_to_the_corner_end() -> None:
    lab = corner_lab()
    lab.place(1, "A.2.inside0", gear=2)
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step("A.2.outside1", 1),)))
    assert err.value.code == "not_connected"


def test_rm17_overspeed_in_a_corner_is_a_loc_on_that_space() -> None:
    lab = corner_lab()
    lab.place(1, row(1), gear=2)
    record, _ = lab.play([lab.step("A.2.inside0", 3)], hazards=".", draws=["spin"])
    assert record.outcome == "spin" and record.loc_space == lab.sid("A.2.inside0")
    assert record.loc_gear == 3 and record.card == 60 and record.item == "0"
    car = lab.state.car(1)
    assert car.gear == 0 and car.on_track  # RM-36: a spun car stays and blocks
    lab.place(1, row(1), gear=2)
    record, _ = lab.play([lab.step("A.2.outside0", 3)], hazards=".")
    assert record.outcome == "" and record.card == 30


def test_rm17_a_coast_die_counts_at_the_gear_in_effect() -> None:
    lab = corner_lab()
    lab.place(1, row(1), gear=3)
    record, _ = lab.play([lab.step("A.2.inside0")], hazards=".", draws=["sisu"])
    assert record.outcome == "sisu" and record.item == "3s" and record.card == 30


def test_rm18_drift_area_counts_two_spaces() -> None:
    track = lab_track({"kind": "straight", "rows": 1}, {"kind": "drift", "rows": 1}, CORNER)
    lab = Lab(track)
    lab.place(1, "A.1.r0-left", gear=1)
    steps = [lab.step("A.2.r0-drift0", 2), lab.step("A.2.r0-drift1", 3), lab.step("A.3.outside0")]
    record, _ = lab.play(steps, hazards="...")
    assert record.end == lab.sid("A.3.outside0") and record.steps_done == 3
    with pytest.raises(PlanError):  # no changing the method inside the area
        check_plan(lab.ctx(), Plan((lab.step("A.3.outside1", 1),)))


SHORTCUT_CORNER = {**CORNER, "shortcut": {"limit": 2, "spaces": 1}}


def shortcut_lab(cars: int = 1) -> Lab:
    return Lab(
        lab_track(
            {"kind": "straight", "rows": 2}, SHORTCUT_CORNER, {"kind": "straight", "rows": 2}
        ),
        cars,
    )


def test_rm19_each_shortcut_entry_draws_a_token_coast_damage_next_turn() -> None:
    lab = shortcut_lab()
    lab.place(1, row(1), gear=1)
    record, chance = lab.play(
        [lab.step("A.2.shortcut0", 2), lab.step("A.3.r0-left")], hazards="..", draws=["coast"]
    )
    assert record.shortcut_draws == ("coast",) and chance.drawn == ["coast"]
    assert turn_dice(lab.rules, lab.state.car(1)).coast == 1


def test_rm19_mud_lowers_corner_limits_for_the_others_only() -> None:
    lab = shortcut_lab(cars=2)
    lab.place(1, row(1), gear=1)
    lab.play([lab.step("A.2.shortcut0", 2)], hazards=".", draws=["mud"])
    assert lab.state.mud == [(0, 1)]
    assert lab.ctx(1).limit(lab.sid("A.2.inside0")) == 2
    lab.place(2, row(0), gear=1)
    assert lab.ctx(2).limit(lab.sid("A.2.inside0")) == 1
    lab.state.car(2).space = lab.sid(row(1))
    lab.state.car(2).gear = 1
    record, _ = lab.play([lab.step("A.2.outside0", 2)], hazards=".", car=2)
    assert record.outcome == ""  # outside limit 3 - 1 = 2 still allows gear 2
    lab.state.car(2).space, lab.state.car(2).gear = lab.sid(row(1)), 1
    record, _ = lab.play([lab.step("A.2.inside0", 2)], hazards=".", draws=["spin"], car=2)
    assert record.outcome == "spin"  # inside limit 2 - 1 = 1


def test_rm19_shortcut_overspeed_is_a_loc() -> None:
    lab = shortcut_lab()
    lab.place(1, row(1), gear=2)
    record, _ = lab.play([lab.step("A.2.shortcut0", 3)], hazards=".", draws=["ok", "spin"])
    assert record.outcome == "spin" and record.shortcut_draws == ("ok",)


def jump_lab(n: int = 3, cars: int = 1) -> Lab:
    feature = {"row": 2, "lane": "left", "jump": n}
    return Lab(lab_track({"kind": "straight", "rows": 8, "features": [feature]}), cars)


def test_rm20_jump_below_n_is_an_ordinary_space() -> None:
    lab = jump_lab()
    lab.place(1, row(1), gear=1)
    record, _ = lab.play([lab.step(row(2), 2)], hazards=".")
    assert record.end == lab.sid(row(2))
    lab.place(1, row(1), gear=1)
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step(row(2), 2, landing=row(3)),)))
    assert err.value.code == "no_jump"


def test_rm20_jump_at_n_one_extra_space() -> None:
    lab = jump_lab()
    lab.place(1, row(1), gear=2)
    record, _ = lab.play([lab.step(row(2), 3, landing=row(3, "right"))], hazards="x")
    assert record.end == lab.sid(row(3, "right")) and record.outcome == ""
    lab.place(1, row(1), gear=2)
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step(row(2), 3, landing=row(4)),)))
    assert err.value.code == "jump_landing"


def test_rm20_jump_at_n_plus_1_loc_only_on_a_hazard() -> None:
    lab = jump_lab(3, cars=2)
    lab.place(2, row(3))  # flown over: ignored
    lab.place(1, row(1), gear=3)
    record, _ = lab.play([lab.step(row(2), 4, landing=row(4))], hazards=".")
    assert record.end == lab.sid(row(4)) and record.outcome == ""
    lab.place(1, row(1), gear=3)
    record, _ = lab.play([lab.step(row(2), 4, landing=row(4))], hazards="x", draws=["sisu"])
    assert record.outcome == "sisu" and record.loc_space == lab.sid(row(4)) and record.item == "4s"


def test_rm20_jump_at_n_plus_2_always_loses_control() -> None:
    lab = jump_lab(3)
    lab.place(1, row(1), gear=4)
    record, _ = lab.play([lab.step(row(2), 5, landing=row(4))], hazards=".", draws=["crash"])
    assert record.outcome == "crash" and record.loc_gear == 5


def test_rm20_landing_must_be_free() -> None:
    lab = jump_lab(3, cars=2)
    lab.place(2, row(4), gear=6)
    lab.place(1, row(1), gear=3)
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step(row(2), 4, landing=row(4)),)))
    assert err.value.code == "jump_occupied"


def ford_lab() -> Lab:
    return Lab(lab_track({"kind": "straight", "rows": 6, "features": [FORD]}))


FORD = {"row": 2, "lane": "both", "ford": True}


def test_rm21_ford_takes_a_coast_die_or_gear_1_without_brake() -> None:
    lab = ford_lab()
    lab.place(1, row(1), gear=3)
    assert not check_plan(lab.ctx(), Plan((lab.step(row(2)),)))[0].ford_stop
    lab.place(1, row(1), gear=2)
    assert not check_plan(lab.ctx(), Plan((lab.step(row(2), 1),)))[0].ford_stop
    for gear, step in ((1, lab.step(row(2), 2)), (3, lab.step(row(2), 1, brakes=1))):
        lab.place(1, row(1), gear=gear)
        (effect,) = check_plan(lab.ctx(), Plan((step, lab.step(row(3), 3))))
        # A wrong die is no illegal plan: it ends the move before the ford, in the gear in
        # effect; it is not rolled and the dice after it are never used.
        assert effect.ford_stop and effect.end == lab.sid(row(1)) and effect.dice == ()
        assert effect.gear_after == gear


@pytest.mark.parametrize("big", [False, True])
def test_rm21_a_wrong_die_on_a_ford_ends_the_move_in_the_current_gear(big: bool) -> None:
    lab = ford_lab()
    lab.place(1, row(0), gear=1)
    steps = [lab.step(row(1), 2), lab.step(row(2), 3), lab.step(row(3), 4)]
    record, chance = lab.play(steps, hazards=".", big=big)
    assert record.ford_stop and record.end == lab.sid(row(1)) and record.gear_end == 2
    assert record.steps_done == 1 and chance.rolled == [1]  # only the gear-2 die is rolled
    assert record.card == RallyRules().card_seconds(2) and record.item == "2"
    assert record.earned == (1 if big else 0)  # RM-29: one token per die thrown
    replay = record.to_json(lab.track)
    assert replay["ford_stop"] and [s["gear"] for s in replay["plan"]] == [2, 3, 4]


def test_rm21_seeded_stage_with_a_driver_that_ignores_fords() -> None:
    # Regression: a plan with a wrong die on a ford used to be refused as illegal, so a stage
    # with such a driver raised PlanError; now the move ends before the ford and the car goes on.
    track = lab_track({"kind": "straight", "rows": 8, "features": [FORD]})
    ford = {i for i, f in enumerate(track.ford) if f}
    stops = 0
    for seed in range(20):
        entries = [CarEntry(1), CarEntry(2)]
        run = simulate_stage(track, entries, RallyRules(), random.Random(seed), driver=Flat())
        assert all(c.status == "finished" for c in run.cars)
        assert check_stage(track, entries, RallyRules(), run.replay_json()).violations == []
        for turn in run.replay:
            if not turn["ford_stop"]:
                continue
            stops += 1
            end = track.labels.index(turn["to"])
            assert ford & set(track.succ[end]) and not turn["loc"]
            done = turn["plan"][: turn["steps"]]
            assert turn["gear_end"] == (done[-1]["gear"] if done else turn["gear_start"])
    assert stops > 0


class Flat:
    """A driver that climbs a gear per die straight ahead, ignoring fords (RM-21 test)."""

    def plan(self, ctx: TurnContext) -> Plan:
        track, car = ctx.track, ctx.car
        cur, gear = car.space, car.gear
        steps: list[Step] = []
        while len(steps) < 3 and track.kind[cur] != FINISH:
            nxt = [s for s in track.succ[cur] if not ctx.can_enter(cur, s, gear + 1)]
            if not nxt:
                break
            if track.ford[nxt[0]] and not steps and gear >= 1:
                steps.append(Step(nxt[0]))  # right before the ford: a coast die crosses it
            elif gear < 6:
                gear += 1
                steps.append(Step(nxt[0], gear))
            elif sum(s.coast for s in steps) < ctx.dice.coast:
                steps.append(Step(nxt[0]))  # top gear: hold it with coast dice
            else:
                break
            cur = nxt[0]
        return Plan(tuple(steps))

    def before_die(self, ctx: TurnContext, roll: RollState) -> str:
        return "secure" if roll.hazards + 1 >= 3 and roll.tokens > roll.secured else "roll"


# --- other cars: RM-22 to RM-24 ------------------------------------------------------------


def test_rm22_entering_beside_a_car_needs_its_gear() -> None:
    lab = Lab(lab_track({"kind": "straight", "rows": 8}), cars=2)
    lab.place(2, row(3, "right"), gear=4)
    lab.place(1, row(2), gear=2)
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step(row(3), 3),)))
    assert err.value.code == "overtake_gear"
    lab.place(1, row(2), gear=3)
    assert check_plan(lab.ctx(), Plan((lab.step(row(3), 4),)))
    # once alongside, any gear will do
    lab.place(1, row(3), gear=2)
    assert check_plan(lab.ctx(), Plan((lab.step(row(4), 1),)))


def test_rm23_a_corner_is_entered_by_the_lane_of_the_car_in_it() -> None:
    lab = corner_lab(cars=2)
    lab.place(2, "A.2.inside1", gear=2)
    lab.place(1, row(1), gear=1)
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step("A.2.outside0", 2),)))
    assert err.value.code == "area_method"
    assert check_plan(lab.ctx(), Plan((lab.step("A.2.inside0", 2),)))


def test_rm24_no_entering_cars_or_obstacles_but_crashed_cars_are_off_track() -> None:
    rock = {"row": 2, "lane": "right", "obstacle": True}
    lab = Lab(lab_track({"kind": "straight", "rows": 6, "features": [rock]}), cars=2)
    lab.place(2, row(2), gear=1)
    lab.place(1, row(1), gear=1)
    for target, code in ((row(2), "occupied"), (row(2, "right"), "obstacle")):
        with pytest.raises(PlanError) as err:
            check_plan(lab.ctx(), Plan((lab.step(target, 2),)))
        assert err.value.code == code
    lab.state.car(2).on_track = False  # crashed (RM-36)
    assert check_plan(lab.ctx(), Plan((lab.step(row(2), 2),)))


# --- rolling, hazards and tokens: RM-25 to RM-31 --------------------------------------------


def test_rm26_rm27_third_hazard_is_a_loc_on_that_die_in_its_gear() -> None:
    lab = straight_lab()
    lab.place(1, "A.0.start-left")
    steps = [lab.step(row(r), r + 1) for r in range(5)]
    record, chance = lab.play(steps, hazards="xx.x", draws=["spin"])
    assert record.loc_space == lab.sid(row(3)) and record.loc_gear == 4
    assert len(chance.rolled) == 4  # the fifth die is never rolled
    assert chance.rolled == [1, 1, 2, 2]  # RM-1 hazard faces of gears 1 to 4


def test_rm25_one_at_a_time_driver_may_stop() -> None:
    lab = straight_lab()
    lab.place(1, "A.0.start-left")
    steps = [lab.step(row(r), r + 1) for r in range(4)]
    record, _ = lab.play(steps, hazards="xx", decisions=["roll", "roll", "stop"])
    assert record.stopped and record.end == lab.sid(row(1))
    assert record.card == 40 and record.item == "2"  # RM-33: gear of the last die rolled


def test_rm28_rm29_big_attack_earns_tokens_even_with_a_loc() -> None:
    lab = straight_lab()
    lab.place(1, row(0), gear=2)
    steps = [lab.step(row(1), 3), lab.step(row(2)), lab.step(row(3), 4), lab.step(row(4))]
    record, _ = lab.play(steps, hazards="x.x.", big=True)
    assert record.outcome == "" and record.earned == 4 and lab.state.car(1).tokens == 4
    lab.place(1, row(0), gear=2, tokens=0)
    record, _ = lab.play(steps, hazards="xxx.", big=True, draws=["spin"])
    assert record.loc_space == lab.sid(row(3)) and record.loc_gear == 4  # planned order
    assert record.earned == 4


def test_rm29_brake_dice_earn_nothing_and_the_loc_switch() -> None:
    lab = straight_lab(rules=rules(tokens_on_big_attack_loc=False))
    lab.place(1, row(0), gear=4)
    steps = [lab.step(row(1), 2, brakes=1), lab.step(row(2), 3)]
    record, _ = lab.play(steps, hazards="...", big=True)
    assert record.earned == 2
    lab.place(1, row(0), gear=4, tokens=0)
    record, _ = lab.play(steps, hazards="xxx", big=True, draws=["spin"])
    assert record.outcome == "spin" and record.earned == 0


def test_rm30_securing_costs_one_then_two_tokens() -> None:
    lab = straight_lab()
    lab.place(1, row(0), gear=2, tokens=4)
    steps = [lab.step(row(1), 3), lab.step(row(2), 4), lab.step(row(3), 5)]
    record, chance = lab.play(steps, hazards="x", decisions=["roll", "secure", "secure"])
    assert record.spent == 3 and lab.state.car(1).tokens == 1
    assert [r.secured for r in record.rolls] == [False, True, True]
    assert len(chance.rolled) == 1  # secured dice are not rolled
    lab.place(1, row(0), gear=2, tokens=2)
    with pytest.raises(PlanError) as err:
        lab.play(steps[:2], hazards="", decisions=["secure", "secure"])
    assert err.value.code == "not_enough_tokens"


# --- end of turn and outcomes: RM-32 to RM-41 ------------------------------------------------


def test_rm33_coast_only_turn_keeps_the_card_and_gear_0_turn_costs_the_loc_card() -> None:
    lab = straight_lab()
    lab.place(1, row(0), gear=5)
    record, _ = lab.play([lab.step(row(1)), lab.step(row(2))], hazards="..")
    assert record.card == 15 and record.item == "5"
    lab.place(1, "A.0.start-left")
    record, _ = lab.play([])
    assert record.card == 60 and record.item == "0"


def test_rm9_the_leader_rolls_orange_coast_dice() -> None:
    lab = straight_lab()
    lab.place(1, row(0), gear=3)
    _, chance = lab.play([lab.step(row(1))], hazards=".", leader=True)
    assert chance.rolled == [2]
    lab.place(1, row(0), gear=3)
    _, chance = lab.play([lab.step(row(1))], hazards=".")
    assert chance.rolled == [1]


def test_rm36_rm38_crash_damage_by_gear_and_danger() -> None:
    lab = Lab(lab_track({"kind": "straight", "rows": 8}, danger="red"), rules=rules(hazard_limit=2))
    lab.place(1, row(0), gear=4)
    steps = [lab.step(row(1), 5), lab.step(row(2), 6)]
    record, _ = lab.play(
        steps, hazards="xx", draws=["crash", "gear", "brake", "green_flag", "coast"]
    )
    assert record.outcome == "crash" and record.loc_gear == 6 and record.card == 60
    assert record.damage == ("gear", "brake", "green_flag", "coast")  # gear 6, red: 4 draws
    car = lab.state.car(1)
    assert not car.on_track and car.gear == 0
    dice = turn_dice(lab.rules, car)
    assert (dice.gear, dice.coast, dice.brake) == (5, 1, 0)  # RM-39, RM-40


def test_rm38_no_damage_on_a_tile_without_danger_level() -> None:
    lab = Lab(lab_track({"kind": "straight", "rows": 8}), rules=rules(hazard_limit=2))
    lab.place(1, row(0), gear=4)
    steps = [lab.step(row(1), 5), lab.step(row(2), 6)]
    record, chance = lab.play(steps, hazards="xx", draws=["crash"])
    assert record.damage == () and chance.drawn == ["crash"]


def test_rm36_crashed_car_returns_on_its_space_or_behind() -> None:
    lab = Lab(lab_track({"kind": "straight", "rows": 8}), cars=3)
    crashed = lab.place(1, row(3))
    crashed.on_track = False
    lab.place(2, row(3), gear=2)
    lab.place(3, row(2, "right"), gear=2)
    return_after_crash(lab.state, crashed)
    # its space is taken: the nearest free space behind it, not the one beside it
    assert crashed.on_track and crashed.space == lab.sid(row(2))


def test_rm40_no_gear_dice_left_retires() -> None:
    lab = Lab(
        lab_track({"kind": "straight", "rows": 8}, danger="red"),
        rules=rules(hazard_limit=1, allowance={"gear": 1, "coast": 2, "brake": 1}),
    )
    lab.place(1, row(0), gear=5)
    draws = ["crash", "gear", "green_flag", "green_flag", "green_flag"]
    record, _ = lab.play([lab.step(row(1), 6)], hazards="x", draws=draws)
    assert record.retired and lab.state.car(1).retired
    assert lab.state.car(1).retire_reason == "no_gear_dice"


def test_rm41_crossing_the_line_finishes_and_counts_the_card() -> None:
    lab = Lab(lab_track({"kind": "straight", "rows": 2}))
    lab.place(1, row(1), gear=4)
    record, _ = lab.play([lab.step("A.2.finish-left", 5)], hazards=".")
    assert record.finished and record.card == 15 and lab.state.car(1).finished
    lab.place(1, "A.0.start-left", gear=3)
    lab.state.car(1).finished = False
    plan = (
        lab.step(row(0), 4),
        lab.step(row(1), 5),
        lab.step("A.2.finish-left", 6),
        lab.step("A.2.finish-right"),
    )
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan(plan))
    assert err.value.code == "after_finish"


# --- rules re-checked: RM-20 coast jumps and corner landings, RM-23 passing by a jump ---------


def test_rm20_a_coast_die_jumping_at_n_plus_1_loses_control_on_its_hazard() -> None:
    lab = jump_lab(3)
    lab.place(1, row(1), gear=4)  # a coast die jumps at the gear in effect: 4 = N + 1
    record, _ = lab.play([lab.step(row(2), landing=row(4))], hazards="x", draws=["spin"])
    assert record.outcome == "spin" and record.loc_space == lab.sid(row(4))
    assert record.loc_gear == 4
    lab.place(1, row(1), gear=4)
    record, _ = lab.play([lab.step(row(2), landing=row(4))], hazards=".")
    assert record.outcome == "" and record.end == lab.sid(row(4))
    lab.place(1, row(1), gear=4)  # the same in a Big Attack
    record, _ = lab.play([lab.step(row(2), landing=row(4))], hazards="x", big=True, draws=["spin"])
    assert record.outcome == "spin" and record.earned == 1


JUMP_CORNER = {
    "kind": "corner",
    "turn": "left",
    "inside": [4, 4],
    "outside": [5, 5, 5],
    "features": [{"lane": "outside", "index": 1, "jump": 4}],
}


def test_rm20_a_jump_landing_in_a_corner_may_take_either_lane() -> None:
    lab = Lab(lab_track({"kind": "straight", "rows": 2}, JUMP_CORNER, STRAIGHT_2), cars=2)
    lab.place(1, "A.2.outside0", gear=3)
    # One extra space reaches outside2; inside1 is beside it, in the other lane.
    for landing in ("A.2.outside2", "A.2.inside1"):
        effects = check_plan(lab.ctx(), Plan((lab.step("A.2.outside1", 4, landing=landing),)))
        assert effects[0].end == lab.sid(landing)
    with pytest.raises(PlanError) as err:  # not further than the jump reaches
        check_plan(lab.ctx(), Plan((lab.step("A.2.outside1", 4, landing="A.3.r0-left"),)))
    assert err.value.code == "jump_landing"
    lab.place(2, "A.2.outside2", gear=1)  # RM-23: a car in the corner keeps the lane
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((lab.step("A.2.outside1", 4, landing="A.2.inside1"),)))
    assert err.value.code == "jump_area_method"


STRAIGHT_2 = {"kind": "straight", "rows": 2}
LONG_JUMP_CORNER = {
    "kind": "corner",
    "turn": "left",
    "inside": [3, 3, 3],
    "outside": [4, 4, 4, 4],
    "features": [{"lane": "inside", "index": 0, "jump": 2}],
}


def test_rm23_a_jump_may_not_pass_a_car_in_a_corner() -> None:
    lab = Lab(lab_track(STRAIGHT_2, LONG_JUMP_CORNER, STRAIGHT_2), cars=2)
    lab.place(2, "A.2.inside1", gear=1)
    lab.place(1, row(1), gear=2)
    jump = lab.step("A.2.inside0", 3, landing="A.2.inside2")  # g = N + 1 flies over inside1
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((jump,)))
    assert err.value.code == "jump_passes"
    lab.state.car(2).on_track = False  # a crashed car is off the track (RM-36)
    assert check_plan(lab.ctx(), Plan((jump,)))[0].end == lab.sid("A.2.inside2")
    lab.state.car(2).on_track = True
    lab.state.car(2).space = lab.sid("A.2.inside2")  # ahead of the landing: it is followed
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((jump,)))
    assert err.value.code == "jump_occupied"
    # On a straight, RM-20 still ignores a car flown over (test_rm20_jump_at_n_plus_1_...).


JUMP_BEFORE_DRIFT = {
    "kind": "straight",
    "rows": 2,
    "features": [{"row": 1, "lane": "left", "jump": 1}],
}


def test_rm23_a_jump_may_not_pass_a_drifting_car() -> None:
    track = lab_track(JUMP_BEFORE_DRIFT, {"kind": "drift", "rows": 1}, CORNER, STRAIGHT_2)
    lab = Lab(track, cars=2)
    lab.place(2, "A.2.r0-drift1", gear=1)
    lab.place(1, row(0), gear=1)
    # g = N + 1 on row 1 flies over the drift area into the corner: that passes car 2.
    jump = lab.step(row(1), 2, landing="A.3.outside0")
    with pytest.raises(PlanError) as err:
        check_plan(lab.ctx(), Plan((jump,)))
    assert err.value.code == "jump_passes"
    lab.state.car(2).space = lab.sid("A.2.r0-left")  # not drifting: RM-20 ignores it
    assert check_plan(lab.ctx(), Plan((jump,)))[0].end == lab.sid("A.3.outside0")
