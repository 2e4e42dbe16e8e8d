"""Stage times from what the table shows (GT-2.1 to GT-2.3 with GT-2.4's Timing tile).

The one reading of the Timing tile: the Flamme Rouge engine builds its per-square timing table
with :func:`tile_seconds` (``games.flamme_rouge.tables``), its replay checker reads seconds with
it, and the scorekeepers' board entry computes a stage's times with :func:`board_times` from the
rounds they copy off the table: in which round each rider crossed, and the square past the line
of the foremost rider of his pack.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.issues import Issue


def tile_seconds(values: Sequence[int], squares_past: int) -> int:
    """GT-2.1, GT-2.4: the seconds printed beside square ``squares_past`` past the line (1 is
    the first square past it). A square beyond the tile reads its last value; the Wide Finish
    has exactly one square per value (FR-13), so only a defensive fallback."""
    if squares_past < 1:
        raise ValueError(f"squares past the line start at 1, not {squares_past}")
    return values[min(squares_past, len(values)) - 1]


@dataclass(frozen=True, slots=True)
class Crossing:
    """One rider as the board shows him when he crosses the line."""

    rider: int
    #: The round he crossed in, counted from the first round in which a rider crossed (1).
    round: int
    #: Squares past the line of the foremost rider of his pack (GT-2.1, GT-2.2).
    front: int
    #: His place in the pack, 1 = foremost (FR-72's order within a round); None: as listed.
    place: int | None = None


@dataclass(frozen=True, slots=True)
class BoardTime:
    """A rider's stage result as the rules form it: position, Time tokens and tile seconds."""

    rider: int
    position: int
    minutes: int
    seconds: int

    @property
    def time(self) -> int:
        return 60 * self.minutes + self.seconds


def finishing_order(crossings: Sequence[Crossing]) -> list[Crossing]:
    """FR-72 from the board: earlier rounds first; in a round, packs front first (the foremost
    pack is furthest past the line); in a pack, by place, then as listed."""
    indexed = list(enumerate(crossings))
    indexed.sort(
        key=lambda item: (
            item[1].round,
            -item[1].front,
            item[1].place if item[1].place is not None else math.inf,
            item[0],
        )
    )
    return [crossing for _index, crossing in indexed]


def board_times(crossings: Sequence[Crossing], values: Sequence[int]) -> list[BoardTime]:
    """Every rider's result in finishing order, round by round as GT-2 describes it.

    At the end of each round from the first one in which a rider crossed: the riders who
    crossed in it take the seconds beside the foremost rider of their own pack (GT-2.1,
    GT-2.2); every rider who has not crossed yet takes one 1-minute Time token (GT-2.3).
    ``crossings`` must be free of :func:`board_issues`.
    """
    minutes = dict.fromkeys((c.rider for c in crossings), 0)
    seconds: dict[int, int] = {}
    last_round = max((c.round for c in crossings), default=0)
    for number in range(1, last_round + 1):
        for crossing in crossings:
            if crossing.round == number:
                seconds[crossing.rider] = tile_seconds(values, crossing.front)
            elif crossing.round > number:
                minutes[crossing.rider] += 1
    return [
        BoardTime(c.rider, position, minutes[c.rider], seconds[c.rider])
        for position, c in enumerate(finishing_order(crossings), start=1)
    ]


def board_issues(
    crossings: Sequence[Crossing],
    riders: Sequence[int],
    values: Sequence[int],
    *,
    dummies: bool = False,
) -> list[Issue]:
    """Every reason the board entry cannot give times: ``index`` is the crossing's row.

    Every rider of ``riders`` crosses once; rounds count from 1; a pack front is a square of
    the tile (1..len(values)); places within one pack (a round and front) are distinct. Round 1
    is the first round anyone crossed, so some rider crossed in it, unless dummy riders (who are
    not entered) may have been the first.
    """
    issues: list[Issue] = []
    known = set(riders)
    counts = Counter(c.rider for c in crossings)
    for index, crossing in enumerate(crossings):
        issues += _row_issues(index, crossing, known, counts, len(values))
    for rider in riders:
        if counts[rider] == 0:
            issues.append(
                Issue(
                    code="board_missing",
                    message="Every rider crosses the line.",
                    params={"rider": rider},
                )
            )
    places = Counter((c.round, c.front, c.place) for c in crossings if c.place is not None)
    for index, crossing in enumerate(crossings):
        if (
            crossing.place is not None
            and places[(crossing.round, crossing.front, crossing.place)] > 1
        ):
            issues.append(
                Issue(
                    code="board_place_taken",
                    message="Two riders of one pack have the same place.",
                    index=index,
                    field="place",
                    params={"place": crossing.place},
                )
            )
    if crossings and not dummies and min(c.round for c in crossings) > 1:
        issues.append(
            Issue(
                code="board_no_first_round",
                message="Round 1 is the first round in which a rider crossed.",
            )
        )
    return issues


def _row_issues(
    index: int, crossing: Crossing, known: set[int], counts: Counter[int], squares: int
) -> list[Issue]:
    issues = []
    if crossing.rider not in known:
        issues.append(
            Issue(
                code="board_unknown_rider",
                message="Not a rider of this tour.",
                index=index,
                field="rider",
                params={"rider": crossing.rider},
            )
        )
    elif counts[crossing.rider] > 1:
        issues.append(
            Issue(
                code="board_repeated_rider",
                message="A rider crosses once.",
                index=index,
                field="rider",
                params={"rider": crossing.rider},
            )
        )
    if crossing.round < 1:
        issues.append(
            Issue(code="board_round", message="Rounds count from 1.", index=index, field="round")
        )
    if not 1 <= crossing.front <= squares:
        issues.append(
            Issue(
                code="board_front",
                message=f"The foremost rider stands 1 to {squares} squares past the line.",
                index=index,
                field="front",
                params={"max": squares},
            )
        )
    if crossing.place is not None and crossing.place < 1:
        issues.append(
            Issue(code="board_place", message="Places count from 1.", index=index, field="place")
        )
    return issues


__all__ = [
    "BoardTime",
    "Crossing",
    "board_issues",
    "board_times",
    "finishing_order",
    "tile_seconds",
]
