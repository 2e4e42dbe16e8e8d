"""Per-course lookup tables for the hot loop: lanes, slipstream squares, moves, timing.

Terrain modifiers depend only on the start square and the card value (FR-29..FR-32), so every
``(start square, value)`` pair is resolved once per course and rules into a target square and the
modifiers that applied; a round then costs one list lookup per rider.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.flamme_rouge.cards import card_values
from games.flamme_rouge.rules import StageRules
from games.flamme_rouge.track import (
    ASCENT,
    COBBLES,
    DESCENT,
    FINISH_AREA,
    SUPPLY,
    Course,
    parse_course,
)
from scoring.grand_tour.timing import tile_seconds

MAX_VALUE = 16  # card values 0..15 are tabulated (highest printed is 11; Strong Descents <= 12)
DESCENT_FLOOR = 5  # FR-30
SUPPLY_FLOOR = 4  # FR-31
# Modifier letters in the log: descent floor, supply floor, ascent cap, clamp at the end (FR-29).
MOD_DESCENT, MOD_SUPPLY, MOD_ASCENT, MOD_CLAMP = "d", "s", "u", "c"


@dataclass(frozen=True, eq=False)
class Tables:
    """Lookup tables of one course under one set of rules. Index = square number (0 unused)."""

    course: Course
    n: int
    last: int  # L of FR-14
    lanes: tuple[int, ...]  # lanes[sq]; 0 outside 1..n
    slip_ok: tuple[bool, ...]  # FR-37; False outside 1..n
    terrain: tuple[str, ...]
    dest: tuple[tuple[int, ...], ...]  # dest[s][v]: target square after FR-29 steps but blocking
    mods: tuple[tuple[str, ...], ...]  # mods[s][v]: modifier letters that changed the value
    timing: tuple[int, ...]  # timing[k]: seconds for the pack front k squares past the line
    card_dest: tuple[tuple[int, ...], ...]  # card_dest[s][code]: dest[s][value of the card]


@lru_cache(maxsize=128)
def tables_for(text: str, rules: StageRules) -> Tables:
    """Parse the course ``text`` under ``rules`` and build its tables (cached: hashing a string
    and the rules is cheap, hashing a parsed course is not). Raises CourseError."""
    course = parse_course(text, rules=rules)
    n = course.length
    pad = MAX_VALUE + 3
    terrain = ("",) + tuple(sq.terrain for sq in course.squares) + ("",) * pad
    lanes = (0,) + tuple(sq.lanes for sq in course.squares) + (0,) * pad
    # FR-37: U and C never allow slipstream; the finish area only in Tour mode with the switch on.
    past_ok = course.tour_mode and rules.slipstream_past_line
    slip_ok = (
        (False,)
        + tuple(
            sq.terrain not in (ASCENT, COBBLES) and (sq.role != FINISH_AREA or past_ok)
            for sq in course.squares
        )
        + (False,) * pad
    )
    # next_up[s]: first ascent square at or after s (n + pad when none).
    next_up = [n + pad] * (n + 2)
    for s in range(n, 0, -1):
        next_up[s] = s if terrain[s] == ASCENT else next_up[s + 1]
    cap = rules.ascent_cap
    dest: list[tuple[int, ...]] = [()]
    mods: list[tuple[str, ...]] = [()]
    for s in range(1, n + 1):
        row: list[int] = []
        mrow: list[str] = []
        for v in range(MAX_VALUE):
            m, applied = v, ""
            if terrain[s] == DESCENT and m < DESCENT_FLOOR:
                m, applied = DESCENT_FLOOR, applied + MOD_DESCENT
            if terrain[s] == SUPPLY and m < SUPPLY_FLOOR:
                m, applied = SUPPLY_FLOOR, applied + MOD_SUPPLY
            k = next_up[s] - s  # FR-32: offset of the first ascent square, 0 = start square
            if k <= m:
                capped = min(m, cap) if k <= cap else k - 1
                if capped != m:
                    m, applied = capped, applied + MOD_ASCENT
            target = s + m
            if target > n:  # FR-26
                target, applied = n, applied + MOD_CLAMP
            row.append(target)
            mrow.append(applied)
        dest.append(tuple(row))
        mods.append(tuple(mrow))
    last = course.last_before_line
    values = rules.timing_ascent if course.finish == "ascent" else rules.timing_flat
    # Index 0 is unused; squares past the last timing value read the last one (a defensive
    # fallback: build_rules rejects Wide Finish tiles that do not match the timing, FR-13).
    # The tile is read by the one function the board entry uses too (GT-2.1, GT-2.4).
    timing = (0, *(tile_seconds(values, k) for k in range(1, n - last + 1)))
    # The policy looks at every card in hand from the rider's square: index by card code directly.
    card_value = card_values(rules.strong_descents_value)
    card_dest = tuple(tuple(row[v] for v in card_value) if row else () for row in dest)
    return Tables(
        course, n, last, lanes, slip_ok, terrain, tuple(dest), tuple(mods), timing, card_dest
    )


__all__ = ["Tables", "tables_for"]
