"""The board as the replay checker sees it: spaces, steps, lines and neighbours (§15).

Independent of the engine's :mod:`games.formula_d.track` on purpose: the replay checker
(:mod:`games.formula_d.check`) must not trust the code it checks, so it rebuilds the geometry
from the circuit data and the rules' own words. A position is ``(segment, lane, space)``, 0-based;
the pit lane is segment ``-1`` with one lane. Lanes of a segment may differ in length; a space
covers the fraction ``[i / n, (i + 1) / n)`` of its segment (*project rule*, §15).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from games.formula_d.circuit import Circuit, Pos

PIT_SEGMENT = -1


class Board:
    """Steps and lines of one circuit, computed from its data (no engine tables)."""

    def __init__(self, circuit: Circuit) -> None:
        self.circuit = circuit
        self.segments = circuit.segments
        self.lanes = len(circuit.lanes)
        self.segment_index = {s.id: i for i, s in enumerate(self.segments)}
        self.lane_index = {name: i for i, name in enumerate(circuit.lanes)}

    def pos(self, label: Mapping[str, Any]) -> Pos:
        """The position of a replay path entry ``{"segment", "lane", "space"}`` (1-based)."""
        if label["segment"] == "PIT":
            return (PIT_SEGMENT, 0, int(label["space"]) - 1)
        return (
            self.segment_index[label["segment"]],
            self.lane_index[label["lane"]],
            int(label["space"]) - 1,
        )

    def length(self, pos: Pos) -> int:
        return self.segments[pos[0]].lengths[pos[1]]

    def is_corner(self, pos: Pos) -> bool:
        return pos[0] != PIT_SEGMENT and self.segments[pos[0]].is_corner

    def forward(self, pos: Pos) -> Pos:
        """One space ahead in the same lane; the pit lane leads to its exit."""
        seg, lane, i = pos
        if seg == PIT_SEGMENT:
            pit = self.circuit.pit
            assert pit is not None
            return (PIT_SEGMENT, 0, i + 1) if i + 1 < pit.length else pit.exit
        if i + 1 < self.length(pos):
            return (seg, lane, i + 1)
        return ((seg + 1) % len(self.segments), lane, 0)

    def diagonal(self, pos: Pos, lane: int) -> Pos | None:
        """FD-16: the space of ``lane`` reached by a diagonal step: the first one reaching beyond
        the far edge of ``pos``. Off the end of a corner there is none (a car leaves a corner in
        its lane, FD-21); off the end of a straight it is the next segment's first space."""
        seg, from_lane, i = pos
        if seg == PIT_SEGMENT or not 0 <= lane < self.lanes or abs(lane - from_lane) != 1:
            return None
        far = Fraction(i + 1, self.length(pos))
        other = self.segments[seg].lengths[lane]
        j = int(far * other)  # the first space j with (j + 1) / other > far
        if j < other:
            return (seg, lane, j)
        if self.segments[seg].is_corner:
            return None
        return ((seg + 1) % len(self.segments), lane, 0)

    def beside(self, pos: Pos) -> list[Pos]:
        """FD-29: the spaces of the next lanes that overlap ``pos`` along its segment."""
        seg, lane, i = pos
        if seg == PIT_SEGMENT:
            return []
        n = self.length(pos)
        lo, hi = Fraction(i, n), Fraction(i + 1, n)
        out: list[Pos] = []
        for other in (lane - 1, lane + 1):
            if 0 <= other < self.lanes:
                m = self.segments[seg].lengths[other]
                out += [
                    (seg, other, j)
                    for j in range(m)
                    if Fraction(j, m) < hi and Fraction(j + 1, m) > lo
                ]
        return out

    def far_edge(self, pos: Pos) -> tuple[int, Fraction]:
        """(segment, fraction of it covered up to the far edge of the space)."""
        return pos[0], Fraction(pos[2] + 1, self.length(pos))

    def before_line(self, pos: Pos) -> bool:
        """Whether ``pos`` lies in the finish line's segment, before the line."""
        line = self.circuit.finish_line
        return pos[0] == line.segment and pos[2] < line.after[pos[1]]

    def crosses_line(self, a: Pos, b: Pos) -> bool:
        """Whether the step from ``a`` to ``b`` crosses the finish line (track steps only)."""
        if a[0] == PIT_SEGMENT or b[0] == PIT_SEGMENT:
            return False
        return self.before_line(a) and not self.before_line(b)

    def progress(self, pos: Pos) -> Fraction:
        """FD-9: distance into the lap in segments (segment index plus the fraction covered)."""
        seg, frac = self.far_edge(pos)
        return seg + frac

    def inside_lanes(self, pos: Pos) -> int:
        """FD-10: lanes between ``pos`` and the inside of the current or next corner."""
        count = len(self.segments)
        for k in range(count):
            seg = self.segments[(pos[0] + k) % count]
            if seg.is_corner:
                return abs(pos[1] - (seg.inside or 0))
        return 0
