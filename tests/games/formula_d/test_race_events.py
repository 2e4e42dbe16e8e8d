"""Grid, start, turn order, collisions, engine, elimination, pit stop and finish (FD-6 to FD-50)."""

from __future__ import annotations

from games.formula_d import BLACK, Entrant, Race, ScriptedDice, track_for
from games.formula_d.track import PIT
from scoring.formula_d.rules import FormulaDRules
from tests.games.formula_d.builders import (
    MONACO,
    SEG,
    L,
    M,
    R,
    Scripted,
    at,
    car,
    ending_at,
    race_with,
)


def fresh_race(
    n: int, rolls: list[tuple[int, int]], gears: dict[int, list[int]] | None = None, laps: int = 1
) -> tuple[Race, ScriptedDice]:
    dice = ScriptedDice(rolls)
    entrants = [Entrant(i + 1, f"D{i + 1}") for i in range(n)]
    race = Race(
        track_for(MONACO),
        entrants,
        laps=laps,
        rules=FormulaDRules(),
        dice=dice,
        policy=Scripted(gears),
    )
    return race, dice


def test_grid_highest_roll_on_pole_and_ties_reroll() -> None:
    # FD-6: D1 and D3 tie on 15 and re-roll among themselves; D2's 3 is last.
    race, dice = fresh_race(3, [(BLACK, 15), (BLACK, 3), (BLACK, 15), (BLACK, 4), (BLACK, 9)])
    order = race.roll_grid()
    assert [c.driver for c in order] == [3, 1, 2]
    assert [c.pos for c in order] == list(MONACO.grid[:3])
    assert dice.remaining == 0


def test_start_roll_stall_great_and_normal() -> None:
    # FD-7: pole stalls (1), P2 makes a great start (17: 4 spaces), P3 a normal one (d4).
    rolls = [(BLACK, 20), (BLACK, 10), (BLACK, 5)]  # grid: D1, D2, D3
    rolls += [(BLACK, 1), (BLACK, 17), (BLACK, 9), (1, 2)]
    rolls += [(BLACK, 20), (BLACK, 20)]  # D3 stops right behind the stalled pole: collision
    race, dice = fresh_race(3, rolls, gears={1: [1]})
    race.roll_grid()
    race.play_round()
    d1, d2, d3 = car(race, 1), car(race, 2), car(race, 3)
    assert d1.pos == MONACO.grid[0] and d1.stalled
    assert d2.pos == (0, R, MONACO.grid[1][2] + 4) and d2.gear == 1
    assert d3.pos == (0, L, MONACO.grid[2][2] + 2)
    assert [m.start for m in race.moves] == ["stall", "great", "normal"]
    # After a stall the next move is an ordinary 1st-gear roll, with no new start roll.
    assert race.allowed_gears(d1) == [1]
    assert race.allowed_gears(d2) == [1, 2]
    assert dice.remaining == 0


def test_turn_order_furthest_first_then_gear_then_inside() -> None:
    # FD-9/FD-10: S1 is a straight before C2 whose inside is lane L.
    race, _, _ = race_with(
        [
            {"pos": at("S1", R, 5), "gear": 3},
            {"pos": at("S1", L, 5), "gear": 3},
            {"pos": at("S1", M, 5), "gear": 4},
            {"pos": at("S1", M, 9), "gear": 1},
        ]
    )
    ordered = sorted(race.cars, key=race.order_key)
    assert [c.driver for c in ordered] == [4, 3, 2, 1]


def test_order_is_fixed_for_the_round() -> None:
    # FD-9: D2 overtakes D1 during the round; D1 still moved first in that round.
    race, _, _ = race_with(
        [{"pos": at("S1", L, 5), "gear": 2}, {"pos": at("S1", R, 1), "gear": 3}],
        [(2, 2), (3, 8)],
        gears={1: [2], 2: [3]},
    )
    race.play_round()
    assert [m.driver for m in race.moves] == [1, 2]
    assert [c.driver for c in sorted(race.cars, key=race.order_key)] == [2, 1]


def test_collision_every_involved_car_rolls_mover_first() -> None:
    # FD-29/FD-30: D1 stops right behind D2 and beside D3; all three roll, mover first.
    race, dice, _ = race_with(
        [{"pos": at("S1", M, 1), "gear": 2}, {"pos": at("S1", M, 5)}, {"pos": at("S1", L, 4)}],
        [(2, 3), (BLACK, 4), (BLACK, 5), (BLACK, 1)],
        gears={1: [2]},
        pick=ending_at(at("S1", M, 4)),
    )
    race.order = sorted(race.cars, key=race.order_key)
    race.play_move(car(race, 1))
    assert [e.driver for e in race.moves[-1].events if e.kind == "collision"] == [1, 2, 3]
    assert (car(race, 1).wp, car(race, 2).wp, car(race, 3).wp) == (17, 18, 17)
    assert dice.remaining == 0


def test_collision_can_eliminate_and_records_the_order() -> None:
    # FD-34/FD-36: two cars at 1 WP fail their collision tests: out in resolution order.
    race, _, _ = race_with(
        [{"pos": at("S1", M, 1), "gear": 2, "wp": 1}, {"pos": at("S1", M, 5), "wp": 1}],
        [(2, 3), (BLACK, 2), (BLACK, 3)],
        gears={1: [2]},
        pick=ending_at(at("S1", M, 4)),
    )
    race.play_move(car(race, 1))
    assert [c.driver for c in race.eliminated] == [1, 2]
    assert car(race, 2).elimination_order == 2
    assert at("S1", M, 5) not in race.occupied  # FD-35: it leaves the board


