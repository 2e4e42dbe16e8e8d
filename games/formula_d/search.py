"""Legal moves of one car for one roll (FD-15 to FD-27, FD-44, FD-49, FD-54, FD-55, FD-64).

:func:`move_options` runs a bounded breadth-first search over the circuit's space graph
(:class:`~games.formula_d.track.Track` numbers the spaces and tabulates their steps once) and
returns one option per end space: the cheapest path there (a sensible driver never takes a
dearer path to the same space; *project rule*). Options shorter than the roll are braking; when no
path uses the whole roll the car is blocked (FD-27) and ``forced`` says how many spaces it had to
give up. Costs in WP are applied by the race, which knows the rule set.

Search states are plain tuples ``(space id, lane changes, zig-zag key, flags, short corners)``
with their costs; states equal in all of these are merged, keeping the cheapest (overshoot WP,
then danger and debris spaces). Paths are parent chains, turned into tuples only for the options
used. Searches on the empty track are memoised per circuit and start, layer by layer, with the
bit mask of every space each layer looked at, and reused while none of those spaces is occupied
(a pure cache: see ``docs/decisions-formula-d.md``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from operator import attrgetter
from typing import NamedTuple

from games.formula_d.circuit import Line, Pos
from games.formula_d.options import (
    CROSSED,
    EXITED,
    LOCKED,
    POLICE,
    MoveContext,
    MoveOption,
    OptionList,
    Params,
    Record,
    StateCost,
    StateKey,
)
from games.formula_d.track import Track

_CACHE_LIMIT = 20_000  # starts per circuit (Monaco has about 500 spaces x stops x flags)
_NO_SPACES: frozenset[Pos] = frozenset()
_REACH = 64  # no move is longer (FD-1 dice, nitro, slipstream): zig-zag walks stop there


class _Rank(NamedTuple):
    """How dear an end is, lower first: eliminated, then WP spent, then hazard spaces."""

    out: bool
    spent: int  # overshoot WP, less the spaces moved for a track end (see _keep)
    hazards: int  # danger (FD-54) and debris (FD-64) spaces: each a black-die test


class _Item(NamedTuple):
    """A kept record with its rank and its place in the options' ``(steps, end)`` order."""

    rank: _Rank
    record: Record
    order: int


# per end slot, its successive cheapest records (tuples, not lists: the cyclic collector
# untracks tuples of plain data, and the memo keeps many of these)
_History = tuple[_Item, ...]
_SORT_KEY = attrgetter("order")


def params_of(track: Track, ctx: MoveContext) -> Params:
    """The hashable search parameters of ``ctx``."""
    tunnels = tuple(sorted(ctx.tunnels.items())) if ctx.tunnels else ()
    return Params(
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
        ctx.corner_spaces,
    )


def move_options(
    track: Track, ctx: MoveContext, roll: int, occupied: Collection[Pos]
) -> list[MoveOption]:
    """Every end of a legal move of up to ``roll`` spaces from ``ctx.start``."""
    return list(options_for(track, params_of(track, ctx), roll, track.occupancy(occupied)))


def corner_spaces_key(track: Track, start: int, spaces: int) -> int:
    """FD-20: ``spaces`` already moved through the start's corner, or -1 when no path from
    ``start`` can reach the corner's ``longest`` any more (then starts share one search)."""
    c = track.corner_of[start]
    if c < 0 or spaces < 0 or spaces + track.corner_rest[start] <= track.corner_longest[c]:
        return -1
    return spaces


