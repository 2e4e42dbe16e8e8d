"""Street-racing rules on a hand-built circuit (FD-51 to FD-57)."""

from __future__ import annotations

import copy
from typing import Any

from games.formula_d import BLACK, circuit_from_json
from scoring.formula_d.rules import FormulaDRules
from tests.games.formula_d.builders import L, M, R, car, ending_at, race_with

DOC: dict[str, Any] = {
    "circuit": "test-street",
    "lanes": ["L", "M", "R"],
    "segments": [
        {"id": "S0", "kind": "straight", "length": {"L": 20, "M": 20, "R": 20}},
        {
            "id": "C1",
            "kind": "corner",
            "stops": 1,
            "longest": 4,
            "shortest": 4,
            "length": {"L": 4, "M": 4, "R": 4},
            "inside": "L",
        },
        {"id": "S1", "kind": "straight", "length": {"L": 20, "M": 20, "R": 20}},
        {
            "id": "C2",
            "kind": "corner",
            "stops": 1,
            "longest": 4,
            "shortest": 4,
            "length": {"L": 4, "M": 4, "R": 4},
            "inside": "L",
        },
    ],
    "finish_line": {"segment": "S0", "after": {"L": 10, "M": 10, "R": 10}},
    "grid": [
        {"segment": "S0", "lane": "L", "space": 10},
        {"segment": "S0", "lane": "R", "space": 9},
    ],
    "street": {
        "noise": [{"segment": "S1", "lane": "M", "space": 5}],
        "danger": [{"segment": "S1", "lane": "L", "space": 3}],
        "tunnels": [
            [
                {"segment": "S1", "lane": "R", "space": 10},
                {"segment": "S1", "lane": "R", "space": 15},
            ]
        ],
        "police_line": {"segment": "S1", "after": {"L": 8, "M": 8, "R": 8}},
    },
}
STREET = circuit_from_json(DOC)
RULES = FormulaDRules(street_rules=True)
S0, C1, S1 = 0, 1, 2


def test_nitro_adds_the_gear_once_per_lap() -> None:
    # FD-52: in 3rd, a roll of 5 becomes 8; no second nitro in the same lap.
    race, _, policy = race_with(
        [{"pos": (S1, M, 10), "gear": 3}],
        [(3, 5), (3, 5)],
        gears={1: [3, 3]},
        rules=RULES,
        circuit=STREET,
        pick=lambda opts: next((o for o in opts if o.nitro and o.end == (S1, M, 18)), opts[0]),
    )
    d1 = car(race, 1)
    race.play_move(d1)
    assert d1.pos == (S1, M, 18) and race.moves[-1].nitro
    assert any(o.nitro and o.roll == 8 for o in policy.seen[0])
    race.play_move(d1)
    assert not any(o.nitro for o in policy.seen[1])


def test_no_nitro_without_street_rules() -> None:
    race, _, policy = race_with(
        [{"pos": (S1, M, 10), "gear": 3}], [(3, 5)], gears={1: [3]}, circuit=STREET
    )
    race.play_move(car(race, 1))
    assert not any(o.nitro for o in policy.seen[0])


def test_noise_zone_on_eleven_or_more() -> None:
    # FD-53: ending on the noise space (S1 M5) rolls the black die: 11 loses 2 WP.
    race, dice, _ = race_with(
        [{"pos": (S1, M, 0), "gear": 2}],
        [(2, 4), (BLACK, 11)],
        gears={1: [2]},
        rules=RULES,
        circuit=STREET,
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 16 and dice.remaining == 0


def test_danger_zone_one_roll_per_space_moved_over() -> None:
    # FD-54: moving onto S1 L3 rolls the black die; 4 or less loses 1 WP.
    race, dice, _ = race_with(
        [{"pos": (S1, L, 0), "gear": 2}],
        [(2, 2), (BLACK, 4)],
        gears={1: [2]},
        rules=RULES,
        circuit=STREET,
        pick=ending_at((S1, L, 2)),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 17 and dice.remaining == 0


def test_danger_zone_can_be_avoided_by_changing_lane() -> None:
    race, dice, _ = race_with(
        [{"pos": (S1, L, 0), "gear": 2}],
        [(2, 4)],
        gears={1: [2]},
        rules=RULES,
        circuit=STREET,
        pick=ending_at((S1, L, 4)),
    )
    race.policy.pick = lambda opts: next(o for o in opts if o.end == (S1, L, 4) and not o.danger)  # type: ignore[attr-defined]
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 18 and dice.remaining == 0


def test_tunnel_pair_counts_as_one_space() -> None:
    # FD-55: reaching S1 R10 continues from S1 R15; 2 spaces from R9 end on R16.
    race, _, _ = race_with(
        [{"pos": (S1, R, 8), "gear": 1}],
        [(1, 2)],
        gears={1: [1]},
        rules=RULES,
        circuit=STREET,
    )
    race.play_move(car(race, 1))
    assert car(race, 1).pos == (S1, R, 15)


def test_checkpoint_at_the_end_of_lap_one() -> None:
    # FD-56: +10 WP when crossing the line at the end of lap 1 of a 2-lap race, capped.
    race, _, _ = race_with(
        [{"pos": (S0, L, 8), "gear": 1, "wp": 5}],
        [(1, 2)],
        gears={1: [1]},
        rules=RULES,
        circuit=STREET,
        laps=2,
    )
    race.play_move(car(race, 1))
    assert car(race, 1).crossings == 2 and car(race, 1).wp == 15


def test_police_bonus_to_the_fastest_once_all_have_crossed() -> None:
    # FD-57: D1 crosses at 50 km/h, D2 at 70: when D2 (the last) crosses, D2 gains 2 WP.
    race, _, _ = race_with(
        [{"pos": (S1, L, 6), "gear": 3, "wp": 10}, {"pos": (S1, R, 2), "gear": 3, "wp": 10}],
        [(3, 5), (3, 7)],
        gears={1: [3], 2: [3]},
        rules=RULES,
        circuit=STREET,
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 10 and car(race, 2).wp == 10
    race.play_move(car(race, 2))
    assert car(race, 2).wp == 12 and car(race, 1).wp == 10


def test_street_features_are_inert_without_street_rules() -> None:
    doc = copy.deepcopy(DOC)
    race, dice, _ = race_with(
        [{"pos": (S1, M, 0), "gear": 2}],
        [(2, 4)],
        gears={1: [2]},
        circuit=circuit_from_json(doc),
    )
    race.play_move(car(race, 1))
    assert car(race, 1).wp == 18 and dice.remaining == 0