def test_engine_test_on_twenty_in_fifth() -> None:
    # FD-32/FD-33: D1 rolls 20 in 5th; it and D2 (6th) roll the black die, D3 (4th) does not.
    race, dice, _ = race_with(
        [
            {"pos": at("S5", M, 1), "gear": 5},
            {"pos": at("S1", L, 1), "gear": 6},
            {"pos": at("S6", L, 1), "gear": 4},
        ],
        [(5, 20), (BLACK, 4), (BLACK, 5)],
        gears={1: [5]},
    )
    race.play_move(car(race, 1))
    engine = [(e.driver, e.roll, e.wp) for e in race.moves[-1].events if e.kind == "engine"]
    assert engine == [(1, 4, -1), (2, 5, 0)]
    assert dice.remaining == 0


def test_no_engine_test_below_the_top_face() -> None:
    race, dice, _ = race_with([{"pos": at("S5", M, 1), "gear": 5}], [(5, 19)], gears={1: [5]})
    race.play_move(car(race, 1))
    assert dice.remaining == 0 and car(race, 1).wp == 18


def test_pit_stop_restores_wp_counts_the_lap_and_limits_the_exit_gear() -> None:
    # FD-43 to FD-47: from C10's last space in lane R, 3 spaces reach box 1 (pit space 3).
    race, dice, policy = race_with(
        [{"pos": at("C10", R, 2), "gear": 2, "wp": 5, "corner_stops": 1}],
        [(2, 4), (4, 7)],
        gears={1: [2, 4]},
        laps=2,
        pick=lambda opts: next((o for o in opts if o.into_box), opts[-1]),
    )
    d1 = car(race, 1)
    race.play_move(d1)
    assert d1.pos == (PIT, 0, 2) and d1.wp == 18 and d1.laps_done == 1 and d1.in_box
    race.play_move(d1)
    assert policy.allowed[-1] == [1, 2, 3, 4]
    assert d1.pos == (PIT, 0, 9) and d1.wp == 18  # no brake or downshift cost in the pit lane
    assert dice.remaining == 0


def test_pit_lane_no_overtaking_and_no_wp_loss() -> None:
    # FD-49: D2 reaches D1 (leaving its box) and just stops behind it.
    race, _, _ = race_with(
        [
            {"pos": (PIT, 0, 5), "gear": 1, "pitted": True, "crossings": 2},
            {"pos": (PIT, 0, 2), "gear": 1, "pitted": True, "crossings": 2, "wp": 18},
        ],
        [(4, 12)],
        gears={2: [4]},
        laps=2,
    )
    race.play_move(car(race, 2))
    assert car(race, 2).pos == (PIT, 0, 4) and car(race, 2).wp == 18


def test_single_lap_race_offers_no_pit_lane() -> None:
    race, _, policy = race_with(
        [{"pos": at("C10", R, 2), "gear": 2, "corner_stops": 1}], [(2, 4)], gears={1: [2]}
    )
    race.play_move(car(race, 1))
    assert not any(o.in_pit for o in policy.seen[0])


def test_finish_and_classification() -> None:
    # FD-38 to FD-42: crossing order, then eliminated cars by laps then elimination order.
    race, _, _ = race_with(
        [
            {"pos": at("S0", L, 15), "gear": 1, "crossings": 1},
            {"pos": at("S0", M, 16), "gear": 1, "crossings": 1},
            {"pos": at("S7", L, 3), "gear": 4, "crossings": 1},
            {"pos": at("S5", L, 3), "gear": 4, "wp": 1},
        ],
        [(1, 2), (1, 2), (4, 12), (4, 7), (BLACK, 20)],
        gears={1: [1], 2: [1], 3: [4], 4: [4]},
        pick=lambda opts: next((o for o in opts if o.overshoot_out or o.finished), opts[-1]),
    )
    for driver in (2, 1, 3):
        race.play_move(car(race, driver))
    race.eliminate(car(race, 4), "test")
    result = race.outcome().results
    assert [(r.driver, r.position, r.status) for r in result] == [
        (2, 1, "finished"),
        (1, 2, "finished"),
        (4, 3, "eliminated"),
        (3, 4, "eliminated"),
    ]
    assert [r.laps for r in result] == [1, 1, 0, 0]
    assert result[2].elimination_order == 2 and result[3].elimination_order == 1
    assert result[0].wp_left == 18 and result[2].wp_left == 0


def test_finisher_takes_no_further_tests() -> None:
    # FD-39: crossing the line on the last lap ends its race; no collision roll for D1.
    race, dice, _ = race_with(
        [{"pos": at("S0", L, 15), "gear": 1, "crossings": 1}, {"pos": at("S0", L, 19)}],
        [(1, 2)],
        gears={1: [1]},
    )
    race.play_move(car(race, 1))
    assert car(race, 1).status == "finished" and dice.remaining == 0
    assert at("S0", L, 15) not in race.occupied


def test_corner_segment_ids() -> None:
    assert MONACO.segments[SEG["C5"]].stops == 3
