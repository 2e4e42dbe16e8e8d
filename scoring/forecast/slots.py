"""The exact solver behind "eliminated": can the remaining places be shared out so that every
rival ends behind one entrant?

Once an entrant X takes the best places of every remaining event (a swap argument shows this
loses X nothing: see docs/forecasts.md), the question left is an assignment: hand the other
places ("slots") of each event to the other units so that every rival's final key, its kept
points and then its countback counts, ends at or below X's. In general that is NP-hard (points
tables are arbitrary), so it is an integer program solved by ``scipy.optimize.milp`` (HiGHS).

Modelling notes (why each piece is exact):

- Drop-worst (FD-74, RM-50): a rival's kept points are the sum of its ``keep`` largest totals.
  "sum of the k largest of v <= b" is convex and exactly ``k t + sum_i s_i <= b`` with
  ``s_i >= v_i - t``, ``s_i >= 0`` for some ``t``: the program may over-estimate a rival's kept
  points, never under-estimate them, so a solution is a real one and every real one fits.
- Countback: "Y's counts are lexicographically at most X's" takes one binary per level telling
  where Y first falls behind, with big-M equalities above it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_array

Unit = Hashable


@dataclass(frozen=True)
class Slot:
    """A place in a block: its points and, if it counts for countback, its level (1 = wins)."""

    value: int
    level: int | None = None


@dataclass(frozen=True)
class Block:
    """Places of one remaining event handed to units.

    ``exact``: every unit of ``units`` takes exactly one slot (a finishing order; then
    ``len(slots) == len(units)``). Otherwise each unit takes at most one slot and every slot
    goes to one unit (tokens of a stack), or to nobody when ``optional``.
    """

    event: int
    slots: tuple[Slot, ...]
    units: tuple[Unit, ...]
    exact: bool = True
    optional: bool = False


@dataclass(frozen=True)
class Rival:
    """A rival entrant: its units, its totals so far, how many totals count, its counts.

    ``known`` are the race totals already in (constants); when ``keep`` is None every total
    counts and ``known`` may hold just the current sum. ``counts[l-1]`` is the number of
    level-``l`` results so far. ``tie_ok``: a rival level with X on points and every count still
    ranks behind X (the remaining tie-breaks favour X, or ranks are shared).
    """

    entrant: Hashable
    units: tuple[Unit, ...]
    known: tuple[int, ...]
    keep: int | None = None
    counts: tuple[int, ...] = ()
    tie_ok: bool = True


@dataclass(frozen=True)
class SlotProblem:
    events: int
    blocks: tuple[Block, ...]
    rivals: tuple[Rival, ...]
    target_points: int
    target_counts: tuple[int, ...] = ()


Assignment = dict[tuple[int, int], Unit]  # (block index, slot index) -> unit


def _lex_static(counts: Sequence[int], target: Sequence[int]) -> int:
    """-1, 0 or 1: counts below, equal to or above the target, lexicographically."""
    size = max(len(counts), len(target))
    padded = zip(
        (*counts, *([0] * (size - len(counts)))),
        (*target, *([0] * (size - len(target)))),
        strict=True,
    )
    for a, b in padded:
        if a != b:
            return -1 if a < b else 1
    return 0


class _Program:
    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.integer: list[int] = []
        self.rows: list[tuple[dict[int, float], float, float]] = []

    def var(self, low: float, high: float, integer: bool) -> int:
        self.lower.append(low)
        self.upper.append(high)
        self.integer.append(1 if integer else 0)
        return len(self.lower) - 1

    def row(self, coeffs: dict[int, float], low: float, high: float) -> None:
        self.rows.append((coeffs, low, high))

    def solve(self) -> np.ndarray | None:
        n = len(self.lower)
        if not self.rows:
            return np.array(self.lower, dtype=float).clip(min=0)
        r, c, v = [], [], []
        lows, highs = [], []
        for i, (coeffs, low, high) in enumerate(self.rows):
            for j, a in coeffs.items():
                r.append(i)
                c.append(j)
                v.append(a)
            lows.append(low)
            highs.append(high)
        matrix = coo_array((v, (r, c)), shape=(len(self.rows), n)).tocsr()
        result = milp(
            np.zeros(n),
            constraints=LinearConstraint(matrix, np.array(lows), np.array(highs)),
            integrality=np.array(self.integer),
            bounds=Bounds(np.array(self.lower), np.array(self.upper)),
        )
        if result.status != 0 or result.x is None:
            return None
        return np.asarray(result.x)


def _add(expr: dict[int, float], var: int, coeff: float) -> None:
    expr[var] = expr.get(var, 0.0) + coeff


def _trivial(problem: SlotProblem) -> Assignment | None:
    """When no slot carries points or counts, only the rivals' standing matters."""
    for rival in problem.rivals:
        if rival.keep is None:
            kept = sum(rival.known)
        else:
            kept = sum(sorted([*rival.known, *([0] * problem.events)], reverse=True)[: rival.keep])
        lex = _lex_static(rival.counts, problem.target_counts)
        tie = lex < 0 or (lex == 0 and rival.tie_ok)
        if kept > problem.target_points - (0 if tie else 1):
            return None
    out: Assignment = {}
    for b, block in enumerate(problem.blocks):
        for s in range(min(len(block.slots), len(block.units))):
            out[b, s] = block.units[s]
    return out


