"""The automatic driver: sensible, deterministic decisions."""

from __future__ import annotations

from games.formula_d import AutoDriver
from tests.games.formula_d.builders import SEG, L, M, R, at, car, race_with


def test_brakes_rather_than_being_eliminated() -> None:
    # From S7 L3 a 12 in 4th would leave the 2-stop C8 with no stop: it brakes into C8.
    race, _, _ = race_with([{"pos": at("S7", L, 3), "gear": 4}])
    d1 = car(race, 1)
    options = race.options(d1, 12)
    assert any(o.overshoot_out for o in options)
    choice = AutoDriver().choose_move(race, d1, options)
    assert not choice.overshoot_out and choice.end[0] == SEG["C8"]


def test_chooses_a_gear_that_stops_in_the_hairpin() -> None:
    # C5 needs 3 stops and ends 14 spaces ahead: 5th (up to 20) could leave it with no stop,
    # which eliminates; 3rd and 4th (up to 12) always stop inside.
    race, _, _ = race_with([{"pos": at("S4", M, 1), "gear": 4}])
    d1 = car(race, 1)
    assert race.allowed_gears(d1) == [1, 2, 3, 4, 5]
    assert AutoDriver().choose_gear(race, d1, race.allowed_gears(d1)) in (3, 4)


def test_shifts_up_on_the_tunnel_straight() -> None:
    race, _, _ = race_with([{"pos": at("S5", M, 1), "gear": 5, "crossings": 1}])
    d1 = car(race, 1)
    assert AutoDriver().choose_gear(race, d1, race.allowed_gears(d1)) == 6


def test_pits_when_worn_and_not_when_fresh() -> None:
    worn, _, _ = race_with(
        [{"pos": at("C10", R, 2), "gear": 2, "wp": 5, "corner_stops": 1}], laps=2
    )
    options = worn.options(car(worn, 1), 4)
    assert AutoDriver().choose_move(worn, car(worn, 1), options).into_box
    fresh, _, _ = race_with(
        [{"pos": at("C10", R, 2), "gear": 2, "wp": 17, "corner_stops": 1}], laps=2
    )
    options = fresh.options(car(fresh, 1), 4)
    assert not AutoDriver().choose_move(fresh, car(fresh, 1), options).in_pit


def test_does_not_spend_its_last_wp() -> None:
    # With 2 WP a 2-space overshoot would eliminate: it brakes into the corner instead (1 WP).
    race, _, _ = race_with([{"pos": at("S1", L, 17), "gear": 3, "wp": 2}])
    choice = AutoDriver().choose_move(race, car(race, 1), race.options(car(race, 1), 7))
    assert choice.end[0] == SEG["C2"]