def options_for(track: Track, params: Params, roll: int, occupied: int) -> OptionList:
    """:func:`move_options` with prepared parameters and an occupancy bit mask.

    The search on the empty track is kept per circuit and start (``params``), layer by layer
    with the spaces each layer looked at; a later roll from the same start reuses it. While no
    space looked at is occupied the memoised options are the answer; otherwise the search is
    resumed with the cars from the last layer that did not see one (a pure cache).
    """
    params = _normalised(track, params)
    if params.debris:
        # FD-64 debris changes during a race: the memo is kept without it, and used while the
        # search looked at no debris space; otherwise an unmemoised search with it.
        tables = _tables(track)
        free = _memo(track, params._replace(debris=_NO_SPACES), roll)
        if free.fp[roll] & tables.mask(params.debris):
            free = _memo(track, params, roll, tables.with_debris)
    else:
        found: _Search | None = track.move_cache.get(params)
        free = found if found is not None and len(found.fp) > roll else _memo(track, params, roll)
    fp = free.fp
    if not fp[roll] & occupied:
        options = free.by_roll.get(roll)
        if options is None:
            if len(free.by_roll) > 64:
                free.by_roll.clear()
            options = free.by_roll[roll] = free.collapse(roll)
        return options
    first = 1
    while not fp[first] & occupied:
        first += 1
    return free.resume(first - 1, roll, occupied)


def _memo(
    track: Track, params: Params, roll: int, cache: dict[Params, _Search] | None = None
) -> _Search:
    if cache is None:
        cache = track.move_cache
    free = cache.get(params)
    if free is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        free = cache[params] = _Search(track, params)
    free.extend(roll)
    return free


def _normalised(track: Track, params: Params) -> Params:
    # Whether the move may finish or pit matters only near the line: one memo entry elsewhere;
    # the spaces moved through a corner only while FD-20's cap can bind.
    spaces = corner_spaces_key(track, params.start, params.corner_spaces)
    if spaces != params.corner_spaces:
        params = params._replace(corner_spaces=spaces)
    if params.final_crossing or params.may_pit or params.box >= 0:
        start = params.start
        if not track.near_line[start]:
            return params._replace(final_crossing=False, may_pit=False, box=-1)
        if not params.may_pit and not track.is_pit[start] and params.box >= 0:
            return params._replace(box=-1)
    return params


class _Tables:
    """Per-circuit lookups for the optional features (danger, tunnels, police, debris)."""

    def __init__(self, track: Track) -> None:
        self.track = track
        self.sets: dict[frozenset[Pos], frozenset[int]] = {}
        self.maps: dict[tuple[tuple[Pos, Pos], ...], dict[int, int]] = {}
        self.lines: dict[Line, tuple[bool, ...]] = {}
        self.prefixes: dict[int, list[int]] = {}
        # searches whose parameters hold debris (FD-64): they go stale as debris is added, so
        # they are kept apart from the main memo and dropped in bulk when it fills
        self.with_debris: dict[Params, _Search] = {}

    def node_set(self, spaces: frozenset[Pos]) -> frozenset[int]:
        out = self.sets.get(spaces)
        if out is None:
            if len(self.sets) > 10_000:
                self.sets.clear()
            ids = self.track.node_id
            out = self.sets[spaces] = frozenset(ids[p] for p in spaces if p in ids)
        return out

    def node_map(self, pairs: tuple[tuple[Pos, Pos], ...]) -> dict[int, int]:
        out = self.maps.get(pairs)
        if out is None:
            ids = self.track.node_id
            out = self.maps[pairs] = {ids[a]: ids[b] for a, b in pairs}
        return out

    def lane_prefix(self, start: int) -> list[int]:
        """Per k up to ``_REACH``: the bit mask of the next k spaces of ``start``'s lane."""
        out = self.prefixes.get(start)
        if out is None:
            fwd = self.track.fwd
            out = self.prefixes[start] = [0]
            p = start
            for _ in range(_REACH):
                p = fwd[p]
                out.append(out[-1] | 1 << p)
        return out

    def mask(self, spaces: frozenset[Pos]) -> int:
        out = 0
        for n in self.node_set(spaces):
            out |= 1 << n
        return out

    def line(self, line: Line) -> tuple[bool, ...]:
        out = self.lines.get(line)
        if out is None:
            out = self.lines[line] = self.track.before_table(line)
        return out


def _tables(track: Track) -> _Tables:
    """The track's search lookups, made on first use and kept on the track."""
    tables: _Tables | None = track.search_tables
    if tables is None:
        tables = track.search_tables = _Tables(track)
    return tables


