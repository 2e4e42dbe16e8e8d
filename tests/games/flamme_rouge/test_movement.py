"""Board operations: blocking cascade (FR-27/28), slipstream (FR-37/38), packs, tokens (FR-54)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from games.flamme_rouge.movement import (
    award_tokens,
    find_packs,
    move_rider,
    pack_fronts,
    slipstream,
)
from games.flamme_rouge.roster import StackState


class Board:
    """A hand-built board: ``lanes[sq]`` lane counts (index 0 unused), riders placed by hand."""

    def __init__(self, lanes: list[int]) -> None:
        self.occ = [[-1] * n for n in lanes] + [[]] * 4
        self.cnt = [0] * len(self.occ)
        self.pos: list[int] = []
        self.lane: list[int] = []

    def put(self, square: int, lane: int) -> int:
        rider = len(self.pos)
        self.pos.append(square)
        self.lane.append(lane)
        self.occ[square][lane - 1] = rider
        self.cnt[square] += 1
        return rider

    def move(self, rider: int, target: int) -> tuple[int, int]:
        move_rider(rider, target, self.pos, self.lane, self.occ, self.cnt)
        return self.pos[rider], self.lane[rider]

    def slip(self, slip_ok: list[bool]) -> dict[int, int]:
        """Squares gained by the riders who gained any."""
        riders = list(range(len(self.pos)))
        gained = [0] * len(riders)
        slipstream(riders, self.pos, self.lane, self.occ, self.cnt, slip_ok + [False] * 4, gained)
        return {r: g for r, g in enumerate(gained) if g}


def flat(n: int, lanes: int = 2) -> list[int]:
    return [0] + [lanes] * n


def test_lands_in_rightmost_free_lane() -> None:
    board = Board(flat(10))
    board.put(6, 1)
    mover = board.put(2, 1)
    assert board.move(mover, 6) == (6, 2)


def test_blocking_cascade_falls_back_square_by_square() -> None:
    # FR-27: 8 and 7 full -> lands on 6; with 6 full as well he stays where he was.
    board = Board(flat(10))
    for square in (8, 7):
        board.put(square, 1)
        board.put(square, 2)
    mover = board.put(3, 2)
    assert board.move(mover, 8) == (6, 1)
    board = Board(flat(10))
    for square in (6, 7, 8):
        board.put(square, 1)
        board.put(square, 2)
    mover = board.put(5, 2)
    assert board.move(mover, 8) == (5, 2)  # stays, in his own lane (FR-28)
    assert board.cnt[5] == 1 and board.occ[5] == [-1, mover]


def test_blocking_never_goes_behind_the_start_square() -> None:
    board = Board(flat(10))
    board.put(4, 1)
    board.put(4, 2)
    mover = board.put(3, 1)
    assert board.move(mover, 4) == (3, 1)


def test_narrow_square_blocks_with_one_rider() -> None:
    board = Board([0, 2, 2, 2, 1, 2, 2])
    board.put(4, 1)
    mover = board.put(1, 1)
    assert board.move(mover, 4) == (3, 1)


def test_slipstream_closes_a_one_square_gap() -> None:
    board = Board(flat(10))
    a = board.put(3, 1)
    board.put(5, 1)
    assert board.slip([True] * 11) == {a: 1}
    assert board.pos[a] == 4


def test_slipstream_chain_merges_packs_square_by_square() -> None:
    # Packs 2-3, gap, 5, gap, 7: the rear pack joins 5, then the merged pack joins 7 (FR-38).
    board = Board(flat(12))
    r2, r3, r5 = board.put(2, 1), board.put(3, 1), board.put(5, 1)
    board.put(7, 1)
    gained = board.slip([True] * 13)
    assert [board.pos[r] for r in (r2, r3, r5)] == [4, 5, 6]
    assert gained == {r2: 2, r3: 2, r5: 1}
    assert find_packs(sorted(set(board.pos))) == [(7, 4)]


def test_slipstream_ignores_gaps_of_two() -> None:
    board = Board(flat(10))
    board.put(2, 1)
    board.put(5, 1)
    assert board.slip([True] * 11) == {}


def test_no_slipstream_on_ascent_or_cobbles() -> None:
    for blocked_square in (3, 4, 5):  # any of the three squares of the window
        slip_ok = [True] * 11
        slip_ok[blocked_square] = False
        board = Board(flat(10))
        board.put(3, 1)
        board.put(5, 1)
        assert board.slip(slip_ok) == {}, blocked_square


def test_slipstream_into_a_narrower_square_leaves_the_extra_rider() -> None:
    board = Board([0, 2, 2, 2, 1, 2, 2])
    right, left = board.put(3, 1), board.put(3, 2)
    board.put(5, 1)
    assert board.slip([True] * 7) == {right: 1}
    assert (board.pos[right], board.pos[left]) == (4, 3)


def test_slipstream_moves_riders_in_lane_order() -> None:
    board = Board([0, 2, 2, 2, 2, 2, 2])
    board.put(5, 1)
    left = board.put(3, 2)
    right = board.put(3, 1)
    board.slip([True] * 7)
    assert (board.lane[right], board.lane[left]) == (1, 2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 20), min_size=1, max_size=12))
def test_slipstream_properties(squares: list[int]) -> None:
    board = Board(flat(22))
    riders = [
        board.put(sq, 1) if board.cnt[sq] == 0 else board.put(sq, 2)
        for sq in squares
        if board.cnt[sq] < 2
    ]
    before = list(board.pos)
    gained = board.slip([True] * 23)
    occupied = sorted(set(board.pos))
    # Nobody moves backwards, gains match positions, and no one-square gap is left.
    assert all(board.pos[r] - before[r] == gained.get(r, 0) >= 0 for r in riders)
    assert not any(b - a == 2 for a, b in pairwise(occupied))
    assert sum(board.cnt) == len(riders)


def test_packs_and_fronts() -> None:
    packs = find_packs([2, 3, 5, 9, 10, 11])
    assert packs == [(11, 9), (5, 5), (3, 2)]
    assert pack_fronts(packs) == {9: 11, 10: 11, 11: 11, 5: 5, 2: 3, 3: 3}


def test_tokens_with_several_riders_in_one_round() -> None:
    # Stack on 10 with 4, 3, 2; three riders reach it, the foremost takes the 4 (FR-54).
    # Rider 3 was already past it, rider 4 did not reach it.
    stacks = [StackState(10, [4, 3, 2], "s1", 0), StackState(12, [3, 1], "s2", 1)]
    order = [0, 1, 2, 3, 4]  # race order after slipstream
    start = [5, 6, 9, 11, 3]
    reach = [13, 12, 10, 14, 9]
    awarded = award_tokens(stacks, order, start, reach, [True] * 5)
    assert awarded == [
        (0, "s1", 4, 0),
        (1, "s1", 3, 0),
        (2, "s1", 2, 0),
        (0, "s2", 3, 1),
        (1, "s2", 1, 1),
    ]
    assert stacks[0].tokens == [] and stacks[1].tokens == []


def test_tokens_run_out_and_skip_ineligible_riders() -> None:
    stacks = [StackState(10, [3, 1], "m", 1)]
    awarded = award_tokens(stacks, [0, 1, 2], [5, 5, 5], [12, 11, 10], [False, True, True])
    assert awarded == [(1, "m", 3, 1), (2, "m", 1, 1)]
    assert award_tokens(stacks, [0, 1, 2], [5, 5, 5], [12, 11, 10], [True] * 3) == []
