"""Board operations of the movement and end phases: landing with blocking, slipstream, packs.

The board is ``occ[square][lane - 1]`` (a rider index or -1) with ``cnt[square]`` riders on it;
``pos`` and ``lane`` map each rider to his place. Lane 1 is the right-hand lane (FR-8).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from games.flamme_rouge.roster import StackState, TokenAward


def move_rider(
    rider: int,
    target: int,
    pos: list[int],
    lane: list[int],
    occ: list[list[int]],
    cnt: list[int],
) -> None:
    """Move ``rider`` towards ``target`` with the blocking cascade of FR-27.

    He takes the rightmost free lane of the target; if it is full, of the square behind, and so
    on down to the square just ahead of his start; if all are full he keeps his place and lane.
    Lanes change only on arrival (FR-28).
    """
    start = pos[rider]
    here = occ[start]
    here[lane[rider] - 1] = -1
    cnt[start] -= 1
    square = target
    while square > start:
        lanes = occ[square]
        if cnt[square] < len(lanes):
            free = lanes.index(-1)
            lanes[free] = rider
            cnt[square] += 1
            pos[rider], lane[rider] = square, free + 1
            return
        square -= 1
    here[lane[rider] - 1] = rider
    cnt[start] += 1


def slipstream(
    on: Sequence[int],
    pos: list[int],
    lane: list[int],
    occ: list[list[int]],
    cnt: list[int],
    slip_ok: Sequence[bool],
    gained: list[int],
) -> None:
    """FR-38: close one-square gaps from the rear, restarting after each move.

    Adds the squares each rider gains to ``gained[rider]``. Rescanning the sorted occupied
    squares after each move is the rule's "restart at i = 1": only an occupied square can open
    a matching window.
    """
    while True:
        occupied = sorted({pos[i] for i in on})
        match = 0
        for a, b in pairwise(occupied):
            if b - a == 2 and slip_ok[a] and slip_ok[a + 1] and slip_ok[b]:
                match = a
                break
        if not match:
            return
        here, there = occ[match], occ[match + 1]
        for index, rider in enumerate(here):  # in lane order, into the rightmost free lanes
            if rider < 0 or cnt[match + 1] >= len(there):
                continue  # FR-38 / open point 6: a rider who does not fit stays
            free = there.index(-1)
            there[free] = rider
            here[index] = -1
            cnt[match] -= 1
            cnt[match + 1] += 1
            pos[rider], lane[rider] = match + 1, free + 1
            gained[rider] += 1


def find_packs(occupied: Sequence[int]) -> list[tuple[int, int]]:
    """Packs as ``(front square, rear square)``, front pack first, from the sorted occupied
    squares: a pack is a maximal run of consecutive occupied squares."""
    packs: list[tuple[int, int]] = []
    for square in reversed(occupied):
        if packs and packs[-1][1] == square + 1:
            packs[-1] = (packs[-1][0], square)
        else:
            packs.append((square, square))
    return packs


def award_tokens(
    stacks: Sequence[StackState],
    order: Sequence[int],
    start: Sequence[int],
    reach: Sequence[int],
    eligible: Sequence[bool],
) -> list[TokenAward]:
    """FR-54: hand out stack tokens, in award order.

    ``order`` is the race order after slipstream (GT-3.2: the rider furthest ahead at the end of
    the round takes the best token). A rider reaches a stack when ``start[r] < square <=
    reach[r]``. Each stack is resolved on its own; its ``tokens`` are consumed in place.
    """
    awarded: list[TokenAward] = []
    for stack in stacks:
        tokens, square = stack.tokens, stack.square
        for rider in order:
            if not tokens:
                break
            if eligible[rider] and start[rider] < square <= reach[rider]:
                awarded.append(TokenAward(rider, stack.id, tokens.pop(0), stack.side))
    return awarded


def pack_fronts(packs: Sequence[tuple[int, int]]) -> dict[int, int]:
    """Square -> front square of its pack (FR-48: crossers read the seconds of the pack front)."""
    fronts: dict[int, int] = {}
    for front, rear in packs:
        for square in range(rear, front + 1):
            fronts[square] = front
    return fronts


__all__ = ["award_tokens", "find_packs", "move_rider", "pack_fronts", "slipstream"]