class _Layer:
    """One layer of a search being built: the states after one more space, the terminal ends
    reached (finish, box, out), the bit mask of the spaces looked at, and whether a terminal
    was reached."""

    __slots__ = ("ends", "states", "term", "touched")

    def __init__(self) -> None:
        self.states: dict[StateKey, StateCost] = {}
        self.ends: list[Record] = []
        self.touched = 0
        self.term = False

    def add(self, key: StateKey, val: StateCost) -> None:
        """Keep the cheaper of two equal states (overshoot WP, then hazards; the first on ties)."""
        old = self.states.setdefault(key, val)
        if old is not val and (val[0] < old[0] or (val[0] == old[0] and _hazards(val, old))):
            self.states[key] = val

    def end(self, depth: int, terminal: str, key: StateKey, val: StateCost) -> None:
        self.ends.append(Record(depth, terminal, key, val))
        self.term = True


_BARRED = -2  # a lane change FD-16 forbids (in place of a zig-zag key)


class _Search:
    """The breadth-first path search from one start on the empty track, extended on demand.

    ``layers[d]`` holds the states after ``d`` spaces, ``slots`` the cheapest records per end
    space (see :func:`_keep`), ``fp[d]`` the bit mask of every space looked at up to depth
    ``d`` and ``term[d]`` whether a terminal (finish, box, out) was reached by then. ``snaps[d]``
    keeps, per end slot, the best record within ``d`` spaces: where a resumed search starts.
    """

    __slots__ = (
        "box_node",
        "by_roll",
        "canonical",
        "car_lane",
        "danger",
        "debris",
        "deepest",
        "fp",
        "hazards",
        "lane_prefix",
        "layers",
        "obstacles",
        "params",
        "pit_entry",
        "police",
        "slots",
        "snaps",
        "start_idx",
        "start_lane",
        "straight",
        "term",
        "track",
        "tunnels",
    )  # fmt: skip

    def __init__(self, track: Track, params: Params) -> None:
        self.track = track
        self.params = params
        tables = _tables(track)
        self.danger = tables.node_set(params.danger) if params.danger else frozenset()
        self.debris = tables.node_set(params.debris) if params.debris else frozenset()
        self.tunnels = tables.node_map(params.tunnels) if params.tunnels else None
        self.police = tables.line(params.police_line) if params.police_line is not None else None
        box = params.box
        self.pit_entry = track.pit_entry if params.may_pit and box >= 0 else -2
        self.box_node = track.pit_first + box if box >= 0 and track.pit_first >= 0 else -2
        start = params.start
        self.start_lane = track.node_lane[start]
        self.start_idx = track.lane_idx[start]
        # Zig-zags (FD-16) need to know only whether an obstacle lies in the abandoned lane
        # between where the car left it and where it comes back. When the abandoned lane is
        # always the start lane (no tunnels, not leaving the pit lane) and a lap is long enough
        # for positions ahead to be ordered without wrapping, a state keeps the first obstacle
        # after the point it left (id + 1, 0 for none) instead of that point: states that
        # differ only there have the same future and merge (a third of the states).
        self.canonical = (
            not params.tunnels and not track.is_pit[start] and min(track.lane_lap) > 2 * _REACH
        )
        self.lane_prefix = tables.lane_prefix(start)  # bits of the start lane's next k spaces
        self.hazards = self.danger | self.debris
        self.obstacles: list[tuple[int, int]] = []
        self.car_lane = 0
        if self.canonical:
            self._start_lane_obstacles()
        start_key: StateKey = (start, 0, -1, 0, 0, params.corner_spaces)
        start_val: StateCost = (0, (), (start, None), (), ())
        self.layers: list[dict[StateKey, StateCost]] = [{start_key: start_val}]
        self.fp = [0]
        self.term = [False]
        self.deepest = 0
        self.by_roll: dict[int, OptionList] = {}
        # per end slot, its successive cheapest records (depth increasing, rank decreasing)
        self.snaps: dict[int, dict[int, _Item]] = {}
        self.straight: dict[int, bool] = {}  # per depth: a state there never changed lane
        first: dict[int, _Item] = {}
        _keep(track, 0, [], self.layers[0], first)
        self.slots: dict[int, _History] = {slot: (item,) for slot, item in first.items()}

    def _start_lane_obstacles(self) -> None:
        # Obstacles in the start lane ahead (canonical zig-zags): (distance, id), nearest first.
        # Those of the cars are the cars on ``car_lane``: the start lane's next spaces (and the
        # pit lane where its ordinal, -1, falls within reach: the same distance arithmetic).
        track = self.track
        lap = track.lane_lap[self.start_lane]
        for o in self.hazards:
            if track.node_lane[o] == self.start_lane and 0 < self._ahead(o) <= _REACH:
                self.obstacles.append((self._ahead(o), o))
        self.obstacles.sort()
        self.car_lane = self.lane_prefix[_REACH]
        if self.start_lane == 0 and 0 < (-1 - self.start_idx) % lap <= _REACH:
            for o, pit in enumerate(track.is_pit):
                if pit:
                    self.car_lane |= 1 << o

    def _ahead(self, node: int) -> int:
        """Spaces from the start to ``node`` along the start lane (its ordinal difference)."""
        track = self.track
        return (track.lane_idx[node] - self.start_idx) % track.lane_lap[self.start_lane]

    def extend(self, depth: int) -> None:
        """Search the empty track up to ``depth`` spaces (ends kept as :func:`_keep` does)."""
        slots = self.slots
        track = self.track
        while len(self.fp) <= depth:
            d = len(self.fp)
            layer = self.expand(self.layers[-1], d, 0, self.obstacles)
            self.layers.append(layer.states)
            if layer.states:
                self.deepest = d
            best: dict[int, _Item] = {}  # this layer's best record per end slot
            _keep(track, d, layer.ends, layer.states, best)
            for slot, item in best.items():
                history = slots.get(slot)
                if history is None:
                    slots[slot] = (item,)
                elif item.rank < history[-1].rank:
                    slots[slot] = (*history, item)
            self.fp.append(self.fp[-1] | layer.touched)
            self.term.append(self.term[-1] or layer.term)

    def snapshot(self, depth: int) -> dict[int, _Item]:
        """Per end slot first reached within ``depth`` spaces, its best record within them."""
        snap = self.snaps.get(depth)
        if snap is None:
            snap = self.snaps[depth] = {
                k: _best_at(v, depth) for k, v in self.slots.items() if v[0].record.steps <= depth
            }
        return snap

    def resume(self, clean: int, roll: int, occ: int) -> OptionList:
        """The options for ``roll`` with cars on ``occ``; layers up to ``clean`` saw none."""
        layer: dict[StateKey, StateCost] | None = self.layers[clean]
        obstacles = self.obstacles
        if self.canonical:
            cars = self._cars_ahead(occ)
            obstacles = sorted(obstacles + cars) if obstacles else cars
            if clean > 0:
                layer = self._rekeyed(clean, cars[0] if cars else None)
        if layer is None or clean == 0:
            clean = 0
            layer = self.layers[0]
        slots = self.snapshot(clean).copy()
        deepest = min(self.deepest, clean)
        term = self.term[clean]
        track = self.track
        if layer:
            for d in range(clean + 1, roll + 1):
                expanded = self.expand(layer, d, occ, obstacles)
                layer = expanded.states
                term = term or expanded.term
                _keep(track, d, expanded.ends, layer, slots)
                if not layer:
                    break
                deepest = d
        forced = 0 if deepest == roll or term else roll - deepest
        return _options(track, roll, forced, slots.values())

    def _cars_ahead(self, occ: int) -> list[tuple[int, int]]:
        """The cars of ``occ`` in the start lane ahead (canonical zig-zags): (distance, id)."""
        cars: list[tuple[int, int]] = []
        m = occ & self.car_lane
        while m:
            bit = m & -m
            m ^= bit
            o = bit.bit_length() - 1
            cars.append((self._ahead(o), o))
        cars.sort()
        return cars

    def _rekeyed(
        self, clean: int, first: tuple[int, int] | None
    ) -> dict[StateKey, StateCost] | None:
        """A clean layer's states with their zig-zag obstacles updated for the cars.

        Every space the search looked at so far is free, including the start lane up to the
        car that never changed lane; so a state left the start lane before any car in it, and
        its first obstacle is the nearer of its own (danger, debris) and ``first``, the first
        car in the start lane (distance, id). ``None`` when there is no such straight-on state
        (search from the start).
        """
        track = self.track
        layer = self.layers[clean]
        straight = self.straight.get(clean)
        if straight is None:
            is_pit = track.is_pit
            straight = self.straight[clean] = any(
                key[1] == 0 and not is_pit[key[0]] for key in layer
            )
        if not straight:
            return None
        if first is None:
            return layer
        first_dist, first_car = first
        out = _Layer()
        for key, val in layer.items():
            node, changes, zig, flags, short, inside = key
            if zig >= 0 and (not zig or self._ahead(zig - 1) > first_dist):
                key = (node, changes, first_car + 1, flags, short, inside)
            out.add(key, val)
        return out.states

    def _zig_ok(self, left_from: int, back: int, occ: int) -> tuple[bool, int]:
        # FD-16 / FD-54 / FD-64: walk the abandoned lane from where the car left it up to
        # where it comes back; the detour must have gone round a car, danger or debris.
        # Returns the verdict and the spaces looked at.
        track = self.track
        seg_of, coord, fwd = track.node_seg, track.node_coord, track.fwd
        danger, debris = self.danger, self.debris
        bits = track.node_bit
        touched = 0
        back_seg, target = seg_of[back], coord[back]
        p = fwd[left_from]
        for _ in range(64):
            if seg_of[p] == back_seg and coord[p] >= target:
                return False, touched
            touched |= bits[p]
            if occ & bits[p] or p in danger or p in debris:
                return True, touched
            p = fwd[p]
        return False, touched

    # -- one more space ----------------------------------------------------------------------

    def expand(
        self,
        layer: dict[StateKey, StateCost],
        depth: int,
        occ: int,
        obstacles: list[tuple[int, int]],
    ) -> _Layer:
        """The states one space further than ``layer``, with cars on ``occ``.

        ``obstacles`` are those in the start lane ahead (canonical zig-zags), nearest first.
        """
        out = _Layer()
        is_pit = self.track.is_pit
        for key, val in layer.items():
            if is_pit[key[0]]:
                self._pit_step(out, depth, occ, key, val)
            else:
                self._track_steps(out, depth, occ, obstacles, key, val)
        return out

    def _pit_step(self, out: _Layer, depth: int, occ: int, key: StateKey, val: StateCost) -> None:
        # FD-49: one lane, no overtaking; a car reaching the car ahead stops behind it.
        node, changes, zig, flags, short, inside = key
        over, dz, chain, corners, db = val
        track = self.track
        q = track.fwd[node]
        out.touched |= track.node_bit[q]
        if occ & track.node_bit[q]:
            return
        # FD-22: the pit lane's spaces lie beyond the exit line of a corner left short
        nkey = (q, changes, zig, flags, short, inside)
        nval = (over + short, dz, (q, chain), corners, db)
        if q == self.box_node:
            out.end(depth, "box", nkey, nval)  # FD-44: into its own box
        else:
            out.add(nkey, nval)

    def _track_steps(
        self,
        out: _Layer,
        depth: int,
        occ: int,
        obstacles: list[tuple[int, int]],
        key: StateKey,
        val: StateCost,
    ) -> None:
        """The forward and diagonal steps of a state on the track (FD-15, FD-16, FD-44)."""
        node, changes, zig, flags = key[0], key[1], key[2], key[3]
        track = self.track
        if flags & LOCKED or changes >= self.params.max_lane_changes:
            steps = track.steps_fwd[node]
        else:
            steps = track.steps_all[node]
        tunnels, bits = self.tunnels, track.node_bit
        for q, lane, changed in steps:
            nzig = zig
            if changed:
                nzig = self._zig_after(out, occ, obstacles, node, q, lane, zig)
                if nzig == _BARRED:
                    continue
            if q == self.pit_entry and not changed:
                self._enter_pit(out, depth, occ, key, val, nzig)
            if tunnels is not None:
                q = tunnels.get(q, q)  # FD-55: the pair counts as one space
            out.touched |= bits[q]
            if occ & bits[q]:
                continue  # FD-15: no passing through or over a car
            self._step(out, depth, key, val, q, changes + changed, nzig)

    def _zig_after(
        self,
        out: _Layer,
        occ: int,
        obstacles: list[tuple[int, int]],
        node: int,
        q: int,
        lane: int,
        zig: int,
    ) -> int:
        """The zig-zag key after a lane change from ``node`` to ``q``, or ``_BARRED`` (FD-16).

        Canonical: the first obstacle ahead in the start lane after the point the car left it
        (id + 1, 0 for none); otherwise the space it left from.
        """
        if self.canonical:
            if zig < 0:
                here = self._ahead(node)
                for dist, o in obstacles:
                    if dist > here:
                        return o + 1
                return 0
            if lane != self.start_lane:
                return zig
            back = self._ahead(q)
            out.touched |= self.lane_prefix[back - 1 if 0 < back <= _REACH else _REACH]
            if not zig or self._ahead(zig - 1) >= back:
                return _BARRED  # FD-16: back in the lane left only to go round a car
            return zig
        if zig < 0:
            return node
        if lane == self.track.node_lane[zig]:
            ok, seen = self._zig_ok(zig, q, occ)
            out.touched |= seen
            if not ok:
                return _BARRED  # FD-16: back into the lane left only to go round a car
        return zig

    def _enter_pit(
        self, out: _Layer, depth: int, occ: int, key: StateKey, val: StateCost, zig: int
    ) -> None:
        """FD-44: the step onto the pit entry goes into the pit lane instead, a straight step
        that leaves the corner the car is in like any other (FD-22: stops checked, the spaces
        beyond a short corner's exit line charged)."""
        node, changes = key[0], key[1]
        over, dz, chain, _, db = val
        track = self.track
        first = track.pit_first
        out.touched |= track.node_bit[first]
        if occ & track.node_bit[first]:
            return
        nflags, nshort, ncorners, terminal = self._leave_corner(node, track.pit_entry, key, val)
        nkey = (first, changes, zig, nflags | LOCKED, nshort, -1)
        nval = (over + nshort, dz, (first, chain), ncorners, db)
        if terminal or self.params.box == 0:
            out.end(depth, terminal or "box", nkey, nval)
        else:
            out.add(nkey, nval)

    def _leave_corner(
        self, node: int, q: int, key: StateKey, val: StateCost
    ) -> tuple[int, int, tuple[int, ...], str]:
        """Flags, short corners, corners left and terminal ("out" or "") after the step from
        ``node`` to ``q`` (FD-21 to FD-23)."""
        flags, short, corners = key[3], key[4], val[3]
        c = self.track.corner_of[node]
        if c < 0 or self.track.node_seg[q] == c:
            return flags, short, corners, ""
        params = self.params
        made = params.stops if c == params.corner and not corners else 0
        missing = self.track.seg_stops[c] - made
        flags |= EXITED
        if missing > 0:
            # FD-23: an overshooting car keeps its lane; FD-22: two or more stops short is out
            terminal = "out" if missing > params.max_missing else ""
            return flags | LOCKED, short + 1, (*corners, c), terminal
        if params.lock_always:
            flags |= LOCKED  # FD-21
        return flags, short, (*corners, c), ""

    def _step(
        self,
        out: _Layer,
        depth: int,
        key: StateKey,
        val: StateCost,
        q: int,
        changes: int,
        zig: int,
    ) -> None:
        """The state after the step onto the free track space ``q`` (FD-20 to FD-23, FD-38,
        FD-54, FD-57, FD-64)."""
        node, inside = key[0], key[5]
        track = self.track
        inside = self._corner_spaces(node, q, inside)
        if inside == _BARRED:
            return
        flags, short, corners, terminal = self._leave_corner(node, q, key, val)
        if track.before_finish[node] and not track.before_finish[q]:
            flags |= CROSSED
            if self.params.final_crossing and not terminal:
                terminal = "finish"
        police = self.police
        if police is not None and police[node] and not police[q]:
            flags |= POLICE
        over, dz, chain, _, db = val
        nkey = (q, changes, zig, flags, short, inside)
        nval = (
            over + short,  # FD-22: every space beyond a short corner's exit line
            (*dz, q) if q in self.danger else dz,
            (q, chain),
            corners,
            (*db, q) if q in self.debris else db,
        )
        if terminal:
            out.end(depth, terminal, nkey, nval)
        else:
            out.add(nkey, nval)

    def _corner_spaces(self, node: int, q: int, inside: int) -> int:
        """FD-20: spaces moved through ``q``'s corner once on ``q`` (-1: the cap cannot bind),
        or ``_BARRED`` beyond the corner's longest path."""
        track = self.track
        c = track.corner_of[q]
        if c < 0:
            return -1
        if c != track.corner_of[node]:
            inside = 1
        elif inside < 0:
            return -1
        else:
            inside += 1
        longest = track.corner_longest[c]
        if inside > longest:
            return _BARRED
        return -1 if inside + track.corner_rest[q] <= longest else inside

    def collapse(self, roll: int) -> OptionList:
        """The options for ``roll`` on the empty track."""
        deepest = min(self.deepest, roll)
        forced = 0 if deepest == roll or self.term[roll] else roll - deepest
        items: list[_Item] = []
        for history in self.slots.values():
            if history[-1].record.steps <= roll:
                items.append(history[-1])
            elif history[0].record.steps <= roll:
                items.append(_best_at(history, roll))
        return _options(self.track, roll, forced, items)