Placements = dict[tuple[int, int, Unit], int]  # (block, slot, unit) -> its 0/1 variable


@dataclass(frozen=True)
class _RivalTerms:
    """What the placements give one rival: points per remaining event and results per
    countback level (linear expressions over the placement variables)."""

    per_event: list[dict[int, float]]
    per_level: dict[int, dict[int, float]]


@dataclass(frozen=True)
class _Kept:
    """A rival's kept points: ``expr`` (over the program's variables) plus ``constant``."""

    expr: dict[int, float]
    constant: float


def greedy(problem: SlotProblem) -> Assignment:
    """A quick filling to try before the program: event by event, the best slots to the rivals
    with the fewest points so far (counting what this filling already gave them).

    Not a proof of anything on its own: the caller scores the scenario it gives with the real
    standings and falls back to :func:`solve` when the entrant does not win it.
    """
    owner: dict[Unit, Rival] = {u: r for r in problem.rivals for u in r.units}
    so_far: dict[Hashable, float] = {r.entrant: float(sum(r.known)) for r in problem.rivals}
    out: Assignment = {}
    for b, block in enumerate(problem.blocks):
        free = sorted(
            block.units,
            key=lambda u: so_far[owner[u].entrant] if u in owner else float("inf"),
        )
        ranked = sorted(range(len(block.slots)), key=lambda s: -block.slots[s].value)
        for s, u in zip(ranked, free, strict=False):
            out[b, s] = u
            if u in owner:
                so_far[owner[u].entrant] += block.slots[s].value
    return out


def solve(problem: SlotProblem) -> Assignment | None:
    """An assignment of every slot that keeps every rival behind the target, or None."""
    if all(sl.value == 0 and sl.level is None for bl in problem.blocks for sl in bl.slots):
        return _trivial(problem)
    prog = _Program()
    x = _placements(prog, problem)
    total_max = sum(max((sl.value for sl in bl.slots), default=0) for bl in problem.blocks)
    for rival in problem.rivals:
        terms = _rival_terms(problem, rival, x)
        kept = _kept_points(prog, rival, terms.per_event)
        levels = max(len(rival.counts), len(problem.target_counts))
        if any(terms.per_level.get(level) for level in range(1, levels + 1)):
            big = float(sum(rival.known) + total_max + problem.target_points + 2)
            _behind_by_countback(prog, problem, rival, kept, terms.per_level, big)
        else:
            _behind_on_points(prog, problem, rival, kept)
    solution = prog.solve()
    if solution is None:
        return None
    return {(b, s): u for (b, s, u), var in x.items() if solution[var] > 0.5}


def _placements(prog: _Program, problem: SlotProblem) -> Placements:
    """One binary per (block, slot, unit): the unit takes the slot. Each slot goes to one unit
    (or none when optional); each unit takes one slot (at most one unless the block is exact)."""
    x: Placements = {}
    for b, block in enumerate(problem.blocks):
        for s in range(len(block.slots)):
            for u in block.units:
                x[b, s, u] = prog.var(0, 1, True)
    for b, block in enumerate(problem.blocks):
        for s in range(len(block.slots)):
            prog.row({x[b, s, u]: 1 for u in block.units}, 0 if block.optional else 1, 1)
        for u in block.units:
            low = 1 if block.exact else 0
            prog.row({x[b, s, u]: 1 for s in range(len(block.slots))}, low, 1)
    return x


