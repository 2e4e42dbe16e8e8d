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
from operator import itemgetter

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
# A kept record with its rank (lower is better: see _rank) and its sort key (steps, end space).
_Item = tuple[int, Record, int]
# per end slot, its successive cheapest records (tuples, not lists: the cyclic collector
# untracks tuples of plain data, and the memo keeps many of these)
_History = tuple[_Item, ...]
_SORT_KEY = itemgetter(2)


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


_TABLES: dict[int, _Tables] = {}


def _tables(track: Track) -> _Tables:
    tables = _TABLES.get(id(track))
    if tables is None or tables.track is not track:
        tables = _TABLES[id(track)] = _Tables(track)
    return tables


class _Search:
    """The breadth-first path search from one start on the empty track, extended on demand.

    ``layers[d]`` holds the states after ``d`` spaces, ``slots`` the cheapest records per end
    space (see :func:`_keep`), ``fp[d]`` the bit mask of every space looked at up to depth
    ``d`` and ``term[d]`` whether a terminal (finish, box, out) was reached by then. ``snaps[d]``
    keeps, per end slot, the best record within ``d`` spaces: where a resumed search starts.
    """

    __slots__ = (
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
        "police",
        "slots",
        "snaps",
        "straight",
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
        self.lane_prefix = tables.lane_prefix(start)  # bits of the start lane's next k spaces
        self.hazards = self.danger | self.debris
        # Obstacles in the start lane ahead (canonical zig-zags): (distance, id), nearest first.
        # Those of the cars are the cars on ``car_lane``: the start lane's next spaces (and the
        # pit lane where its ordinal, -1, falls within reach: the same distance arithmetic).
        self.obstacles: list[tuple[int, int]] = []
        self.car_lane = 0
        if self.canonical:
            lane_of, lane_idx = track.node_lane, track.lane_idx
            start_lane, start_idx = lane_of[start], lane_idx[start]
            lap = track.lane_lap[start_lane]
            for o in self.hazards:
                if lane_of[o] == start_lane and 0 < (lane_idx[o] - start_idx) % lap <= _REACH:
                    self.obstacles.append(((lane_idx[o] - start_idx) % lap, o))
            self.obstacles.sort()
            self.car_lane = self.lane_prefix[_REACH]
            if start_lane == 0 and 0 < (-1 - start_idx) % lap <= _REACH:
                for o, pit in enumerate(track.is_pit):
                    if pit:
                        self.car_lane |= 1 << o
        start_key: StateKey = (start, 0, -1, 0, 0)
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

    def extend(self, depth: int) -> None:
        """Search the empty track up to ``depth`` spaces (ends kept as :func:`_keep` does)."""
        slots = self.slots
        track = self.track
        while len(self.fp) <= depth:
            d = len(self.fp)
            nxt, terms, touched, term = self.expand(self.layers[-1], d, 0, self.obstacles)
            self.layers.append(nxt)
            if nxt:
                self.deepest = d
            best: dict[int, _Item] = {}  # this layer's best record per end slot
            _keep(track, d, terms, nxt, best)
            for slot, item in best.items():
                history = slots.get(slot)
                if history is None:
                    slots[slot] = (item,)
                elif item[0] < history[-1][0]:
                    slots[slot] = (*history, item)
            self.fp.append(self.fp[-1] | touched)
            self.term.append(self.term[-1] or term)

    def snapshot(self, depth: int) -> dict[int, _Item]:
        """Per end slot first reached within ``depth`` spaces, its best record within them."""
        snap = self.snaps.get(depth)
        if snap is None:
            snap = self.snaps[depth] = {
                k: _best_at(v, depth) for k, v in self.slots.items() if v[0][1][0] <= depth
            }
        return snap

    def resume(self, clean: int, roll: int, occ: int) -> OptionList:
        """The options for ``roll`` with cars on ``occ``; layers up to ``clean`` saw none."""
        layer: dict[StateKey, StateCost] | None = self.layers[clean]
        obstacles = self.obstacles
        if self.canonical:
            cars: list[tuple[int, int]] = []
            m = occ & self.car_lane
            if m:
                track = self.track
                lane_idx = track.lane_idx
                start_idx = lane_idx[self.params[0]]
                lap = track.lane_lap[track.node_lane[self.params[0]]]
                while m:
                    bit = m & -m
                    m ^= bit
                    o = bit.bit_length() - 1
                    cars.append(((lane_idx[o] - start_idx) % lap, o))
                cars.sort()
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
                layer, terms, _, t = self.expand(layer, d, occ, obstacles)
                term = term or t
                _keep(track, d, terms, layer, slots)
                if not layer:
                    break
                deepest = d
        forced = 0 if deepest == roll or term else roll - deepest
        return _options(track, roll, forced, slots.values())

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
        lane_idx = track.lane_idx
        start_idx = lane_idx[self.params[0]]
        lap = track.lane_lap[track.node_lane[self.params[0]]]
        out: dict[StateKey, StateCost] = {}
        for key, val in layer.items():
            zig = key[2]
            if zig >= 0 and (not zig or (lane_idx[zig - 1] - start_idx) % lap > first_dist):
                key = (key[0], key[1], first_car + 1, key[3], key[4])
            old = out.get(key)
            if old is None or val[0] < old[0] or (val[0] == old[0] and _hazards(val, old)):
                out[key] = val
        return out

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

    def expand(
        self,
        layer: dict[StateKey, StateCost],
        depth: int,
        occ: int,
        obstacles: list[tuple[int, int]],
    ) -> tuple[dict[StateKey, StateCost], list[Record], int, bool]:
        """One more space: the next layer, the terminal ends, spaces looked at, terminal.

        ``obstacles`` are those in the start lane ahead (canonical zig-zags), nearest first.
        """
        track = self.track
        bits = track.node_bit  # one space's bit in the masks (no new big int per shift)
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
        pit_entry = track.pit_entry if may_pit and box >= 0 else -2
        pit_first = track.pit_first
        box_node = pit_first + box if box >= 0 and pit_first >= 0 else -2
        canonical = self.canonical
        start = self.params[0]
        start_lane = lane_of[start]
        lane_idx, lane_lap = track.lane_idx, track.lane_lap[start_lane]
        start_idx = lane_idx[start]
        lane_prefix = self.lane_prefix

        touched = 0
        term = False
        ends: list[Record] = []
        nxt: dict[StateKey, StateCost] = {}
        keep = nxt.setdefault
        for (node, changes, zig, flags, short), (over, dz, chain, corners, db) in layer.items():
            if is_pit[node]:
                # FD-49: one lane, no overtaking; a car reaching the car ahead stops behind it.
                q = fwd[node]
                touched |= bits[q]
                if occ & bits[q]:
                    continue
                nkey = (q, changes, zig, flags, short)
                nval = (over, dz, (q, chain), corners, db)
                if q == box_node:
                    ends.append((depth, "box", nkey, nval))  # FD-44: into its own box
                    term = True
                    continue
                old = keep(nkey, nval)
                if old is not nval and (over < old[0] or (over == old[0] and _hazards(nval, old))):
                    nxt[nkey] = nval
                continue
            cands = steps_fwd[node] if flags & LOCKED or changes >= max_lc else steps_all[node]
            c = corner_of[node]
            before = before_finish[node]
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
                                continue  # FD-16: back in the lane left only to go round a car
                    elif zig < 0:
                        nzig = node
                    elif lane == lane_of[zig]:
                        ok, seen = self._zig_ok(zig, q, occ)
                        touched |= seen
                        if not ok:
                            continue  # FD-16: back into the lane left only to go round a car
                if q == pit_entry and not changed:
                    touched |= bits[pit_first]
                    if not occ & bits[pit_first]:
                        nkey = (pit_first, nchanges, nzig, flags | LOCKED, short)
                        nval = (over, dz, (pit_first, chain), corners, db)
                        if box == 0:
                            ends.append((depth, "box", nkey, nval))
                            term = True
                        else:
                            old = keep(nkey, nval)
                            if old is not nval and (
                                over < old[0] or (over == old[0] and _hazards(nval, old))
                            ):
                                nxt[nkey] = nval
                if tunnels is not None:
                    q = tunnels.get(q, q)  # FD-55: the pair counts as one space
                bit = bits[q]
                touched |= bit
                if occ & bit:
                    continue  # FD-15: no passing through or over a car
                nflags, nshort, ncorners = flags, short, corners
                terminal = ""
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
                if before and not before_finish[q]:
                    nflags |= CROSSED
                    if final_crossing and not terminal:
                        terminal = "finish"
                if police is not None and police[node] and not police[q]:
                    nflags |= POLICE
                nkey = (q, nchanges, nzig, nflags, nshort)
                nval = (
                    nover,
                    (*dz, q) if q in danger else dz,
                    (q, chain),
                    ncorners,
                    (*db, q) if q in debris else db,
                )
                if terminal:
                    ends.append((depth, terminal, nkey, nval))
                    term = True
                    continue
                old = keep(nkey, nval)
                if old is not nval and (
                    nover < old[0] or (nover == old[0] and _hazards(nval, old))
                ):
                    nxt[nkey] = nval
        return nxt, ends, touched, term

    def collapse(self, roll: int) -> OptionList:
        """The options for ``roll`` on the empty track."""
        deepest = min(self.deepest, roll)
        forced = 0 if deepest == roll or self.term[roll] else roll - deepest
        items: list[_Item] = []
        for history in self.slots.values():
            if history[-1][1][0] <= roll:
                items.append(history[-1])
            elif history[0][1][0] <= roll:
                items.append(_best_at(history, roll))
        return _options(self.track, roll, forced, items)


def _hazards(new: StateCost, old: StateCost) -> bool:
    # Fewer danger (FD-54) and debris (FD-64) spaces: each is a black-die test.
    return len(new[1]) + len(new[4]) < len(old[1]) + len(old[4])


_BIAS = 1 << 23  # ranks pack (eliminated, WP spent + _BIAS, hazards) into one int, 24 bits each


def _ranked(track: Track, depth: int, end: Record) -> tuple[int, _Item]:
    """A terminal end (finish, out, box) at ``depth`` as (slot, item): see :func:`_keep`."""
    _, terminal, key, val = end
    node = key[0]
    hazards = len(val[1]) + len(val[4])
    if terminal == "finish":
        slot, rank = -2, ((val[0] + _BIAS) << 24) + hazards  # all finishes are alike
    elif terminal == "out":
        slot, rank = -3, (1 << 48) + ((val[0] + _BIAS) << 24) + hazards
    else:  # box
        slot, rank = node, ((val[0] + _BIAS) << 24) + hazards
    return slot, (rank, end, depth * len(track.node_order) + track.node_order[node])


def _keep(
    track: Track,
    depth: int,
    terms: list[Record],
    nxt: dict[StateKey, StateCost],
    slots: dict[int, _Item],
) -> None:
    """Keep the cheapest way to each end slot: the ends at ``depth``, terminals first.

    The rank (eliminated, WP spent, hazards) of a track end is (0, roll - steps + overshoot,
    ...); within one slot the roll cancels out, so ranks use -steps and the best record for any
    roll is the last one not longer than it. Ranks are packed into ints (overshoot and steps stay
    far below 2**22). ``slots`` holds one item per slot (a resumed search, or one layer of
    :meth:`_Search.extend`, which appends each layer's improvements to the slot's history).
    """
    for end in terms:
        slot, item = _ranked(track, depth, end)
        old = slots.get(slot)
        if old is None or item[0] < old[0]:
            slots[slot] = item
    is_pit, order = track.is_pit, track.node_order
    base = depth * len(order)
    for key, val in nxt.items():
        node = key[0]
        spent = val[0] if is_pit[node] else val[0] - depth
        rank = ((spent + _BIAS) << 24) + len(val[1]) + len(val[4])
        old = slots.get(node)
        if old is None or rank < old[0]:
            slots[node] = (rank, (depth, "", key, val), base + order[node])


def _best_at(history: _History, depth: int) -> _Item:
    for item in reversed(history):
        if item[1][0] <= depth:
            return item
    raise AssertionError("callers keep slots first reached within depth")


def _options(track: Track, roll: int, forced: int, items: Iterable[_Item]) -> OptionList:
    """One option per end slot (its kept record), in (steps, end) order (a stable sort)."""
    return OptionList(track, roll, forced, [item[1] for item in sorted(items, key=_SORT_KEY)])