def _hazards(new: StateCost, old: StateCost) -> bool:
    # Fewer danger (FD-54) and debris (FD-64) spaces: each is a black-die test.
    return len(new[1]) + len(new[4]) < len(old[1]) + len(old[4])


def _ranked(track: Track, depth: int, end: Record) -> tuple[int, _Item]:
    """A terminal end (finish, out, box) at ``depth`` as (slot, item): see :func:`_keep`."""
    node = end.state[0]
    over, danger, _, _, debris = end.cost
    rank = _Rank(end.terminal == "out", over, len(danger) + len(debris))
    # all finishes are alike, as are all eliminations; a box is its pit-lane space
    slot = {"finish": -2, "out": -3}.get(end.terminal, node)
    return slot, _Item(rank, end, depth * len(track.node_order) + track.node_order[node])


def _keep(
    track: Track,
    depth: int,
    terms: list[Record],
    nxt: dict[StateKey, StateCost],
    slots: dict[int, _Item],
) -> None:
    """Keep the cheapest way to each end slot: the ends at ``depth``, terminals first.

    The rank (eliminated, WP spent, hazards) of a track end is (no, roll - steps + overshoot,
    ...); within one slot the roll cancels out, so ranks use -steps and the best record for any
    roll is the last one not longer than it. ``slots`` holds one item per slot (a resumed search,
    or one layer of :meth:`_Search.extend`, which appends each layer's improvements to the slot's
    history).
    """
    for end in terms:
        slot, item = _ranked(track, depth, end)
        old = slots.get(slot)
        if old is None or item.rank < old.rank:
            slots[slot] = item
    is_pit, order = track.is_pit, track.node_order
    base = depth * len(order)
    for key, val in nxt.items():
        node = key[0]
        over, danger, _, _, debris = val
        rank = _Rank(False, over if is_pit[node] else over - depth, len(danger) + len(debris))
        old = slots.get(node)
        if old is None or rank < old.rank:
            slots[node] = _Item(rank, Record(depth, "", key, val), base + order[node])


def _best_at(history: _History, depth: int) -> _Item:
    for item in reversed(history):
        if item.record.steps <= depth:
            return item
    raise AssertionError("callers keep slots first reached within depth")


def _options(track: Track, roll: int, forced: int, items: Iterable[_Item]) -> OptionList:
    """One option per end slot (its kept record), in (steps, end) order (a stable sort)."""
    return OptionList(track, roll, forced, [item.record for item in sorted(items, key=_SORT_KEY)])
