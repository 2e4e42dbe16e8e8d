"""Rally championships (RM-47 to RM-51): exact statuses and a simulation scorer, both through
:func:`scoring.rally.championship.championship_standings`.

A remaining rally may end any way the rules allow: any overall order of the classified drivers;
without Super Rally (RM-46) any set of drivers out of it (unclassified, no points, and no power
stage, RM-48), with Super Rally every driver classified and any of them retired from the power
stage; the power stage's finishers in any order. Drivers are the championship's drivers (every
name seen so far, unless given: pass the remaining rallies' entrants too, so that a newcomer
counts), each entered in every remaining rally unless ``entries`` lists that rally's drivers
(a driver not entered scores nothing there, like one out of it). Ranks may be shared
(RM-51): an entrant holds the title when it ranks first, alone or not; ``clinched`` means alone
in every outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from scoring.forecast.exact import Ranked, title_statuses
from scoring.forecast.model import Scenario, ScenarioEvent, TitleStatus
from scoring.forecast.montecarlo import Scorer, SimulationSpec
from scoring.forecast.slots import Assignment, Block, Rival, Slot, SlotProblem
from scoring.forecast.strengths import Strengths
from scoring.rally.championship import (
    ChampionshipRow,
    ChampionshipSettings,
    ChampionshipStandings,
    championship_standings,
    normalize_name,
)
from scoring.rally.sheet import FINISHED
from scoring.rally.standings import (
    OverallRow,
    RallyDriver,
    RallyStandings,
    StageClassification,
    StageTime,
)


@dataclass(frozen=True)
class RallyChampionship:
    """The complete rallies so far, the settings, the length, and per remaining rally whether
    Super Rally keeps retired cars classified (RM-46; one flag for every remaining rally, or one
    per rally)."""

    rallies: tuple[RallyStandings, ...]
    settings: ChampionshipSettings
    total_rallies: int
    drivers: tuple[str, ...] = ()
    super_rally: bool | tuple[bool, ...] = False
    #: per remaining rally, in order, the names of its drivers (None: every driver)
    entries: tuple[tuple[str, ...] | None, ...] = ()

    def __post_init__(self) -> None:
        if not self.drivers:
            names: list[str] = []
            seen: set[str] = set()
            for rally in self.rallies:
                for d in rally.drivers:
                    key = normalize_name(d.name)
                    if key not in seen:
                        seen.add(key)
                        names.append(" ".join(d.name.split()))
            object.__setattr__(self, "drivers", tuple(names))

    @property
    def events_left(self) -> int:
        return self.total_rallies - len(self.rallies)

    def super_rally_in(self, index: int) -> bool:
        if isinstance(self.super_rally, bool):
            return self.super_rally
        return self.super_rally[index]

    def standings(self, extra: Sequence[RallyStandings] = ()) -> ChampionshipStandings:
        return championship_standings([*self.rallies, *extra], self.settings)

    def entered(self, index: int) -> frozenset[int]:
        """Indices (into ``drivers``) of the drivers entered in remaining rally ``index``."""
        listed = self.entries[index] if index < len(self.entries) else None
        if listed is None:
            return frozenset(range(len(self.drivers)))
        keys = {normalize_name(n) for n in listed}
        return frozenset(i for i, n in enumerate(self.drivers) if normalize_name(n) in keys)


def simulated_rally(
    names: Sequence[str],
    order: Sequence[int],
    out: set[int],
    power: Sequence[int],
) -> RallyStandings:
    """A complete rally as the championship reads it: ``order`` (indices into ``names``) of the
    classified drivers, ``out`` unclassified, ``power`` the power stage's finishers, fastest
    first. Times are made up to fit the order (the championship reads ranks only)."""
    drivers = tuple(RallyDriver(i, n) for i, n in enumerate(names))
    classified = [d for d in order if d not in out]
    rows = [
        OverallRow(rank, d, names[d], 600 + rank, rank - 1, 0, None, (600 + rank,))
        for rank, d in enumerate(classified, start=1)
    ]
    rows += [OverallRow(None, d, names[d], None, None, 0, 1, (None,)) for d in order if d in out]
    times = [StageTime(d, 100 + r, FINISHED, r, False) for r, d in enumerate(power, start=1)]
    retired = tuple(d for d in order if d not in set(power))
    stage = StageClassification(1, tuple(times), tuple(power[:1]), retired)
    return RallyStandings(1, drivers, tuple(rows), (stage,))


def _counts(results: Sequence[int | None]) -> list[int]:
    counts: list[int] = []
    for p in results:
        if p is None:
            continue
        while len(counts) < p:
            counts.append(0)
        counts[p - 1] += 1
    return counts


class _Title:
    """The drivers' title of a rally championship (see exact.py)."""

    title = "drivers"
    event_noun = "rally"

    def __init__(self, champ: RallyChampionship) -> None:
        self.champ = champ
        self.entrants: tuple[Hashable, ...] = tuple(normalize_name(n) for n in champ.drivers)
        self.names: Mapping[Hashable, str] = {normalize_name(n): n for n in champ.drivers}
        self.index = {e: i for i, e in enumerate(self.entrants)}
        self.events_left = champ.events_left
        self._now = champ.standings() if champ.rallies else None

    def bounded(self) -> bool:
        return True

    def _rank(self, standings: ChampionshipStandings | None) -> list[Ranked]:
        if standings is None:
            return [Ranked(e, 1, 0) for e in self.entrants]
        seen = {normalize_name(r.name): r for r in standings.drivers}
        rows = [Ranked(normalize_name(r.name), r.rank, r.points) for r in standings.drivers]
        # drivers with no rally yet rank level with the other pointless ones
        last = max((r.rank for r in standings.drivers if r.points == 0), default=len(rows) + 1)
        rows += [Ranked(e, last, 0) for e in self.entrants if e not in seen]
        return rows

    def current(self) -> Sequence[Ranked]:
        return self._rank(self._now)

    def ranking(self, scenario: Scenario) -> Sequence[Ranked]:
        rallies = [r for r in scenario.results if isinstance(r, RallyStandings)]
        return self._rank(self.champ.standings(rallies))

    def _order_now(self, *skip: Hashable) -> list[int]:
        order = [r.entrant for r in self.current()]
        return [self.index[e] for e in order if e not in skip]

    def _scenario(
        self, build: Callable[[int], tuple[Sequence[int], set[int], Sequence[int]]]
    ) -> Scenario:
        rallies: list[RallyStandings] = []
        events: list[ScenarioEvent] = []
        names = self.champ.drivers
        for i in range(self.events_left):
            order, out, power = build(i)
            entered = self.champ.entered(i)
            # a driver not entered scores nothing, like one out of the rally (RM-49)
            out = set(out) | {d for d in order if d not in entered}
            power = [d for d in power if d not in out]
            rallies.append(simulated_rally(names, order, out, power))
            details: dict[str, object] = {"out": [names[d] for d in order if d in out]}
            if self.champ.settings.power_stage:
                details["power_stage"] = [names[d] for d in power]
            events.append(
                ScenarioEvent(
                    len(self.champ.rallies) + i + 1, tuple(names[d] for d in order), details
                )
            )
        return Scenario(tuple(events), tuple(rallies))

    def extreme(self, best: Hashable, worst: Hashable) -> Scenario:
        b, w = self.index[best], self.index[worst]
        middle = self._order_now(best, worst)

        def build(i: int) -> tuple[Sequence[int], set[int], Sequence[int]]:
            order = [b, *middle, w]
            if self.champ.super_rally_in(i):
                return order, set(), [b, *middle]  # w retires from the power stage only
            return order, {w}, [b, *middle]

        return self._scenario(build)

    def runner_up(self, first: Hashable, second: Hashable) -> Scenario:
        a, b = self.index[first], self.index[second]
        rest = self._order_now(first, second)

        def build(i: int) -> tuple[Sequence[int], set[int], Sequence[int]]:
            order = [a, b, *rest]
            if self.champ.super_rally_in(i):
                return order, set(), [a, b]
            return order, set(rest), [a, b]

        return self._scenario(build)

    def dominant(self, entrant: Hashable) -> tuple[SlotProblem, Callable[[Assignment], Scenario]]:
        champ = self.champ
        x = self.index[entrant]
        others = self._order_now(entrant)
        table = champ.settings.table
        blocks: list[Block] = []
        block_of: dict[int, int] = {}
        for i in range(self.events_left):
            if champ.super_rally_in(i):
                # every car entered is classified: the others share the places after X's
                # (RM-49, countback RM-51); they all retire from the power stage, which only
                # costs them points.
                entered = champ.entered(i)
                theirs = tuple(d for d in others if d in entered)
                first = 2 if x in entered else 1
                slots = tuple(
                    Slot(table[p - 1] if p <= len(table) else 0, level=p)
                    for p in range(first, first + len(theirs))
                )
                block_of[i] = len(blocks)
                blocks.append(Block(event=i, slots=slots, units=theirs))

        def read(assignment: Assignment) -> Scenario:
            def build(i: int) -> tuple[Sequence[int], set[int], Sequence[int]]:
                if i in block_of:
                    b = block_of[i]
                    placed = [cast(int, assignment[b, s]) for s in range(len(blocks[b].slots))]
                    return [x, *placed], set(), [x]
                return [x, *others], set(others), [x]

            return self._scenario(build)

        fill: Assignment = {
            (b, s): u for b, bl in enumerate(blocks) for s, u in enumerate(bl.units)
        }
        final = champ.standings([r for r in read(fill).results if isinstance(r, RallyStandings)])
        by_key: dict[Hashable, ChampionshipRow] = {normalize_name(r.name): r for r in final.drivers}
        target = by_key[entrant].points
        target_counts = _counts(by_key[entrant].results)
        now: dict[Hashable, ChampionshipRow] = (
            {normalize_name(r.name): r for r in self._now.drivers} if self._now else {}
        )
        drop = min(champ.settings.drop_worst, champ.total_rallies - 1)
        keep = champ.total_rallies - drop if drop > 0 else None
        rivals = []
        for d in others:
            key = self.entrants[d]
            row = now.get(key)
            scores = tuple(row.scores) if row else (0,) * len(champ.rallies)
            known = scores if keep is not None else (sum(scores),)
            counts = tuple(_counts(row.results)) if row else ()
            # a full tie shares first place (RM-51): the entrant still holds the title
            rivals.append(Rival(key, (d,), known, keep, counts, tie_ok=True))
        problem = SlotProblem(
            self.events_left, tuple(blocks), tuple(rivals), target, tuple(target_counts)
        )
        return problem, read


