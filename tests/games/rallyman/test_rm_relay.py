"""RM-28: after a Big Attack that loses control, the thrown dice may be laid again
(``big_attack_loc_policy = "free"``): the engine's checks and the automatic driver's choice."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from rm_lab import Lab, lab_track

from games.rallyman.dice import ScriptedChance
from games.rallyman.engine import Plan, Step, TurnContext
from games.rallyman.errors import PlanError
from games.rallyman.layout import load_layout
from games.rallyman.policy import AutoDriver
from games.rallyman.simulate import CarEntry, simulate_stage
from games.rallyman.track import build_track
from games.rallyman.turn import Relay, Throw, TurnRecord, play_turn
from scoring.params import build_rules
from scoring.rally.rules import RallyRules

FREE = build_rules(RallyRules, {"big_attack_loc_policy": "free"})[0]
STRAIGHT = {"kind": "straight", "rows": 8}


def row(r: int, lane: str = "left") -> str:
    return f"A.1.r{r}-{lane}"


def lab(danger: str = "none", rules: RallyRules = FREE) -> Lab:
    out = Lab(lab_track(STRAIGHT, danger=danger), rules=rules)
    out.place(1, row(0), gear=2)
    return out


def planned(lab: Lab) -> tuple[Step, ...]:
    """Gear 2 -> 3, coast, coast, 4, 5: the third hazard (second coast die) stops it at row 3."""
    return (
        lab.step(row(1), 3),
        lab.step(row(2)),
        lab.step(row(3)),
        lab.step(row(4), 4),
        lab.step(row(5), 5),
    )


HAZARDS = "xxx.."  # gear 3, coast, coast: hazards; gear 4, gear 5: safe


def attack(
    lab: Lab,
    relay: Relay | None,
    draws: Sequence[str] = ("sisu",),
    seen: list[Throw] | None = None,
) -> TurnRecord:
    chance = ScriptedChance(HAZARDS, draws)

    def relayer(ctx: TurnContext, throw: Throw) -> Relay | None:
        if seen is not None:
            seen.append(throw)
        return relay

    record = play_turn(lab.ctx(), Plan(planned(lab), big_attack=True), chance, None, relayer)
    assert chance.unused == (0, 0)
    return record


def further(lab: Lab) -> Relay:
    """Safe dice first: 3 (hazard), 4, 5, then both coast dice (hazards) -> LoC at row 5."""
    steps = (
        lab.step(row(1), 3),
        lab.step(row(2), 4),
        lab.step(row(3), 5),
        lab.step(row(4)),
        lab.step(row(5)),
    )
    return Relay(steps, (0, 0, 0, 1, 1))


def test_rm28_planned_order_without_a_relay() -> None:
    lab_ = lab()
    seen: list[Throw] = []
    record = attack(lab_, None, seen=seen)
    assert record.loc_space == lab_.sid(row(3)) and record.loc_gear == 3 and not record.relaid
    throw = seen[0]
    assert throw.gear == ((3, True), (4, False), (5, False))
    assert throw.coast == (True, True) and throw.planned_loc == 2
    assert record.earned == 5  # RM-29: every gear and coast die thrown


def test_rm28_the_dice_may_be_reordered_and_moved() -> None:
    lab_ = lab()
    record = attack(lab_, further(lab_))
    assert record.relaid and record.steps_done == 5
    assert record.loc_space == lab_.sid(row(5)) and record.loc_gear == 5
    assert record.item == "5s" and record.card == 15  # SISU in gear 5 (RM-36)
    assert record.earned == 5 and record.to_json(lab_.track)["relaid"] is True


def test_rm28_dice_may_be_dropped() -> None:
    lab_ = lab()
    steps = (lab_.step(row(1, "right"), 3), lab_.step(row(2)), lab_.step(row(3, "right")))
    record = attack(lab_, Relay(steps, (0, 1, 1)))
    assert record.loc_space == lab_.sid(row(3, "right")) and record.steps_done == 3


def test_rm28_the_planned_policy_ignores_a_relay() -> None:
    lab_ = lab(rules=RallyRules())
    seen: list[Throw] = []
    record = attack(lab_, further(lab_), seen=seen)
    assert not record.relaid and record.loc_space == lab_.sid(row(3)) and seen == []


@pytest.mark.parametrize(
    ("relay", "code"),
    [
        # 3 (hazard), 4, 5: one hazard only, no LoC: the layout must still produce one.
        (
            lambda L: Relay((L.step(row(1), 3), L.step(row(2), 4), L.step(row(3), 5)), (0, 0, 0)),
            "relay_no_loc",
        ),
        # nothing may follow the die that loses control
        (
            lambda L: Relay(
                (L.step(row(1), 3), L.step(row(2)), L.step(row(3)), L.step(row(4), 4)),
                (0, 1, 1, 0),
            ),
            "relay_after_loc",
        ),
        # the gear-2 die was not thrown (gear 3 -> brake-free 2)
        (
            lambda L: Relay(
                (L.step(row(1), 3), L.step(row(2), 2), L.step(row(3)), L.step(row(4))),
                (0, 0, 1, 1),
            ),
            "relay_not_thrown",
        ),
        # both coast dice showed a hazard: none is safe
        (
            lambda L: Relay(
                (
                    L.step(row(1), 3),
                    L.step(row(2)),
                    L.step(row(3), 4),
                    L.step(row(4)),
                    L.step(row(5), 5),
                ),
                (0, 0, 0, 1, 0),
            ),
            "relay_not_thrown",
        ),
        (lambda L: Relay((), ()), "relay_empty"),
        (lambda L: Relay((L.step(row(1), 3),), (2,)), "relay_hazards"),
        # the planning rules still hold: gear 3 cannot follow gear 5 without a brake die
        (
            lambda L: Relay((L.step(row(1), 4), L.step(row(2), 5), L.step(row(3), 3)), (0, 0, 0)),
            "gear_step",
        ),
    ],
)
def test_rm28_a_relay_uses_thrown_dice_legally_and_ends_in_a_loc(
    relay: Callable[[Lab], Relay], code: str
) -> None:
    lab_ = lab()
    with pytest.raises(PlanError) as err:
        attack(lab_, relay(lab_), draws=())
    assert err.value.code == code
    assert lab_.state.car(1).space == lab_.sid(row(0)) and lab_.state.car(1).tokens == 0


# --- the automatic driver's choice -----------------------------------------------------------


def driver_choice(danger: str) -> TurnRecord:
    lab_ = lab(danger)
    chance = ScriptedChance(HAZARDS, ["crash"] + ["green_flag"] * 4)
    plan = Plan(planned(lab_), big_attack=True)
    return play_turn(lab_.ctx(), plan, chance, None, AutoDriver().relay)


def test_driver_loses_control_further_and_faster_where_crashes_cost_nothing() -> None:
    record = driver_choice("none")
    # Safe dice first: two rows further, and a gear-5 card (15 s) if SISU; no damage on the tile.
    assert record.relaid and record.loc_gear == 5
    assert lab_track(STRAIGHT).progress[record.loc_space] == 6.0  # row 5's front edge


def test_driver_keeps_the_low_gear_loc_on_a_red_tile() -> None:
    record = driver_choice("red")
    # Gear 5 on red draws 3 damage tokens against 1 in gear 3 (RM-38): not worth two rows.
    assert record.loc_gear == 3 and record.damage == ("green_flag",)
    assert lab_track(STRAIGHT).progress[record.loc_space] == 4.0  # row 3's front edge


def test_free_policy_stages_relay_and_still_end() -> None:
    track = build_track(load_layout("gravel-flats"))
    relaid = 0
    for seed in range(20):
        run = simulate_stage(track, [CarEntry(c) for c in range(1, 7)], FREE, random.Random(seed))
        assert all(c.status == "finished" for c in run.cars)
        relaid += sum(t["relaid"] for t in run.replay)
    assert relaid > 0
