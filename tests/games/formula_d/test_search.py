"""The memoised graph search offers exactly the moves of a plain reference search (hypothesis).

The engine keeps searches on the empty track per circuit and start, reuses them while the spaces
they looked at are free, resumes them with the cars otherwise, and merges zig-zag states; none of
that may change which moves are offered or what they cost.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.formula_d.moves import MoveContext, MoveOption, move_options
from games.formula_d.track import PIT, Track
from tests.games.formula_d.builders import MONACO
from tests.games.formula_d.oracle import reference_options

TRACK = Track(MONACO)  # shared, so the memo tables fill up across examples
SEGMENTS = len(MONACO.segments)


def summary(options: list[MoveOption]) -> set[tuple[Any, ...]]:
    # Everything but the path: among equally cheap paths to one end either may be kept.
    return {
        (
            o.end,
            o.steps,
            o.roll,
            o.overshoot_spaces,
            o.overshoot_out,
            o.short,
            o.exited_corner,
            o.corners_left,
            o.crossed_line,
            o.finished,
            o.into_box,
            len(o.danger),
            o.forced,
        )
        for o in options
    }


@st.composite
def situations(draw: st.DrawFn) -> tuple[MoveContext, int, set[tuple[int, int, int]]]:
    assert MONACO.pit is not None
    in_pit = draw(st.integers(0, 9)) == 0
    if in_pit:
        start = (PIT, 0, draw(st.integers(0, MONACO.pit.length - 1)))
        nearby = [0, 1]
    else:
        start = draw(st.sampled_from(TRACK.positions))
        nearby = [(start[0] + k) % SEGMENTS for k in range(4)]
    segment = MONACO.segments[start[0]] if start[0] != PIT else None
    in_corner = segment is not None and segment.is_corner
    stops = draw(st.integers(0, segment.stops)) if segment is not None and in_corner else 0
    ctx = MoveContext(
        start=start,
        corner=start[0] if in_corner else -1,
        stops=stops,
        final_crossing=draw(st.booleans()),
        may_pit=draw(st.booleans()),
        box=draw(st.sampled_from([-1, 0, 2, 5, 9])),
        max_lane_changes=draw(st.integers(0, 2)),
        lock_always=draw(st.booleans()),
        max_missing=draw(st.integers(0, 1)),
        # FD-20: spaces already moved through the corner (-1: no cap for this one)
        corner_spaces=(
            draw(st.sampled_from([-1, start[2] + 1, segment.longest - 1, segment.longest]))
            if segment is not None and in_corner
            else -1
        ),
    )
    near = [p for p in TRACK.positions if p[0] in nearby and p != start]
    if in_pit:
        near += [(PIT, 0, i) for i in range(MONACO.pit.length) if (PIT, 0, i) != start]
    cars = set(draw(st.lists(st.sampled_from(near), max_size=9)))
    if not in_pit and draw(st.booleans()):
        # a car a few spaces ahead in the start lane: zig-zags round it (FD-16)
        ahead = start
        for _ in range(draw(st.integers(1, 8))):
            ahead = TRACK.forward(ahead)
        cars.add(ahead)
    return ctx, draw(st.integers(1, 30)), cars


@settings(max_examples=150, deadline=None)
@given(situations())
def test_memoised_search_matches_the_reference(
    case: tuple[MoveContext, int, set[tuple[int, int, int]]],
) -> None:
    ctx, roll, cars = case
    # The empty track first (fills the memo), then with the cars (reuse or resume).
    assert summary(move_options(TRACK, ctx, roll, set())) == summary(
        reference_options(TRACK, ctx, roll, set())
    )
    assert summary(move_options(TRACK, ctx, roll, cars)) == summary(
        reference_options(TRACK, ctx, roll, cars)
    )
