"""A reference path search for tests: the engine's first, plain search (no memo, no merging of
zig-zag states, a path tuple per state). ``reference_options`` must offer the same moves as
:func:`games.formula_d.moves.move_options`, whatever the memo tables hold.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from games.formula_d.circuit import Line, Pos
from games.formula_d.moves import MoveContext, MoveOption
from games.formula_d.track import PIT, Track


def reference_options(
    track: Track, ctx: MoveContext, roll: int, occupied: Collection[Pos]
) -> list[MoveOption]:
    return _search(track, ctx, roll, occupied)[0]


# A search state: (pos, lane changes, zig-zag origin, locked, short corners, crossed line,
# exited a corner, police, spaces through the current corner) with its costs (overshoot,
# danger spaces) and path.
_Zig = tuple[int, Pos] | None  # the lane left and where, while a zig-zag may return
_Key = tuple[Pos, int, _Zig, bool, int, bool, bool, bool, int | None]


@dataclass(slots=True)
class _State:
    pos: Pos
    changes: int
    zig: tuple[int, Pos] | None
    locked: bool
    short: int
    crossed: bool
    exited: bool
    police: bool
    over: int
    danger: tuple[Pos, ...]
    path: tuple[Pos, ...]
    corners: tuple[int, ...]
    inside: int | None = None  # FD-20: spaces moved through the current corner (None: no cap)

    def key(self) -> _Key:
        return (
            self.pos,
            self.changes,
            self.zig,
            self.locked,
            self.short,
            self.crossed,
            self.exited,
            self.police,
            self.inside,
        )

    def cost(self) -> tuple[int, int]:
        return (self.over, len(self.danger))


def _search(
    track: Track, ctx: MoveContext, roll: int, occupied: Collection[Pos]
) -> tuple[list[MoveOption], frozenset[Pos]]:
    circuit = track.circuit
    pit = circuit.pit
    line = circuit.finish_line
    touched: set[Pos] = set()
    inside = ctx.corner_spaces if ctx.corner_spaces >= 0 else None
    start = _State(
        ctx.start, 0, None, False, 0, False, False, False, 0, (), (ctx.start,), (), inside
    )
    layer: dict[_Key, _State] = {start.key(): start}
    ends: list[tuple[_State, int, str]] = [(start, 0, "")]
    deepest = 0
    for depth in range(1, roll + 1):
        nxt: dict[_Key, _State] = {}
        for state in layer.values():
            for new, terminal in _successors(track, ctx, state, occupied, line, pit, touched):
                if terminal:
                    ends.append((new, depth, terminal))
                    continue
                key = new.key()
                old = nxt.get(key)
                if old is None or new.cost() < old.cost():
                    nxt[key] = new
        if not nxt:
            break
        deepest = depth
        layer = nxt
        ends.extend((s, depth, "") for s in nxt.values())
    reached_all = deepest == roll or any(t for _, _, t in ends)
    forced = 0 if reached_all else roll - deepest
    return _collapse(ctx, roll, ends, forced), frozenset(touched)


def _successors(
    track: Track,
    ctx: MoveContext,
    state: _State,
    occupied: Collection[Pos],
    line: Line,
    pit: object,
    touched: set[Pos],
) -> list[tuple[_State, str]]:
    if state.pos[0] == PIT:
        return _pit_lane_successors(track, ctx, state, occupied, touched)
    out: list[tuple[_State, str]] = []
    for q, lane in _steps(track, ctx, state):
        lanes = _lane_change(track, ctx, state, q, lane, occupied, touched)
        if lanes is None:
            continue
        changes, zig = lanes
        if _enters_pit(track, ctx, state, q, lane):
            out.extend(_pit_entry(track, ctx, state, q, changes, zig, occupied, touched))
        if ctx.tunnels is not None and q in ctx.tunnels:
            q = ctx.tunnels[q]  # FD-55: the pair counts as one space
        touched.add(q)
        if q in occupied:
            continue  # FD-15: no passing through or over a car
        step = _track_step(track, ctx, state, q, changes, zig, line)
        if step is not None:
            out.append(step)
    return out


def _pit_lane_successors(
    track: Track, ctx: MoveContext, state: _State, occupied: Collection[Pos], touched: set[Pos]
) -> list[tuple[_State, str]]:
    """FD-49: one lane, no overtaking; a car reaching the car ahead just stops behind it."""
    pit = track.circuit.pit
    assert pit is not None
    pos = state.pos
    q: Pos = (PIT, 0, pos[2] + 1) if pos[2] + 1 < pit.length else pit.exit
    touched.add(q)
    if q in occupied:
        return []
    new = _step(state, q, state.changes, state.zig, state.locked)
    new.over += new.short  # FD-22: pit spaces lie beyond a short corner's exit line too
    # FD-44: a long enough roll puts the car in its box
    return [(new, "box" if q[0] == PIT and q[2] == ctx.box else "")]


def _steps(track: Track, ctx: MoveContext, state: _State) -> list[tuple[Pos, int]]:
    """The spaces one step away: straight ahead, and diagonally while lane changes remain."""
    pos = state.pos
    steps: list[tuple[Pos, int]] = [(track.forward(pos), pos[1])]
    if not state.locked and state.changes < ctx.max_lane_changes:
        for lane in (pos[1] - 1, pos[1] + 1):
            diag = track.diagonal(pos, lane)
            if diag is not None:
                steps.append((diag, lane))
    return steps


def _lane_change(
    track: Track,
    ctx: MoveContext,
    state: _State,
    q: Pos,
    lane: int,
    occupied: Collection[Pos],
    touched: set[Pos],
) -> tuple[int, _Zig] | None:
    """(lane changes, zig-zag memory) after stepping to ``q``, or None where FD-16 forbids it."""
    pos = state.pos
    if lane == pos[1]:
        return state.changes, state.zig
    if state.zig is None:
        return state.changes + 1, (pos[1], pos)
    if lane == state.zig[0] and not _zig_allowed(track, ctx, state.zig[1], q, occupied, touched):
        return None  # FD-16: back into the lane left only to go round a car (or danger)
    return state.changes + 1, state.zig


def _enters_pit(track: Track, ctx: MoveContext, state: _State, q: Pos, lane: int) -> bool:
    pit = track.circuit.pit
    return (
        ctx.may_pit and pit is not None and q == pit.entry and lane == state.pos[1] and ctx.box >= 0
    )


def _pit_entry(
    track: Track,
    ctx: MoveContext,
    state: _State,
    q: Pos,
    changes: int,
    zig: _Zig,
    occupied: Collection[Pos],
    touched: set[Pos],
) -> list[tuple[_State, str]]:
    pit_q: Pos = (PIT, 0, 0)
    touched.add(pit_q)
    if pit_q in occupied:
        return []
    new = _step(state, pit_q, changes, zig, True)
    new.inside = None
    terminal = _leave(track, ctx, state, state.pos, q, new)  # FD-22 on the way in too
    new.over += new.short
    return [(new, terminal or ("box" if ctx.box == 0 else ""))]


def _track_step(
    track: Track,
    ctx: MoveContext,
    state: _State,
    q: Pos,
    changes: int,
    zig: _Zig,
    line: Line,
) -> tuple[_State, str] | None:
    """The state after one step onto free space ``q``, or None where FD-20 forbids it."""
    pos = state.pos
    new = _step(state, q, changes, zig, state.locked)
    if track.segments[q[0]].is_corner:
        # FD-20: no more spaces through a corner than its longest path, over all moves
        if q[0] != pos[0]:
            new.inside = 1
        elif state.inside is not None:
            new.inside = state.inside + 1
        if new.inside is not None and new.inside > track.segments[q[0]].longest:
            return None
    else:
        new.inside = None
    terminal = _leave(track, ctx, state, pos, q, new)
    new.over += new.short  # FD-22: every space beyond a short corner's exit line
    if track.crosses(pos, q, line):
        new.crossed = True
        if ctx.final_crossing and not terminal:
            terminal = "finish"
    if ctx.police_line is not None and track.crosses(pos, q, ctx.police_line):
        new.police = True
    if q in ctx.danger:
        new.danger = (*state.danger, q)
    return new, terminal


def _leave(track: Track, ctx: MoveContext, state: _State, pos: Pos, q: Pos, new: _State) -> str:
    """FD-21 to FD-23 for the step from ``pos`` onto ``q`` (the pit entry's space when the car
    goes into the pit lane); "out" when it eliminates."""
    if q[0] == pos[0] or not track.segments[pos[0]].is_corner:
        return ""
    new.exited = True
    new.corners = (*state.corners, pos[0])
    required = track.segments[pos[0]].stops
    made = ctx.stops if pos[0] == ctx.corner and not state.corners else 0
    missing = required - made
    if missing > 0:
        new.short += 1
        new.locked = True  # FD-23: an overshooting car keeps its lane
        return "out" if missing > ctx.max_missing else ""
    if ctx.lock_always:
        new.locked = True  # FD-21
    return ""


def _step(state: _State, q: Pos, changes: int, zig: tuple[int, Pos] | None, locked: bool) -> _State:
    return _State(
        q,
        changes,
        zig,
        locked,
        state.short,
        state.crossed,
        state.exited,
        state.police,
        state.over,
        state.danger,
        (*state.path, q),
        state.corners,
    )


def _zig_allowed(
    track: Track,
    ctx: MoveContext,
    left_from: Pos,
    back: Pos,
    occupied: Collection[Pos],
    touched: set[Pos],
) -> bool:
    # Walk the abandoned lane from where the car left it up to where it comes back: the detour
    # must have gone round a car (FD-16) or a danger space (FD-54).
    target = (back[0], track.coord(back))
    p = track.forward(left_from)
    for _ in range(64):
        if (p[0], track.coord(p)) >= target and p[0] == back[0]:
            return False
        touched.add(p)
        if p in occupied or p in ctx.danger:
            return True
        p = track.forward(p)
    return False


def _collapse(
    ctx: MoveContext, roll: int, ends: list[tuple[_State, int, str]], forced: int
) -> list[MoveOption]:
    # Keep the cheapest way to each end space (options are built for the winners only).
    best: dict[Pos, tuple[tuple[int, int, int], _State, int, str]] = {}
    for state, depth, terminal in ends:
        key = state.pos
        if terminal == "finish":
            key, braked = (-2, 0, 0), 0  # every finishing path is the same outcome
        elif terminal == "out":
            key, braked = (-3, 0, 0), 0
        elif terminal == "box" or state.pos[0] == PIT:
            braked = 0
        else:
            braked = roll - depth
        rank = (1 if terminal == "out" else 0, braked + state.over, len(state.danger))
        old = best.get(key)
        if old is None or rank < old[0]:
            best[key] = (rank, state, depth, terminal)
    options = [
        MoveOption(
            end=state.pos,
            steps=depth,
            roll=roll,
            path=state.path,
            overshoot_spaces=state.over,
            overshoot_out=terminal == "out",
            short=state.short > 0,
            exited_corner=state.exited,
            corners_left=state.corners,
            crossed_line=state.crossed,
            finished=terminal == "finish",
            into_box=terminal == "box",
            danger=state.danger,
            police=state.police,
            forced=forced,
        )
        for _, state, depth, terminal in best.values()
    ]
    options.sort(key=lambda o: (o.steps, o.end))
    return options
