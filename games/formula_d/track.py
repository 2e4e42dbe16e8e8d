"""Geometry of a circuit: steps, coordinates, neighbours and lines (formula_d.md §15).

A step is one space forward in the same lane or diagonally into the next lane (FD-16). Lanes of a
segment may differ in length; positions are compared by the fraction of the segment they cover
(*project rule*, §15), kept exact with integer coordinates: each segment is ``unit`` long, the
least common multiple of its lane lengths, and a space of a lane ``unit / length`` wide. The pit
lane is the pseudo-segment ``PIT`` with one lane.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import lcm
from typing import Any

from games.formula_d.circuit import Circuit, Line, Pos

PIT = -1


class Track:
    """Precomputed geometry of one circuit; shared by every race on it (read-only)."""

    def __init__(self, circuit: Circuit) -> None:
        self.circuit = circuit
        self.segments = circuit.segments
        self.count = len(circuit.segments)
        self.lanes = len(circuit.lanes)
        self.unit = tuple(lcm(*s.lengths) for s in self.segments)
        bases: list[int] = []
        total = 0
        for u in self.unit:
            bases.append(total)
            total += u
        self.base = tuple(bases)
        self.lap_units = total
        # Policy progress in "average spaces" (floats are fine there; ordering uses integers).
        self.nominal = tuple(sum(s.lengths) / len(s.lengths) for s in self.segments)
        nominal_base: list[float] = []
        acc = 0.0
        for n in self.nominal:
            nominal_base.append(acc)
            acc += n
        self.nominal_base = tuple(nominal_base)
        self.nominal_lap = acc
        self.positions: tuple[Pos, ...] = tuple(
            (seg, lane, i)
            for seg, s in enumerate(self.segments)
            for lane in range(self.lanes)
            for i in range(s.lengths[lane])
        )
        self._forward = {p: self._compute_forward(p) for p in self.positions}
        self._diagonal: dict[tuple[Pos, int], Pos | None] = {}
        for p in self.positions:
            for lane in (p[1] - 1, p[1] + 1):
                if 0 <= lane < self.lanes:
                    self._diagonal[(p, lane)] = self._compute_diagonal(p, lane)
        self._beside = {p: self._compute_beside(p) for p in self.positions}
        self.next_corner = tuple(self._compute_next_corner(seg) for seg in range(self.count))
        # FD-9/FD-10 turn order per track space: (coord, inside_distance), read every round
        self.order_place = {p: (self.coord(p), self.inside_distance(p)) for p in self.positions}
        self._build_graph()

    # -- space graph (integer ids for the path search, moves.py) ----------------------------------

    def _build_graph(self) -> None:
        """Number every space (track, then pit lane) and tabulate its steps once per circuit.

        ``steps_all[n]`` lists ``(next id, lane, lane change)`` for the forward and diagonal steps
        of space ``n``, ``steps_fwd[n]`` only the forward one; pit spaces lead to the next pit
        space and the last one to the pit exit. Occupancy is then a bit mask over the ids.
        """
        self._number_spaces()
        self._lane_ordinals()
        self._steps()
        self.before_finish = self.before_table(self.circuit.finish_line)
        # (segment, far-edge coordinate) of each track space, for the zig-zag walk (FD-16)
        self.node_coord = tuple(self.coord(p) if p[0] != PIT else -1 for p in self.nodes)
        self.near_line = self._near_line()
        self.corner_longest = tuple(s.longest for s in self.segments)
        self.corner_rest = self._corner_rest()
        self.move_cache: dict[Any, Any] = {}  # search.py: searches on the empty track
        # search.py's lookups for danger, tunnels, police and debris, made on first use
        self.search_tables: Any = None
        # policy.py: the automatic driver's look-ahead tables and memo tables (pure caches)
        self.driver_tables: Any = None
        self.driver_memo: dict[tuple[object, ...], dict[Any, Any]] = {}
        # contact.py: per space id, the bit mask of the space ahead and those beside (FD-29)
        self.near_masks = self._near_masks()

    def _number_spaces(self) -> None:
        """Ids of the spaces (track, then pit lane), their order, labels and bits."""
        circuit = self.circuit
        pit = circuit.pit
        pit_spaces: list[Pos] = [(PIT, 0, i) for i in range(pit.length)] if pit else []
        self.nodes: tuple[Pos, ...] = (*self.positions, *pit_spaces)
        self.node_id: dict[Pos, int] = {p: n for n, p in enumerate(self.nodes)}
        # rank of each space in Pos order (options are listed by steps, then end space)
        ranked = sorted(range(len(self.nodes)), key=lambda n: self.nodes[n])
        order = [0] * len(self.nodes)
        for r, n in enumerate(ranked):
            order[n] = r
        self.node_order = tuple(order)
        ids = self.node_id
        self.pit_first = ids[pit_spaces[0]] if pit_spaces else -1
        self.pit_entry = ids[pit.entry] if pit else -1
        # (segment id, lane name, 1-based space) of each space, for the move log
        self.pos_label = {
            p: ("PIT", "P", p[2] + 1)
            if p[0] == PIT
            else (self.segments[p[0]].id, circuit.lanes[p[1]], p[2] + 1)
            for p in self.nodes
        }
        # the bit of each space in an occupancy mask, made once (a shift makes a new big int)
        self.node_bit = tuple(1 << n for n in range(len(self.nodes)))

    def _lane_ordinals(self) -> None:
        """Per space: its ordinal along its lane from the start of segment 0 (pit: -1), its
        segment, lane and corner, and whether it is in the pit lane."""
        # ordinal of each track space along its lane from the start of segment 0 (pit: -1)
        self.lane_lap = tuple(sum(s.lengths[k] for s in self.segments) for k in range(self.lanes))
        lane_base = [[0] * self.lanes for _ in self.segments]
        for k in range(self.lanes):
            acc = 0
            for i, s in enumerate(self.segments):
                lane_base[i][k] = acc
                acc += s.lengths[k]
        self.lane_idx = tuple(
            -1 if p[0] == PIT else lane_base[p[0]][p[1]] + p[2] for p in self.nodes
        )
        self.node_seg = tuple(p[0] for p in self.nodes)
        self.node_lane = tuple(p[1] for p in self.nodes)
        self.is_pit = tuple(p[0] == PIT for p in self.nodes)
        self.corner_of = tuple(
            p[0] if p[0] != PIT and self.segments[p[0]].is_corner else -1 for p in self.nodes
        )
        self.seg_stops = tuple(s.stops for s in self.segments)

    def _steps(self) -> None:
        """``fwd``, ``steps_all`` and ``steps_fwd`` per space id (see :meth:`_build_graph`)."""
        pit = self.circuit.pit
        ids = self.node_id
        fwd: list[int] = []
        steps_all: list[tuple[tuple[int, int, bool], ...]] = []
        for p in self.nodes:
            if p[0] == PIT:
                assert pit is not None
                q = (PIT, 0, p[2] + 1) if p[2] + 1 < pit.length else pit.exit
                fwd.append(ids[q])
                steps_all.append(((ids[q], 0, False),))
                continue
            f = ids[self._forward[p]]
            fwd.append(f)
            out = [(f, p[1], False)]
            for lane in (p[1] - 1, p[1] + 1):
                d = self._diagonal.get((p, lane))
                if d is not None:
                    out.append((ids[d], lane, True))
            steps_all.append(tuple(out))
        self.fwd = tuple(fwd)
        self.steps_all = tuple(steps_all)
        self.steps_fwd = tuple(s[:1] for s in steps_all)

    def _near_line(self) -> tuple[bool, ...]:
        """Spaces from which some path of at most 40 steps reaches the finish line's segment:
        only there do finishing and pitting matter to the path search (memo keys, search.py)."""
        steps_all = self.steps_all
        dist = [10**6] * len(self.nodes)
        line_segment = self.circuit.finish_line.segment
        frontier = [n for n, p in enumerate(self.nodes) if p[0] == line_segment]
        for n in frontier:
            dist[n] = 0
        preds: list[list[int]] = [[] for _ in self.nodes]
        for n, steps in enumerate(steps_all):
            for target, _, _ in steps:
                preds[target].append(n)
        for depth in range(1, 41):
            reached: list[int] = []
            for m in frontier:
                for n in preds[m]:
                    if dist[n] > depth:
                        dist[n] = depth
                        reached.append(n)
            frontier = reached
        return tuple(steps <= 40 or p[0] == PIT for steps, p in zip(dist, self.nodes, strict=True))

    def _corner_rest(self) -> tuple[int, ...]:
        """Per space id: the most spaces a path can still move through its corner (FD-20).

        Steps inside a corner go forward, so the corner's spaces form an acyclic graph: a space's
        value is one more than its best successor's in the same corner (0 outside corners).
        """
        rest = [0] * len(self.nodes)
        for n in sorted(range(len(self.nodes)), key=self._depth_in_segment, reverse=True):
            c = self.corner_of[n]
            if c >= 0:
                inside = [rest[q] + 1 for q, _, _ in self.steps_all[n] if self.corner_of[q] == c]
                rest[n] = max(inside, default=0)
        return tuple(rest)

    def _depth_in_segment(self, n: int) -> int:
        # steps inside a segment increase the far-edge coordinate: an order that visits a
        # space's successors first when reversed
        return self.node_coord[n]

    def _near_masks(self) -> tuple[int, ...]:
        masks: list[int] = []
        ids = self.node_id
        for p in self.nodes:
            mask = 0
            if p[0] != PIT:
                mask = 1 << ids[self.forward(p)]
                for q in self.beside(p):
                    mask |= 1 << ids[q]
            masks.append(mask)
        return tuple(masks)

    def before_table(self, line: Line) -> tuple[bool, ...]:
        """Per space id: whether it lies before ``line`` (pit spaces never do)."""
        return tuple(p[0] != PIT and self.before_line(p, line) for p in self.nodes)

    def occupancy(self, positions: Iterable[Pos]) -> int:
        """The bit mask of the space ids of ``positions``."""
        ids = self.node_id
        mask = 0
        for p in positions:
            mask |= 1 << ids[p]
        return mask

    # -- steps ---------------------------------------------------------------------------------

    def _compute_forward(self, pos: Pos) -> Pos:
        seg, lane, i = pos
        if i + 1 < self.segments[seg].lengths[lane]:
            return (seg, lane, i + 1)
        return ((seg + 1) % self.count, lane, 0)

    def _compute_diagonal(self, pos: Pos, lane: int) -> Pos | None:
        seg, from_lane, i = pos
        end = (i + 1) * self.unit[seg] // self.segments[seg].lengths[from_lane]
        width = self.unit[seg] // self.segments[seg].lengths[lane]
        j = end // width  # the first space of the other lane that reaches beyond our space
        if j < self.segments[seg].lengths[lane]:
            return (seg, lane, j)
        if self.segments[seg].is_corner:
            return None  # FD-21: a car leaves a corner in the lane it is in
        return ((seg + 1) % self.count, lane, 0)

    def forward(self, pos: Pos) -> Pos:
        """The next space in the same lane (crossing into the next segment at its end)."""
        return self._forward[pos]

    def diagonal(self, pos: Pos, lane: int) -> Pos | None:
        """The space reached by a diagonal step into ``lane``; ``None`` when not allowed."""
        return self._diagonal.get((pos, lane))

    # -- coordinates ---------------------------------------------------------------------------

    def coord(self, pos: Pos) -> int:
        """Distance into the lap (integer units) of the far edge of the space."""
        seg, lane, i = pos
        return self.base[seg] + (i + 1) * self.unit[seg] // self.segments[seg].lengths[lane]

    def nominal_coord(self, pos: Pos) -> float:
        """Distance into the lap in average spaces, for the driver policy."""
        seg, lane, i = pos
        return (
            self.nominal_base[seg] + self.nominal[seg] * (i + 1) / self.segments[seg].lengths[lane]
        )

    def _compute_beside(self, pos: Pos) -> tuple[Pos, ...]:
        # FD-29: spaces of the next lanes that overlap this one along the segment.
        seg, lane, i = pos
        u = self.unit[seg]
        lo = i * u // self.segments[seg].lengths[lane]
        hi = (i + 1) * u // self.segments[seg].lengths[lane]
        out: list[Pos] = []
        for other in (lane - 1, lane + 1):
            if not 0 <= other < self.lanes:
                continue
            width = u // self.segments[seg].lengths[other]
            for j in range(self.segments[seg].lengths[other]):
                if j * width < hi and (j + 1) * width > lo:
                    out.append((seg, other, j))
        return tuple(out)

    def beside(self, pos: Pos) -> tuple[Pos, ...]:
        """Spaces directly beside ``pos`` in the adjacent lanes."""
        return self._beside[pos]

    def _compute_next_corner(self, seg: int) -> int:
        for k in range(self.count):
            candidate = (seg + k) % self.count
            if self.segments[candidate].is_corner:
                return candidate
        raise AssertionError("validated circuits have a corner")

    def inside_distance(self, pos: Pos) -> int:
        """FD-10: lanes between ``pos`` and the inside of the current or next corner."""
        corner = self.segments[self.next_corner[pos[0]]]
        inside = corner.inside if corner.inside is not None else 0
        return abs(pos[1] - inside)

    # -- lines ---------------------------------------------------------------------------------

    @staticmethod
    def before_line(pos: Pos, line: Line) -> bool:
        """Whether ``pos`` lies in the line's segment, before the line."""
        return pos[0] == line.segment and pos[2] < line.after[pos[1]]

    def crosses(self, a: Pos, b: Pos, line: Line) -> bool:
        """Whether the step from ``a`` to ``b`` crosses ``line``."""
        if a[0] == PIT or b[0] == PIT:
            return False
        return self.before_line(a, line) and not self.before_line(b, line)