def rally_statuses(champ: RallyChampionship) -> dict[str, TitleStatus]:
    """Exact statuses of the championship's ``drivers`` title (entrants: normalised names)."""
    return {"drivers": title_statuses(_Title(champ))}


# ---- simulation ----------------------------------------------------------------------------


def retirements(rallies: Sequence[RallyStandings]) -> tuple[int, ...]:
    """Drivers out of each complete rally: the draw pool of :func:`rally_scorer`."""
    return tuple(sum(1 for r in rally.overall if r.rank is None) for rally in rallies) or (0,)


def rally_scorer(champ: RallyChampionship, out_counts: Sequence[int] = (0,)) -> Scorer:
    """A scorer for :func:`scoring.forecast.montecarlo.simulate` (units: ``champ.drivers``).

    Each simulated rally draws how many drivers are out from ``out_counts`` (the last of the
    drawn order; with Super Rally they stay classified and only miss the power stage), and the
    power stage's order as an independent draw from the same strengths.
    """
    names = champ.drivers
    pool = np.array(tuple(out_counts) or (0,), dtype=np.int64)
    index = {normalize_name(n): i for i, n in enumerate(names)}
    n = len(names)

    def score(
        orders: Sequence[np.ndarray], uniforms: np.ndarray, theta: np.ndarray
    ) -> dict[str, list[int]]:
        rallies = []
        for k, order in enumerate(orders):
            ids = order.tolist()
            out_count = int(min(pool[int(uniforms[k, 0] * len(pool))], len(ids)))
            out = set(ids[len(ids) - out_count :])
            gumbel = -np.log(-np.log(np.clip(uniforms[k, 1 : 1 + n], 1e-12, 1 - 1e-12)))
            power_order = np.argsort(-(theta + gumbel), kind="stable").tolist()
            power = [d for d in power_order if d in set(ids) and d not in out]
            if champ.super_rally_in(k):
                rallies.append(simulated_rally(names, ids, set(), power))
            else:
                rallies.append(simulated_rally(names, ids, out, power))
        standings = champ.standings(rallies)
        # a driver without a row (no rally yet) ranks level with the other pointless ones
        ranks = [1 if not standings.drivers else len(names)] * len(names)
        for row in standings.drivers:
            ranks[index[normalize_name(row.name)]] = row.rank
        return {"drivers": ranks}

    return score


def rally_spec(champ: RallyChampionship, strengths: Strengths) -> SimulationSpec:
    """The simulation of the remaining rallies (strengths fitted on ``champ.drivers``)."""
    if len(strengths.units) != len(champ.drivers):
        raise ValueError("strengths must be fitted on the championship's drivers, in order")
    return SimulationSpec(
        strengths,
        tuple(tuple(sorted(champ.entered(i))) for i in range(champ.events_left)),
        {"drivers": tuple(normalize_name(n) for n in champ.drivers)},
        "drivers",
        extra_draws=1 + len(champ.drivers),
    )


def rally_orders(champ: RallyChampionship) -> list[list[int]]:
    """Each complete rally's classification as an order of ``champ.drivers`` indices (the
    unclassified last, in the order they went out), the input of the strength fit."""
    index = {normalize_name(n): i for i, n in enumerate(champ.drivers)}
    out = []
    for rally in champ.rallies:
        names = {d.id: normalize_name(d.name) for d in rally.drivers}
        out.append([index[names[row.driver]] for row in rally.overall])
    return out


__all__ = [
    "RallyChampionship",
    "rally_orders",
    "rally_scorer",
    "rally_spec",
    "rally_statuses",
    "retirements",
    "simulated_rally",
]
