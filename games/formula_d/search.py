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

from collections.abc import Collection

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
# per end slot, its successive cheapest records (tuples, not lists: the cyclic collector
# untracks tuples of plain data, and the memo keeps many of these)
_History = tuple[tuple[tuple[int, int, int], Record], ...]
_REACH = 64  # no move is longer (FD-1 dice, nitro, slipstream): zig-zag walks stop there


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
    return list(options_for(track, params_of(track, ctx), roll, track.occupancy(occupied)))


def options_for(track: Track, params: Params, roll: int, occupied: int) -> OptionList:
    """:func:`move_options` with prepared parameters and an occupancy bit mask.

    The search on the empty track is kept per circuit and start (``params``), layer by layer
    with the spaces each layer looked at; a later roll from the same start reuses it. While no
    space looked at is occupied the memoised options are the answer; otherwise the search is
    resumed with the cars from the last layer that did not see one (a pure cache).
    """
    params = _normalised(track, params)
    debris = params[12]
    if debris:
        # FD-64 debris changes during a race: the memo is kept without it, and used while the
        # search looked at no debris space; otherwise an unmemoised search with it.
        plain: Params = (*params[:12], _NO_SPACES)
        free = _memo(track, plain, roll)
        if free.fp[roll] & _tables(track).mask(debris):
            free = _memo(track, params, roll, _tables(track).with_debris)
    else:
        free = _memo(track, params, roll)
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
    # Whether the move may finish or pit matters only near the line: one memo entry elsewhere.
    if params[3] or params[4] or params[5] >= 0:
        start = params[0]
        if not track.near_line[start]:
            return (start, params[1], params[2], False, False, -1, *params[6:])
        if not params[4] and not track.is_pit[start] and params[5] >= 0:
            return (*params[:5], -1, *params[6:])
    return params


class _Tables:
    """Per-circuit lookups for the optional features (danger, tunnels, police, debris)."""

    def __init__(self, track: Track) -> None:
        self.track = track
        self.sets: dict[frozenset[Pos], frozenset[int]] = {}
        self.maps: dict[tuple[tuple[Pos, Pos], ...], dict[int, int]] = {}
        self.lines: dict[Line, tuple[bool, ...]] = {}
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


_TABLES: dict[int, _Tables] = {}


def _tables(track: Track) -> _Tables:
    tables = _TABLES.get(id(track))
    if tables is None or tables.track is not track:
        tables = _TABLES[id(track)] = _Tables(track)
    return tables


