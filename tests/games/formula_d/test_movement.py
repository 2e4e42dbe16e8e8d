"""Gears, downshifts, lane changes, corners, overshooting, braking and blocking (FD-12 to FD-28)."""

from __future__ import annotations

import pytest

from games.formula_d import BLACK, FormulaDError
from games.formula_d.moves import MoveContext, move_options
from games.formula_d.track import Track
from scoring.formula_d.rules import FormulaDRules
from tests.games.formula_d.builders import (
    MONACO,
    SEG,
    L,
    M,
    R,
    at,
    car,
    ending_at,
    furthest,
    race_with,
)


def test_upshift_one_gear_and_downshift_at_most_four() -> None:
    # FD-13 / FD-14: from 6th the allowed gears are 2..6 (6th -> 1st is forbidden).
    race, _, _ = race_with([{"pos": at("S5", L, 1), "gear": 6}, {"pos": at("S1", L, 1)}])
    assert race.allowed_gears(car(race, 1)) == [2, 3, 4, 5, 6]
    assert race.allowed_gears(car(race, 2)) == [1, 2]


@pytest.mark.parametrize(
    ("start", "gear", "lost"), [(5, 4, 0), (6, 4, 1), (4, 1, 2), (6, 3, 2), (6, 2, 3)]
)
def test_downshift_costs(start: int, gear: int, lost: int) -> None:
    # FD-14 table: the first gear dropped is free, each further gear costs 1 WP.
    race, dice, _ = race_with(
        [{"pos": at("S5", M, 1), "gear": start, "wp": 10}],
        [(gear, {1: 1, 2: 2, 3: 4, 4: 7}[gear])],
        gears={1: [gear]},
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 10 - lost
    assert dice.remaining == 0


def test_downshift_cost_taking_last_wp_eliminates() -> None:
    race, _, _ = race_with([{"pos": at("S5", M, 1), "gear": 6, "wp": 3}], gears={1: [2]})
    race.play_move(car(race, 1))
    assert car(race, 1).status == "eliminated"


def test_straight_move_uses_the_exact_roll() -> None:
    # FD-15: a free car moves exactly the roll; S1 is 18 spaces in every lane.
    race, _, _ = race_with([{"pos": at("S1", M, 1), "gear": 2}], [(3, 6)], gears={1: [3]})
    race.play_move(car(race, 1))
    assert car(race, 1).pos[0] == SEG["S1"] and car(race, 1).pos[2] == 6
    assert car(race, 1).wp == 18


def test_at_most_two_lane_changes_on_a_straight() -> None:
    # FD-16: from L, lane R is reachable (two changes) but a third change is never offered.
    track = Track(MONACO)
    ctx = MoveContext(at("S1", L, 1), -1, 0, False, False, -1, 2, True, 1)
    ends = {o.end for o in move_options(track, ctx, 4, set())}
    assert at("S1", R, 5) in ends
    zero = MoveContext(at("S1", L, 1), -1, 0, False, False, -1, 0, True, 1)
    assert {o.end[1] for o in move_options(track, zero, 4, set())} == {L}


def test_no_zig_zag_unless_overtaking() -> None:
    # FD-16: leaving lane M and coming back is allowed only to go round a car.
    track = Track(MONACO)
    ctx = MoveContext(at("S1", M, 1), -1, 0, False, False, -1, 2, True, 1)
    free = move_options(track, ctx, 4, set())
    assert all(len({p[1] for p in o.path}) == 1 or o.end[1] != M for o in free)
    blocker = {at("S1", M, 3)}
    around = move_options(track, ctx, 4, blocker)
    back = [o for o in around if o.end == at("S1", M, 5)]
    assert back and any(p[1] != M for p in back[0].path)


def test_no_passing_through_a_car_in_a_single_lane_path() -> None:
    # FD-15/FD-27: with every lane closed ahead, the car moves as far as it can and brakes.
    cars = [
        {"pos": at("S1", M, 3), "gear": 3},
        {"pos": at("S1", L, 6)},
        {"pos": at("S1", M, 6)},
        {"pos": at("S1", R, 6)},
    ]
    rolls = [(3, 8)] + [(BLACK, 20)] * 2  # collision tests (mover, car ahead) all pass
    race, dice, policy = race_with(cars, rolls, gears={1: [3]})
    race.play_move(car(race, 1))
    mover = car(race, 1)
    assert mover.pos[2] == 4  # right behind the wall, 2 spaces moved out of 8
    assert mover.wp == 18 - 6  # FD-27: braking for the 6 spaces it could not use
    assert all(o.forced == 6 for o in policy.seen[0])
    assert dice.remaining == 0


def test_blocking_cascade_each_car_brakes_behind_the_one_ahead() -> None:
    # Two cars queue behind a wall: the second is blocked by the first, which was blocked too.
    cars = [
        {"pos": at("S1", L, 2), "gear": 2},
        {"pos": at("S1", L, 1), "gear": 2},
        {"pos": at("S1", L, 8)},
        {"pos": at("S1", M, 8)},
        {"pos": at("S1", R, 8)},
    ]
    rolls = [(3, 8), (BLACK, 20), (BLACK, 20)]  # mover + the car ahead
    rolls += [(3, 8), (BLACK, 20), (BLACK, 20), (BLACK, 20)]  # mover, ahead, beside
    race, dice, _ = race_with(cars, rolls, gears={1: [3], 2: [3]})
    race.play_move(car(race, 1))
    race.play_move(car(race, 2))
    first, second = car(race, 1), car(race, 2)
    assert first.pos[2] == 6 and first.wp == 18 - 3
    assert second.pos[2] == 6 and second.pos[1] != first.pos[1]
    assert second.wp == 18 - 2  # 6 of 8 spaces (it started one space further back)
    assert dice.remaining == 0


def test_voluntary_braking_costs_one_wp_per_space() -> None:
    # FD-26.
    race, _, _ = race_with(
        [{"pos": at("S1", M, 1), "gear": 3}],
        [(3, 8)],
        gears={1: [3]},
        pick=ending_at(at("S1", M, 6)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 18 - 3


def test_overshoot_by_one_stop_costs_wp_per_space_beyond() -> None:
    # FD-22: C2 needs 1 stop; from S1 L17, 8 spaces = 1 + 5 in C2 + 2 beyond its exit.
    race, _, _ = race_with(
        [{"pos": at("S1", L, 17), "gear": 3}],
        [(3, 8)],
        gears={1: [3]},
        pick=ending_at(at("S2", L, 2)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 18 - 2
    assert car(race, 1).status == "running"


def test_braking_into_the_corner_instead_of_overshooting() -> None:
    # FD-25: same cost per space, but the stop counts.
    race, _, _ = race_with(
        [{"pos": at("S1", L, 17), "gear": 3}],
        [(3, 8)],
        gears={1: [3]},
        pick=ending_at(at("C2", L, 5)),
    )
    race.play_move(car(race, 1))
    mover = car(race, 1)
    assert mover.wp == 18 - 2 and mover.corner == SEG["C2"] and mover.stops == 1


def test_overshoot_two_stops_short_eliminates() -> None:
    # FD-22: C8 needs 2 stops; leaving it with none is elimination at once.
    race, _, _ = race_with(
        [{"pos": at("S7", L, 3), "gear": 4}],
        [(4, 12)],
        gears={1: [4]},
        pick=lambda opts: next(o for o in opts if o.overshoot_out),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).status == "eliminated"
    assert car(race, 1).elimination_order == 1


def test_one_stop_short_in_a_two_stop_corner_costs_wp() -> None:
    # In C8 with 1 of 2 stops made, leaving it is one stop short: WP per space beyond
    # (C8 lane L has 9 spaces: 1 space left in the corner, then 3 beyond its exit line).
    race, _, _ = race_with(
        [{"pos": at("C8", L, 8), "gear": 2, "corner_stops": 1}], [(2, 4)], gears={1: [2]}
    )
    race.play_move(car(race, 1))
    mover = car(race, 1)
    assert mover.status == "running" and mover.wp == 18 - 3


def test_required_stops_made_leave_freely() -> None:
    # FD-19.
    race, _, _ = race_with(
        [{"pos": at("C8", L, 8), "gear": 2, "corner_stops": 2}], [(2, 4)], gears={1: [2]}
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 18 and car(race, 1).pos[0] == SEG["S8"]


def test_stops_accumulate_in_a_corner() -> None:
    # FD-18: each move ending inside the corner is a stop.
    race, _, _ = race_with(
        [{"pos": at("S4", M, 3), "gear": 2}], [(2, 2), (2, 2)], gears={1: [2, 2]}
    )
    race.play_move(car(race, 1))
    assert car(race, 1).corner == SEG["C5"] and car(race, 1).stops == 1
    race.play_move(car(race, 1))
    assert car(race, 1).stops == 2


def test_overshoot_into_the_next_corner_voids_that_stop() -> None:
    # FD-24: C2 -> S2 (2 spaces) -> C3. Overshooting C2 into C3 gives no stop in C3.
    race, _, _ = race_with(
        [{"pos": at("C2", L, 4), "gear": 2}],
        [(2, 4)],
        gears={1: [2]},
        pick=ending_at(at("C3", L, 1)),
    )
    race.play_move(car(race, 1))
    mover = car(race, 1)
    assert mover.pos[0] == SEG["C3"] and mover.stops == 0
    assert mover.wp == 18 - 3  # 2 spaces of S2 and 1 of C3 beyond C2's exit line


def test_ordinary_move_into_the_next_corner_counts() -> None:
    race, _, _ = race_with(
        [{"pos": at("C2", L, 4), "gear": 2, "corner_stops": 1}],
        [(2, 4)],
        gears={1: [2]},
        pick=ending_at(at("C3", L, 1)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).pos[0] == SEG["C3"] and car(race, 1).stops == 1


def test_overshoot_stop_voids_always_voids_ordinary_stops_too() -> None:
    rules = FormulaDRules(overshoot_stop_voids="always")
    race, _, _ = race_with(
        [{"pos": at("C2", L, 4), "gear": 2, "corner_stops": 1}],
        [(2, 4)],
        gears={1: [2]},
        rules=rules,
        pick=ending_at(at("C3", L, 1)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).stops == 0


def test_exit_lane_lock_after_a_corner() -> None:
    # FD-21: no lane change after crossing C1's exit line in the same move.
    track = Track(MONACO)
    ctx = MoveContext(at("C1", M, 5), SEG["C1"], 1, False, False, -1, 2, True, 1)
    assert {o.end[1] for o in move_options(track, ctx, 4, set())} == {M}
    loose = MoveContext(at("C1", M, 5), SEG["C1"], 1, False, False, -1, 2, False, 1)
    assert {o.end[1] for o in move_options(track, loose, 4, set())} == {L, M, R}


def test_overshooting_car_may_not_go_round_a_car() -> None:
    # FD-23: overshooting, it keeps its lane and brakes behind a car even with lock off.
    track = Track(MONACO)
    ctx = MoveContext(at("C1", M, 5), SEG["C1"], 0, False, False, -1, 2, False, 1)
    options = move_options(track, ctx, 4, {at("S1", M, 3)})
    assert {o.end for o in options if o.steps > 0} == {at("S1", M, 1), at("S1", M, 2)}


def test_illegal_gear_is_refused() -> None:
    race, _, _ = race_with([{"pos": at("S1", M, 1), "gear": 1}], gears={1: [3]})
    with pytest.raises(FormulaDError) as err:
        race.play_move(car(race, 1))
    assert err.value.code == "illegal_gear"


def test_policy_options_always_include_the_full_free_roll() -> None:
    race, _, policy = race_with([{"pos": at("S5", M, 1), "gear": 4}], [(5, 15)], gears={1: [5]})
    race.play_move(car(race, 1))
    assert max(o.steps for o in policy.seen[0]) == 15
    assert furthest(policy.seen[0]).braked == 0