def _rival_terms(problem: SlotProblem, rival: Rival, x: Placements) -> _RivalTerms:
    units = set(rival.units)
    terms = _RivalTerms([{} for _ in range(problem.events)], {})
    for b, block in enumerate(problem.blocks):
        for s, slot in enumerate(block.slots):
            for u in block.units:
                if u not in units:
                    continue
                if slot.value:
                    _add(terms.per_event[block.event], x[b, s, u], slot.value)
                if slot.level is not None:
                    _add(terms.per_level.setdefault(slot.level, {}), x[b, s, u], 1)
    return terms


def _kept_points(prog: _Program, rival: Rival, per_event: list[dict[int, float]]) -> _Kept:
    """Every total when the rival keeps them all; otherwise the sum of its ``keep`` largest,
    as ``keep t + sum_i s_i`` with ``s_i >= v_i - t`` and ``s_i >= 0`` (module docstring)."""
    kept: dict[int, float] = {}
    if rival.keep is None:
        for expr in per_event:
            for var, a in expr.items():
                _add(kept, var, a)
        return _Kept(kept, float(sum(rival.known)))
    inf = float("inf")
    t = prog.var(-inf, inf, False)
    _add(kept, t, rival.keep)
    for value in rival.known:
        sv = prog.var(0, inf, False)
        prog.row({sv: 1, t: 1}, value, inf)  # s >= v - t
        _add(kept, sv, 1)
    for expr in per_event:
        sv = prog.var(0, inf, False)
        row = {sv: 1.0, t: 1.0}
        for var, a in expr.items():
            _add(row, var, -a)
        prog.row(row, 0, inf)  # s >= E - t
        _add(kept, sv, 1)
    return _Kept(kept, 0.0)


def _padded(values: Sequence[int], size: int) -> tuple[int, ...]:
    return (*values, *([0] * (size - len(values))))


def _behind_on_points(prog: _Program, problem: SlotProblem, rival: Rival, kept: _Kept) -> None:
    """Counts cannot change: whether a tie on points stands is known now, so the rival's kept
    points are at most the target's (strictly fewer unless a tie stands)."""
    lex = _lex_static(rival.counts, problem.target_counts)
    tie = lex < 0 or (lex == 0 and rival.tie_ok)
    slack = 0 if tie else 1
    prog.row(kept.expr, -float("inf"), problem.target_points - slack - kept.constant)


def _behind_by_countback(
    prog: _Program,
    problem: SlotProblem,
    rival: Rival,
    kept: _Kept,
    per_level: dict[int, dict[int, float]],
    big: float,
) -> None:
    """Counts may change: the rival is behind on points, or level on points and behind at the
    first countback level where the counts differ (or level everywhere, when ties favour X)."""
    inf = float("inf")
    levels = max(len(rival.counts), len(problem.target_counts))
    counts = _padded(rival.counts, levels)
    target = _padded(problem.target_counts, levels)
    # b_0: strictly fewer points; b_l: level with points and counts above l, fewer at l;
    # b_tie: level everywhere (only when the tie favours X).
    choices = [prog.var(0, 1, True) for _ in range(levels + 1)]
    if rival.tie_ok:
        choices.append(prog.var(0, 1, True))
    prog.row(dict.fromkeys(choices, 1.0), 1, 1)
    prog.row(kept.expr, -inf, problem.target_points - kept.constant)
    strict = dict(kept.expr)
    _add(strict, choices[0], big)
    prog.row(strict, -inf, problem.target_points - 1 - kept.constant + big)
    count_big = float(problem.events * max(len(b.slots) for b in problem.blocks) + 1)
    count_big += max(counts, default=0) + max(target, default=0)
    for level in range(1, levels + 1):
        expr = per_level.get(level, {})
        const = counts[level - 1] - target[level - 1]
        # below at this level when chosen: C - T <= -1 + M (1 - b_l)
        row = dict(expr)
        _add(row, choices[level], count_big)
        prog.row(row, -inf, -1 - const + count_big)
        # equal at this level when a later choice is taken: |C - T| <= M (1 - sum later)
        up = dict(expr)
        down = dict(expr)
        for c in choices[level + 1 :]:
            _add(up, c, count_big)
            _add(down, c, -count_big)
        prog.row(up, -inf, -const + count_big)
        prog.row(down, -const - count_big, inf)