class _Search:
    """The breadth-first path search from one start on the empty track, extended on demand.

    ``layers[d]`` holds the states after ``d`` spaces, ``slots`` the cheapest records per end
    space (see :func:`_record`), ``fp[d]`` the bit mask of every space looked at up to depth
    ``d`` and ``term[d]`` whether a terminal (finish, box, out) was reached by then.
    """

    __slots__ = (
        "by_roll",
        "canonical",
        "danger",
        "debris",
        "deepest",
        "fp",
        "hazards",
        "lane_prefix",
        "layers",
        "params",
        "police",
        "slots",
        "term",
        "track",
        "tunnels",
    )  # fmt: skip

    def __init__(self, track: Track, params: Params) -> None:
        self.track = track
        self.params = params
        tables = _tables(track)
        self.danger = tables.node_set(params[9]) if params[9] else frozenset()
        self.debris = tables.node_set(params[12]) if params[12] else frozenset()
        self.tunnels = tables.node_map(params[10]) if params[10] else None
        self.police = tables.line(params[11]) if params[11] is not None else None
        start = params[0]
        # Zig-zags (FD-16) need to know only whether an obstacle lies in the abandoned lane
        # between where the car left it and where it comes back. When the abandoned lane is
        # always the start lane (no tunnels, not leaving the pit lane) and a lap is long enough
        # for positions ahead to be ordered without wrapping, a state keeps the first obstacle
        # after the point it left (id + 1, 0 for none) instead of that point: states that
        # differ only there have the same future and merge (a third of the states).
        self.canonical = (
            not params[10] and not track.is_pit[start] and min(track.lane_lap) > 2 * _REACH
        )
        self.lane_prefix: list[int] = [0]  # bits of the start lane's next k spaces
        p = start
        for _ in range(_REACH):
            p = track.fwd[p]
            self.lane_prefix.append(self.lane_prefix[-1] | 1 << p)
        self.hazards = self.danger | self.debris
        start_key: StateKey = (start, 0, -1, 0, 0)
        start_val: StateCost = (0, (), (start, None), (), ())
        self.layers: list[dict[StateKey, StateCost]] = [{start_key: start_val}]
        self.fp = [0]
        self.term = [False]
        self.deepest = 0
        self.by_roll: dict[int, OptionList] = {}
        # per end slot, its successive cheapest records (depth increasing): see _record
        self.slots: dict[int, _History] = {}
        _record(track, self.slots, [(0, "", start_key, start_val)])

    def extend(self, depth: int) -> None:
        """Search the empty track up to ``depth`` spaces."""
        while len(self.fp) <= depth:
            d = len(self.fp)
            nxt, ends, touched, term = self.expand(self.layers[-1], d, 0)
            self.layers.append(nxt)
            if nxt:
                self.deepest = d
            _record(self.track, self.slots, ends)
            self.fp.append(self.fp[-1] | touched)
            self.term.append(self.term[-1] or term)

    def resume(self, clean: int, roll: int, occ: int) -> OptionList:
        """The options for ``roll`` with cars on ``occ``; layers up to ``clean`` saw none."""
        rekeyed: dict[StateKey, StateCost] | None = self.layers[clean]
        if self.canonical and clean > 0:
            rekeyed = self._rekeyed(self.layers[clean], occ)
        if rekeyed is None or clean == 0:
            clean = 0
            start = self.params[0]
            first: Record = (0, "", (start, 0, -1, 0, 0), (0, (), (start, None), (), ()))
            slots: dict[int, _History] = {}
            _record(self.track, slots, [first])
            layer = {first[2]: first[3]}
            deepest, term = 0, False
        else:
            slots = {k: (_best_at(v, clean),) for k, v in self.slots.items() if v[0][1][0] <= clean}
            layer = rekeyed
            deepest = min(self.deepest, clean)
            term = self.term[clean]
        for d in range(clean + 1, roll + 1):
            if not layer:
                break
            layer, found, _, t = self.expand(layer, d, occ)
            term = term or t
            _record(self.track, slots, found)
            if layer:
                deepest = d
        forced = 0 if deepest == roll or term else roll - deepest
        return _options(self.track, roll, forced, slots)

    def _rekeyed(
        self, layer: dict[StateKey, StateCost], occ: int
    ) -> dict[StateKey, StateCost] | None:
        """A clean layer's states with their zig-zag obstacles updated for the cars ``occ``.

        Every space the search looked at so far is free, including the start lane up to the
        car that never changed lane; so a state left the start lane before any car in it, and
        its first obstacle is the nearer of its own (danger, debris) and the first car in the
        start lane. ``None`` when there is no such straight-on state (search from the start).
        """
        track = self.track
        if not any(key[1] == 0 and not track.is_pit[key[0]] for key in layer):
            return None
        start = self.params[0]
        lane_of, lane_idx = track.node_lane, track.lane_idx
        start_lane, start_idx = lane_of[start], lane_idx[start]
        lap = track.lane_lap[start_lane]
        first_car, first_dist = -1, _REACH + 1
        m = occ
        while m:
            bit = m & -m
            m ^= bit
            o = bit.bit_length() - 1
            if lane_of[o] == start_lane:
                dist = (lane_idx[o] - start_idx) % lap
                if 0 < dist < first_dist:
                    first_car, first_dist = o, dist
        if first_car < 0:
            return layer
        out: dict[StateKey, StateCost] = {}
        for key, val in layer.items():
            zig = key[2]
            if zig >= 0 and (not zig or (lane_idx[zig - 1] - start_idx) % lap > first_dist):
                key = (key[0], key[1], first_car + 1, key[3], key[4])
            old = out.get(key)
            if old is None or val[0] < old[0] or (val[0] == old[0] and _hazards(val, old)):
                out[key] = val
        return out

    def expand(
        self, layer: dict[StateKey, StateCost], depth: int, occ: int
    ) -> tuple[dict[StateKey, StateCost], list[Record], int, bool]:
        """One more space: the next layer, the ends at ``depth``, spaces looked at, terminal."""
        track = self.track
        (
            _start,
            corner,
            stops,
            final_crossing,
            may_pit,
            box,
            max_lc,
            lock_always,
            max_missing,
            *_rest,
        ) = self.params
        danger, debris, tunnels, police = self.danger, self.debris, self.tunnels, self.police
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
        term = False
        ends: list[Record] = []
        canonical = self.canonical
        start = self.params[0]
        start_lane = lane_of[start]
        lane_idx, lane_lap = track.lane_idx, track.lane_lap[start_lane]
        start_idx = lane_idx[start]
        lane_prefix = self.lane_prefix
        # obstacles in the start lane ahead (canonical zig-zags): (distance, id), nearest first
        obstacles: list[tuple[int, int]] = []
        if canonical:
            for o in self.hazards:
                if lane_of[o] == start_lane and 0 < (lane_idx[o] - start_idx) % lane_lap <= _REACH:
                    obstacles.append(((lane_idx[o] - start_idx) % lane_lap, o))
            m = occ
            while m:
                bit = m & -m
                m ^= bit
                o = bit.bit_length() - 1
                if lane_of[o] == start_lane and 0 < (lane_idx[o] - start_idx) % lane_lap <= _REACH:
                    obstacles.append(((lane_idx[o] - start_idx) % lane_lap, o))
            obstacles.sort()

        def zig_ok(left_from: int, back: int) -> bool:
            # FD-16 / FD-54 / FD-64: walk the abandoned lane from where the car left it up to
            # where it comes back; the detour must have gone round a car, danger or debris.
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

        nxt: dict[StateKey, StateCost] = {}
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
                    term = True
                    continue
                old = nxt.get(nkey)
                if old is None or over < old[0] or (over == old[0] and _hazards(nval, old)):
                    nxt[nkey] = nval
                continue
            cands = steps_fwd[node] if flags & LOCKED or changes >= max_lc else steps_all[node]
            for q, lane, changed in cands:
                nchanges, nzig = changes, zig
                if changed:
                    nchanges += 1
                    if canonical:
                        if zig < 0:
                            nzig = 0
                            here = (lane_idx[node] - start_idx) % lane_lap
                            for dist, o in obstacles:
                                if dist > here:
                                    nzig = o + 1
                                    break
                        elif lane == start_lane:
                            back = (lane_idx[q] - start_idx) % lane_lap
                            touched |= lane_prefix[back - 1 if 0 < back <= _REACH else _REACH]
                            if not zig or (lane_idx[zig - 1] - start_idx) % lane_lap >= back:
                                continue  # FD-16: back into the lane left only to go round a car
                    elif zig < 0:
                        nzig = node
                    elif lane == lane_of[zig] and not zig_ok(zig, q):
                        continue  # FD-16: back into the lane left only to go round a car
                if q == pit_entry and not changed:
                    touched |= 1 << pit_first
                    if not occ >> pit_first & 1:
                        nkey = (pit_first, nchanges, nzig, flags | LOCKED, short)
                        nval = (over, dz, (pit_first, chain), corners, db)
                        if box == 0:
                            ends.append((depth, "box", nkey, nval))
                            term = True
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
                    nflags |= EXITED
                    ncorners = (*corners, c)
                    made = stops if c == corner and not corners else 0
                    missing = seg_stops[c] - made
                    if missing > 0:
                        nshort += 1
                        nflags |= LOCKED  # FD-23: an overshooting car keeps its lane
                        if missing > max_missing:
                            terminal = "out"
                    elif lock_always:
                        nflags |= LOCKED  # FD-21
                nover = over + nshort  # FD-22: every space beyond a short corner's exit line
                if before_finish[node] and not before_finish[q]:
                    nflags |= CROSSED
                    if final_crossing and not terminal:
                        terminal = "finish"
                if police is not None and police[node] and not police[q]:
                    nflags |= POLICE
                ndz = (*dz, q) if q in danger else dz
                ndb = (*db, q) if q in debris else db
                nkey = (q, nchanges, nzig, nflags, nshort)
                nval = (nover, ndz, (q, chain), ncorners, ndb)
                if terminal:
                    ends.append((depth, terminal, nkey, nval))
                    term = True
                    continue
                old = nxt.get(nkey)
                if old is None or nover < old[0] or (nover == old[0] and _hazards(nval, old)):
                    nxt[nkey] = nval
        ends += [(depth, "", k, v) for k, v in nxt.items()]
        return nxt, ends, touched, term

    def collapse(self, roll: int) -> OptionList:
        """The options for ``roll`` on the empty track."""
        deepest = min(self.deepest, roll)
        forced = 0 if deepest == roll or self.term[roll] else roll - deepest
        return _options(self.track, roll, forced, self.slots)


