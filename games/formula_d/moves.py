"""Legal moves of one car for one roll (FD-15 to FD-27, FD-44, FD-49, FD-54, FD-55).

:func:`move_options` runs a bounded breadth-first search over the circuit's space graph
(:class:`~games.formula_d.track.Track` numbers the spaces and tabulates their steps once) and
returns one :class:`MoveOption` per end space: the cheapest path there (a sensible driver never
takes a dearer path to the same space; *project rule*). Options shorter than the roll are braking;
when no path uses the whole roll the car is blocked (FD-27) and ``forced`` says how many spaces it
had to give up. Costs in WP are applied by the race, which knows the rule set.

Search states are plain tuples ``(space id, lane changes, zig-zag origin, flags, short corners)``
with their costs; states equal in all of these are merged, keeping the cheapest (overshoot WP,
then danger spaces). Paths are parent chains, turned into tuples only for the options returned.
Options on an empty stretch of track are memoised per circuit with the bit mask of every space the
search looked at, and reused while none of those spaces is occupied (a pure cache).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from games.formula_d.circuit import Line, Pos
from games.formula_d.track import PIT, Track


@dataclass(frozen=True, slots=True)
class MoveOption:
    """One way to end a move; ``steps`` spaces moved out of ``roll``."""

    end: Pos
    steps: int
    roll: int
    path: tuple[Pos, ...]
    overshoot_spaces: int = 0  # FD-22: WP-charged spaces beyond short corners' exit lines
    overshoot_out: bool = False  # FD-22: two or more stops short: eliminated
    short: bool = False  # an overshooting move (FD-23, FD-24)
    exited_corner: bool = False  # crossed some corner's exit line (FD-24 "always")
    corners_left: tuple[int, ...] = ()
    crossed_line: bool = False
    finished: bool = False
    into_box: bool = False
    danger: tuple[Pos, ...] = ()
    police: bool = False
    forced: int = 0  # FD-27: spaces the car could not move whatever the path
    nitro: bool = False
    debris: tuple[Pos, ...] = ()  # FD-64 (advanced): debris spaces passed over or stopped on
    slipstream: int = 0  # FD-65 (advanced): slipstream spaces added to the roll

    @property
    def braked(self) -> int:
        """Spaces not moved on the track (0 when finishing, boxing or in the pit lane)."""
        if self.finished or self.into_box or self.overshoot_out or self.end[0] == PIT:
            return 0
        return self.roll - self.steps

    @property
    def in_pit(self) -> bool:
        return self.end[0] == PIT


@dataclass(frozen=True, slots=True)
class MoveContext:
    """What the path search needs to know about the car and the race."""

    start: Pos
    corner: int  # the corner segment the car stands in, or -1
    stops: int
    final_crossing: bool  # the next crossing of the finish line finishes the race
    may_pit: bool
    box: int  # the car's own box (pit-lane space), or -1 when it has stopped there already
    max_lane_changes: int
    lock_always: bool  # FD-21 exit_lane_lock
    max_missing: int  # FD-22 overshoot_max_missing_stops
    danger: Collection[Pos] = ()
    tunnels: Mapping[Pos, Pos] | None = None
    police_line: Line | None = None


# The search parameters as one hashable tuple (the memo key with the roll):
# (start id, corner, stops, final crossing, may pit, box, max lane changes, lock always,
#  max missing stops, danger spaces, tunnel pairs, police line, debris spaces).
Params = tuple[
    int,
    int,
    int,
    bool,
    bool,
    int,
    int,
    bool,
    int,
    frozenset[Pos],
    tuple[tuple[Pos, Pos], ...],
    Line | None,
    frozenset[Pos],
]

# State flags (bits of the ``flags`` field of a search state).
_LOCKED, _CROSSED, _EXITED, _POLICE = 1, 2, 4, 8
_CACHE_LIMIT = 100_000
_Key = tuple[int, int, int, int, int]  # (space id, lane changes, zig origin id, flags, short)
_Val = tuple[int, tuple[int, ...], Any, tuple[int, ...], tuple[int, ...]]  # over, danger, chain,
# corners left, debris


def params_of(track: Track, ctx: MoveContext) -> Params:
    """The hashable search parameters of ``ctx``."""
    tunnels = tuple(sorted(ctx.tunnels.items())) if ctx.tunnels else ()
    return (
        track.node_id[ctx.start],
        ctx.corner,
        ctx.stops,
        ctx.final_crossing,
        ctx.may_pit,
        ctx.box,
        ctx.max_lane_changes,
        ctx.lock_always,
        ctx.max_missing,
        frozenset(ctx.danger),
        tunnels,
        ctx.police_line,
        frozenset(),
    )


def move_options(
    track: Track, ctx: MoveContext, roll: int, occupied: Collection[Pos]
) -> list[MoveOption]:
    """Every end of a legal move of up to ``roll`` spaces from ``ctx.start``."""
    return options_for(track, params_of(track, ctx), roll, track.occupancy(occupied))


def options_for(track: Track, params: Params, roll: int, occupied: int) -> list[MoveOption]:
    """:func:`move_options` with prepared parameters and an occupancy bit mask.

    The options on an empty stretch of track depend only on ``params`` and ``roll``; they are
    memoised with the spaces every path could touch and reused while none of them is occupied.
    """
    cache: dict[Any, Any] = track.move_cache
    key = (params, roll)
    hit = cache.get(key)
    if hit is not None and not hit[1] & occupied:
        options: list[MoveOption] = hit[0]
        return options
    options, footprint = _search(track, params, roll, occupied)
    if not footprint & occupied:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        cache[key] = (options, footprint)
    return options


class _Tables:
    """Per-circuit lookups for the optional features (danger, tunnels, police, debris)."""

    def __init__(self, track: Track) -> None:
        self.track = track
        self.sets: dict[frozenset[Pos], frozenset[int]] = {}
        self.maps: dict[tuple[tuple[Pos, Pos], ...], dict[int, int]] = {}
        self.lines: dict[Line, tuple[bool, ...]] = {}

    def node_set(self, spaces: frozenset[Pos]) -> frozenset[int]:
        out = self.sets.get(spaces)
        if out is None:
            ids = self.track.node_id
            out = self.sets[spaces] = frozenset(ids[p] for p in spaces if p in ids)
        return out

    def node_map(self, pairs: tuple[tuple[Pos, Pos], ...]) -> dict[int, int]:
        out = self.maps.get(pairs)
        if out is None:
            ids = self.track.node_id
            out = self.maps[pairs] = {ids[a]: ids[b] for a, b in pairs}
        return out

    def line(self, line: Line) -> tuple[bool, ...]:
        out = self.lines.get(line)
        if out is None:
            out = self.lines[line] = self.track.before_table(line)
        return out


_TABLES: dict[int, _Tables] = {}


def _tables(track: Track) -> _Tables:
    tables = _TABLES.get(id(track))
    if tables is None or tables.track is not track:
        tables = _TABLES[id(track)] = _Tables(track)
    return tables


def _search(
    track: Track, params: Params, roll: int, occ: int
) -> tuple[list[MoveOption], int]:
    (
        start,
        corner,
        stops,
        final_crossing,
        may_pit,
        box,
        max_lc,
        lock_always,
        max_missing,
        danger_pos,
        tunnel_pairs,
        police_line,
        debris_pos,
    ) = params
    tables = _tables(track)
    danger = tables.node_set(danger_pos) if danger_pos else frozenset()
    debris = tables.node_set(debris_pos) if debris_pos else frozenset()
    tunnels = tables.node_map(tunnel_pairs) if tunnel_pairs else None
    police = tables.line(police_line) if police_line is not None else None
    fwd = track.fwd
    steps_all, steps_fwd = track.steps_all, track.steps_fwd
    lane_of, seg_of, is_pit = track.node_lane, track.node_seg, track.is_pit
    corner_of, seg_stops = track.corner_of, track.seg_stops
    before_finish = track.before_finish
    coord = track.node_coord
    pit_entry = track.pit_entry if may_pit and box >= 0 else -2
    pit_first = track.pit_first
    box_node = pit_first + box if box >= 0 and pit_first >= 0 else -2
    touched = 0

    def zig_ok(left_from: int, back: int) -> bool:
        # FD-16 / FD-54 / FD-64: walk the abandoned lane from where the car left it up to where it
        # comes back; the detour must have gone round a car, a danger or a debris space.
        nonlocal touched
        back_seg, target = seg_of[back], coord[back]
        p = fwd[left_from]
        for _ in range(64):
            if seg_of[p] == back_seg and coord[p] >= target:
                return False
            touched |= 1 << p
            if occ >> p & 1 or p in danger or p in debris:
                return True
            p = fwd[p]
        return False

    start_key: _Key = (start, 0, -1, 0, 0)
    start_val: _Val = (0, (), (start, None), (), ())
    layer: dict[_Key, _Val] = {start_key: start_val}
    ends: list[tuple[int, str, _Key, _Val]] = [(0, "", start_key, start_val)]
    deepest = 0
    terminal_seen = False
    for depth in range(1, roll + 1):
        nxt: dict[_Key, _Val] = {}
        for (node, changes, zig, flags, short), (over, dz, chain, corners, db) in layer.items():
            if is_pit[node]:
                # FD-49: one lane, no overtaking; a car reaching the car ahead stops behind it.
                q = fwd[node]
                touched |= 1 << q
                if occ >> q & 1:
                    continue
                nkey = (q, changes, zig, flags, short)
                nval = (over, dz, (q, chain), corners, db)
                if q == box_node:
                    ends.append((depth, "box", nkey, nval))  # FD-44: into its own box
                    terminal_seen = True
                    continue
                old = nxt.get(nkey)
                if old is None or over < old[0] or (over == old[0] and _hazards(nval, old)):
                    nxt[nkey] = nval
                continue
            cands = steps_fwd[node] if flags & _LOCKED or changes >= max_lc else steps_all[node]
            for q, lane, changed in cands:
                nchanges, nzig = changes, zig
                if changed:
                    nchanges += 1
                    if zig < 0:
                        nzig = node
                    elif lane == lane_of[zig] and not zig_ok(zig, q):
                        continue  # FD-16: back into the lane left only to go round a car
                if q == pit_entry and not changed:
                    touched |= 1 << pit_first
                    if not occ >> pit_first & 1:
                        nkey = (pit_first, nchanges, nzig, flags | _LOCKED, short)
                        nval = (over, dz, (pit_first, chain), corners, db)
                        if box == 0:
                            ends.append((depth, "box", nkey, nval))
                            terminal_seen = True
                        else:
                            old = nxt.get(nkey)
                            if (
                                old is None
                                or over < old[0]
                                or (over == old[0] and _hazards(nval, old))
                            ):
                                nxt[nkey] = nval
                if tunnels is not None:
                    q = tunnels.get(q, q)  # FD-55: the pair counts as one space
                touched |= 1 << q
                if occ >> q & 1:
                    continue  # FD-15: no passing through or over a car
                nflags, nshort, ncorners = flags, short, corners
                terminal = ""
                c = corner_of[node]
                if c >= 0 and seg_of[q] != c:
                    nflags |= _EXITED
                    ncorners = (*corners, c)
                    made = stops if c == corner and not corners else 0
                    missing = seg_stops[c] - made
                    if missing > 0:
                        nshort += 1
                        nflags |= _LOCKED  # FD-23: an overshooting car keeps its lane
                        if missing > max_missing:
                            terminal = "out"
                    elif lock_always:
                        nflags |= _LOCKED  # FD-21
                nover = over + nshort  # FD-22: every space beyond a short corner's exit line
                if before_finish[node] and not before_finish[q]:
                    nflags |= _CROSSED
                    if final_crossing and not terminal:
                        terminal = "finish"
                if police is not None and police[node] and not police[q]:
                    nflags |= _POLICE
                ndz = (*dz, q) if q in danger else dz
                ndb = (*db, q) if q in debris else db
                nkey = (q, nchanges, nzig, nflags, nshort)
                nval = (nover, ndz, (q, chain), ncorners, ndb)
                if terminal:
                    ends.append((depth, terminal, nkey, nval))
                    terminal_seen = True
                    continue
                old = nxt.get(nkey)
                if old is None or nover < old[0] or (nover == old[0] and _hazards(nval, old)):
                    nxt[nkey] = nval
        if not nxt:
            break
        deepest = depth
        layer = nxt
        ends.extend((depth, "", k, v) for k, v in nxt.items())
    forced = 0 if deepest == roll or terminal_seen else roll - deepest
    return _collapse(track, roll, ends, forced), touched


def _hazards(new: _Val, old: _Val) -> bool:
    # Fewer danger (FD-54) and debris (FD-64) spaces: each is a black-die test.
    return len(new[1]) + len(new[4]) < len(old[1]) + len(old[4])


def _collapse(
    track: Track, roll: int, ends: list[tuple[int, str, _Key, _Val]], forced: int
) -> list[MoveOption]:
    # Keep the cheapest way to each end space (options are built for the winners only).
    is_pit = track.is_pit
    best: dict[int, tuple[tuple[int, int, int], int, str, _Key, _Val]] = {}
    for depth, terminal, key, val in ends:
        node = key[0]
        if terminal == "finish":
            slot, braked = -2, 0  # every finishing path is the same outcome
        elif terminal == "out":
            slot, braked = -3, 0
        elif terminal == "box" or is_pit[node]:
            slot, braked = node, 0
        else:
            slot, braked = node, roll - depth
        rank = (1 if terminal == "out" else 0, braked + val[0], len(val[1]) + len(val[4]))
        old = best.get(slot)
        if old is None or rank < old[0]:
            best[slot] = (rank, depth, terminal, key, val)
    nodes = track.nodes
    options: list[MoveOption] = []
    for _, depth, terminal, key, val in best.values():
        over, dz, chain, corners, db = val
        path: list[Pos] = []
        link = chain
        while link is not None:
            path.append(nodes[link[0]])
            link = link[1]
        path.reverse()
        flags = key[3]
        options.append(
            MoveOption(
                end=nodes[key[0]],
                steps=depth,
                roll=roll,
                path=tuple(path),
                overshoot_spaces=over,
                overshoot_out=terminal == "out",
                short=key[4] > 0,
                exited_corner=bool(flags & _EXITED),
                corners_left=corners,
                crossed_line=bool(flags & _CROSSED),
                finished=terminal == "finish",
                into_box=terminal == "box",
                danger=tuple(nodes[n] for n in dz),
                police=bool(flags & _POLICE),
                forced=forced,
                debris=tuple(nodes[n] for n in db),
            )
        )
    options.sort(key=lambda o: (o.steps, o.end))
    return options
