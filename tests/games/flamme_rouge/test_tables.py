"""Terrain modifiers as tables (FR-26, FR-29..FR-32), slipstream squares (FR-37), timing (FR-47)."""

from __future__ import annotations

import pytest

from games.flamme_rouge.rules import StageRules
from games.flamme_rouge.tables import tables_for

BASE = StageRules(tour_mode=False)


def move(course: str, start: int, value: int, rules: StageRules = BASE) -> tuple[int, str]:
    tables = tables_for(course, rules)
    return tables.dest[start][value] - start, tables.mods[start][value]


def test_ascent_cap_starting_on_ascent() -> None:
    # "abN..": N is squares 13..18, all ascent. Offset 0: card 7 -> 5 (FR-32 example).
    assert move("abNu", 13, 7) == (5, "u")
    assert move("abNu", 13, 4) == (4, "")


def test_ascent_cap_climb_at_offsets() -> None:
    # Square 13 is the first U; start 13 - k puts the climb at offset k.
    assert move("abNu", 10, 9) == (5, "u")  # offset 3 (FR-32 example)
    assert move("abNu", 8, 9) == (5, "u")  # offset 5: capped
    assert move("abNu", 7, 9) == (5, "u")  # offset 6 > 5: stop before the climb, v = k - 1
    assert move("abNu", 5, 9) == (7, "u")  # offset 8, card 9 -> 7 (FR-32 example)
    assert move("abNu", 7, 5) == (5, "")  # the climb lies beyond the move: unchanged
    assert move("abNu", 7, 6) == (5, "u")  # offset 6 reached by a 6: stops on square 12


def test_ascent_cap_parameter() -> None:
    rules = StageRules(tour_mode=False, ascent_cap=4)
    assert move("abNu", 13, 7, rules) == (4, "u")
    assert move("abNu", 8, 9, rules) == (4, "u")  # offset 5 > 4: k - 1 = 4


def test_descent_floor() -> None:
    # B: squares 7..10 descent. Exhaustion (2) and low cards move 5; higher cards keep value.
    assert move("aBu", 7, 2) == (5, "d")
    assert move("aBu", 7, 3) == (5, "d")
    assert move("aBu", 7, 7) == (7, "")
    assert move("aBu", 11, 2) == (2, "")  # start square flat: no floor


def test_descent_floor_then_ascent_cap() -> None:
    # "aHGu": H descent on 7-8, G ascent on 9-10. FR-29 order: floor first, then the cap.
    assert move("aHGu", 7, 2) == (5, "d")  # floor 5; climb at offset 2 caps at 5: no change
    assert move("aHGu", 7, 7) == (5, "u")
    assert move("aHGu", 7, 5, StageRules(tour_mode=False, ascent_cap=3)) == (3, "u")
    assert move("aHGu", 7, 2, StageRules(tour_mode=False, ascent_cap=3)) == (3, "du")


def test_supply_floor() -> None:
    # Peloton tile 3: squares 7..11 supply.
    assert move("a3u", 7, 2) == (4, "s")
    assert move("a3u", 7, 6) == (6, "")


def test_clamp_to_last_square() -> None:
    tables = tables_for("au", BASE)
    assert tables.dest[10][9] == 12 and tables.mods[10][9] == "c"


def test_slipstream_squares() -> None:
    tour = tables_for("a^3u", StageRules())
    assert [tour.slip_ok[sq] for sq in range(7, 13)] == [True, True, False, False, False, False]
    assert tour.slip_ok[15] and not tables_for("a^3u", BASE).slip_ok[15]  # finish area (FR-37)
    assert not tables_for("a^3u", StageRules(slipstream_past_line=False)).slip_ok[15]
    assert not tables_for("aU", StageRules()).slip_ok[12]  # ascent finish: never


def test_timing_by_squares_past() -> None:
    flat = tables_for("au", StageRules())
    assert flat.timing[1:] == (50, 40, 30, 20, 10, 0)
    ascent = tables_for("aU", StageRules())
    assert ascent.timing[1:] == (40, 30, 20, 10, 0)


@pytest.mark.parametrize("value", range(16))
def test_moves_never_go_backwards(value: int) -> None:
    tables = tables_for("abcfimetKGLHJsdopRQNU", StageRules())
    for start in range(1, tables.n + 1):
        assert start <= tables.dest[start][value] <= tables.n