def _hazards(new: StateCost, old: StateCost) -> bool:
    # Fewer danger (FD-54) and debris (FD-64) spaces: each is a black-die test.
    return len(new[1]) + len(new[4]) < len(old[1]) + len(old[4])


def _record(track: Track, slots: dict[int, _History], ends: list[Record]) -> None:
    # Keep the cheapest way to each end space. The rank (eliminated, WP spent, hazards) of a
    # track end is (0, roll - steps + overshoot, ...); within one slot the roll cancels out, so
    # ranks use -steps and the best record for any roll is the last one not longer than it.
    is_pit = track.is_pit
    for end in ends:
        depth, terminal, key, val = end
        node = key[0]
        if terminal == "finish":
            slot, rank = -2, (0, val[0], len(val[1]) + len(val[4]))  # all finishes are alike
        elif terminal == "out":
            slot, rank = -3, (1, val[0], len(val[1]) + len(val[4]))
        elif terminal == "box" or is_pit[node]:
            slot, rank = node, (0, val[0], len(val[1]) + len(val[4]))
        else:
            slot, rank = node, (0, val[0] - depth, len(val[1]) + len(val[4]))
        history = slots.get(slot)
        if history is None:
            slots[slot] = ((rank, end),)
        elif rank < history[-1][0]:
            slots[slot] = (*history, (rank, end))


def _best_at(history: _History, depth: int) -> tuple[tuple[int, int, int], Record]:
    for item in reversed(history):
        if item[1][0] <= depth:
            return item
    raise AssertionError("callers keep slots first reached within depth")


def _options(
    track: Track,
    roll: int,
    forced: int,
    slots: dict[int, _History],
) -> OptionList:
    """One option per end slot reached within ``roll`` spaces, in (steps, end) order."""
    raw: list[Record] = []
    for history in slots.values():
        if history[-1][1][0] <= roll:
            raw.append(history[-1][1])
        elif history[0][1][0] <= roll:
            raw.append(_best_at(history, roll)[1])
    order = track.node_order
    width = len(order)
    # (steps, end space) order; a stable sort on precomputed integer keys
    keys = [e[0] * width + order[e[2][0]] for e in raw]
    raw = [raw[i] for i in sorted(range(len(raw)), key=keys.__getitem__)]
    return OptionList(track, roll, forced, raw)
