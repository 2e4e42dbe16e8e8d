"""Points championships (Formula D championships, leagues): exact statuses and a simulation
scorer, both through :func:`scoring.points.compute_standings` (FD-71, FD-73 to FD-77).

A remaining race may end any way FD-79 and the league rules allow: any finishing order, any
number of cars eliminated (always behind every finisher), the pole (FD-72) to one driver or to
none, and, in a league with ``bonus_points``, any bonus from 0 to ``bonus_max`` per driver
(``None``: no limit, so nothing is decided before the last race). A remaining race's entrants
are its entry list (``PointsChampionship.entries``; every driver by default): a driver not
entered scores nothing in it and ranks last there for FD-76 (2).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import cast

import numpy as np

from scoring.forecast.exact import Ranked, title_statuses
from scoring.forecast.model import Scenario, ScenarioEvent, TitleStatus
from scoring.forecast.montecarlo import Scorer, SimulationSpec
from scoring.forecast.slots import Assignment, Block, Rival, Slot, SlotProblem
from scoring.forecast.strengths import Strengths
from scoring.formula_d.rules import FormulaDRules
from scoring.formula_d.standings import RaceResult
from scoring.points import (
    Entrant,
    Finish,
    Race,
    Scale,
    Standings,
    Tally,
    compute_standings,
    tally_races,
)

ELIMINATED = "eliminated"
FINISHED = "finished"


@dataclass(frozen=True)
class PointsChampionship:
    """A points championship as the scoring code sees it, and how many races it will have.

    ``races`` are the resolved races (numbered 1..k); ``pole_bonus`` is FD-72's bonus that one
    driver per race may take (a Formula D entry's ``pole``); ``bonus_max`` bounds a league's
    per-driver ``bonus`` (0: no bonus; None: unbounded). ``dnf_status`` is the status word of a
    classified non-finisher in this competition (``eliminated`` or a league's ``dnf``).
    ``entries`` holds, per remaining race in order, the ids of the drivers entered in it
    (a race's ``drivers`` entry list); a missing or ``None`` item means every driver.
    """

    entrants: tuple[Entrant, ...]
    races: tuple[Race, ...]
    scale: Scale
    total_races: int
    pole_bonus: int = 0
    bonus_max: int | None = 0
    dnf_status: str = ELIMINATED
    teams: tuple[str, ...] = field(default=())
    entries: tuple[tuple[int, ...] | None, ...] = ()

    def __post_init__(self) -> None:
        if not self.teams:
            names: list[str] = []
            for e in self.entrants:
                if e.team is not None and e.team not in names:
                    names.append(e.team)
            object.__setattr__(self, "teams", tuple(names))

    @property
    def events_left(self) -> int:
        return self.total_races - len(self.races)

    @property
    def next_number(self) -> int:
        return max((r.number for r in self.races), default=0) + 1

    @cached_property
    def played(self) -> Tally:
        """The resolved races tallied once: every scenario and simulation resumes from it."""
        return tally_races(self.entrants, self.races, self.scale)

    def standings(self, extra: Sequence[Race] = ()) -> Standings:
        """The standings after the resolved races and then ``extra`` (remaining races)."""
        return compute_standings(self.entrants, extra, self.scale, previous=self.played)

    def entered(self, left: int) -> tuple[int, ...]:
        """The drivers entered in remaining race ``left`` (0 = the next), in entry order."""
        listed = self.entries[left] if left < len(self.entries) else None
        if listed is None:
            return tuple(e.id for e in self.entrants)
        chosen = set(listed)
        return tuple(e.id for e in self.entrants if e.id in chosen)

    @property
    def everyone_entered(self) -> bool:
        everyone = {e.id for e in self.entrants}
        return all(listed is None or everyone <= set(listed) for listed in self.entries)


def from_formula_d(
    drivers: Sequence[Entrant],
    races: Sequence[RaceResult],
    *,
    points: Sequence[int],
    rules: FormulaDRules,
    total_races: int,
    entries: Sequence[Sequence[int] | None] = (),
) -> PointsChampionship:
    """A Formula D championship as :func:`scoring.formula_d.compute_standings` scores it: each
    entry a finish whose bonus is the pole bonus (FD-72), the scale from FD-70, FD-71, FD-74
    (tested to give the same standings)."""
    converted = tuple(
        Race(
            r.number,
            tuple(
                Finish(e.driver, e.position, e.status, rules.pole_bonus if e.pole else 0)
                for e in r.entries
            ),
        )
        for r in races
    )
    scale = Scale(tuple(points), rules.points_finishers_only, rules.drop_worst)
    return PointsChampionship(
        tuple(drivers),
        converted,
        scale,
        total_races,
        pole_bonus=rules.pole_bonus,
        entries=tuple(None if e is None else tuple(e) for e in entries),
    )


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
    """The drivers' or the teams' title of a :class:`PointsChampionship` (see exact.py)."""

    event_noun = "race"

    def __init__(self, champ: PointsChampionship, teams: bool) -> None:
        self.champ = champ
        self.is_teams = teams
        self.title = "teams" if teams else "drivers"
        self.drivers = tuple(e.id for e in champ.entrants)
        if teams:
            self.entrants: tuple[Hashable, ...] = tuple(champ.teams)
            self.names: Mapping[Hashable, str] = {t: t for t in champ.teams}
            self.units: dict[Hashable, tuple[int, ...]] = {
                t: tuple(e.id for e in champ.entrants if e.team == t) for t in champ.teams
            }
        else:
            self.entrants = self.drivers
            self.names = {e.id: e.name for e in champ.entrants}
            self.units = {e.id: (e.id,) for e in champ.entrants}
        self.events_left = champ.events_left
        self._now = champ.standings() if champ.races else None

    def bounded(self) -> bool:
        return self.champ.bonus_max is not None

    def _rank(self, standings: Standings | None) -> list[Ranked]:
        if standings is None or not standings.drivers:
            # before any race everyone is level, listed in entry order
            return [Ranked(e, 1, 0) for e in self.entrants]
        if self.is_teams:
            return [Ranked(t.team, t.rank, t.points) for t in standings.teams]
        return [Ranked(d.driver, d.rank, d.points) for d in standings.drivers]

    def current(self) -> Sequence[Ranked]:
        return self._rank(self._now)

    def ranking(self, scenario: Scenario) -> Sequence[Ranked]:
        races = [r for r in scenario.results if isinstance(r, Race)]
        return self._rank(self.champ.standings(races))

    # ---- building scenarios -------------------------------------------------------------------

    def _race(
        self,
        number: int,
        order: Sequence[int],
        eliminated: set[int],
        pole: int | None,
        bonus: Mapping[int, int],
    ) -> tuple[Race, ScenarioEvent]:
        champ = self.champ
        # FD-79: every eliminated car behind every finisher.
        finishers = [d for d in order if d not in eliminated]
        out = [d for d in order if d in eliminated]
        ordered = finishers + out
        finishes = tuple(
            Finish(
                d,
                p,
                champ.dnf_status if d in eliminated else FINISHED,
                (champ.pole_bonus if d == pole else 0) + bonus.get(d, 0),
            )
            for p, d in enumerate(ordered, start=1)
        )
        details: dict[str, object] = {"eliminated": out}
        if champ.pole_bonus:
            details["pole"] = pole
        if bonus:
            details["bonus"] = {str(k): v for k, v in bonus.items() if v}
        return Race(number, finishes), ScenarioEvent(number, tuple(ordered), details)

    def _others(self, *exclude: Hashable) -> list[int]:
        skip = {u for e in exclude for u in self.units[e]}
        order = [cast(int, r.entrant) for r in self._driver_order()]
        return [d for d in order if d not in skip]

    def _driver_order(self) -> list[Ranked]:
        if self._now is None:
            return [Ranked(d, 1, 0) for d in self.drivers]
        return [Ranked(d.driver, d.rank, d.points) for d in self._now.drivers]

    def _scenario(
        self, build: Callable[[int], tuple[Sequence[int], set[int], int | None, dict[int, int]]]
    ) -> Scenario:
        races: list[Race] = []
        events: list[ScenarioEvent] = []
        for i in range(self.events_left):
            number = self.champ.next_number + i
            order, eliminated, pole, bonus = build(i)
            entered = set(self.champ.entered(i))
            order = [d for d in order if d in entered]
            pole = pole if pole in entered else None
            bonus = {d: v for d, v in bonus.items() if d in entered}
            race, event = self._race(number, order, eliminated & entered, pole, bonus)
            races.append(race)
            events.append(event)
        return Scenario(tuple(events), tuple(races))

    def _pole(self, units: Sequence[int], left: int) -> int | None:
        """FD-72's pole to the first of ``units`` entered in remaining race ``left``."""
        entered = set(self.champ.entered(left))
        return next((u for u in units if u in entered), None)

    def _max_bonus(self, units: Sequence[int]) -> dict[int, int]:
        top = self.champ.bonus_max or 0
        return {u: top for u in units} if top else {}

    def extreme(self, best: Hashable, worst: Hashable) -> Scenario:
        top, bottom = self.units[best], self.units[worst]
        middle = self._others(best, worst)

        def build(i: int) -> tuple[Sequence[int], set[int], int | None, dict[int, int]]:
            order = [*top, *middle, *bottom]
            return order, set(bottom), self._pole(top, i), self._max_bonus(top)

        return self._scenario(build)

    def runner_up(self, first: Hashable, second: Hashable) -> Scenario:
        top, next_ = self.units[first], self.units[second]
        rest = self._others(first, second)

        def build(i: int) -> tuple[Sequence[int], set[int], int | None, dict[int, int]]:
            bonus = {**self._max_bonus(top), **self._max_bonus(next_)}
            return [*top, *next_, *rest], set(rest), self._pole(top, i), bonus

        return self._scenario(build)

    def dominant(self, entrant: Hashable) -> tuple[SlotProblem, Callable[[Assignment], Scenario]]:
        champ = self.champ
        top = self.units[entrant]
        others = self._others(entrant)
        points = champ.scale.points
        blocks: list[Block] = []
        for i in range(self.events_left):
            entered = set(champ.entered(i))
            mine = sum(1 for u in top if u in entered)
            theirs = tuple(d for d in others if d in entered)
            # the others are eliminated: no countback position (FD-76), points only when
            # FD-71 lets eliminated cars score.
            slots = tuple(
                Slot(0 if champ.scale.finishers_only or p > len(points) else points[p - 1])
                for p in range(mine + 1, mine + len(theirs) + 1)
            )
            blocks.append(Block(event=i, slots=slots, units=theirs))

        def build_fill(assignment: Assignment) -> Scenario:
            def build(i: int) -> tuple[Sequence[int], set[int], int | None, dict[int, int]]:
                placed = [cast(int, assignment[i, s]) for s in range(len(blocks[i].slots))]
                return [*top, *placed], set(placed), self._pole(top, i), self._max_bonus(top)

            return self._scenario(build)

        # X's final figures: score X's part with any filling of the others.
        filled = build_fill(
            {(i, s): u for i, b in enumerate(blocks) for s, u in enumerate(b.units)}
        )
        final = champ.standings([r for r in filled.results if isinstance(r, Race)])
        if self.is_teams:
            target, target_counts, rivals = self._team_rivals(final, str(entrant))
        else:
            target, target_counts, rivals = self._driver_rivals(final, cast(int, entrant), others)
        problem = SlotProblem(
            self.events_left, tuple(blocks), tuple(rivals), target, tuple(target_counts)
        )
        return problem, build_fill

    def _team_rivals(self, final: Standings, team: str) -> tuple[int, list[int], list[Rival]]:
        team_row = {t.team: t for t in final.teams}
        now_teams = {t.team: t for t in self._now.teams} if self._now else {}
        rivals: list[Rival] = []
        for t in self.entrants:
            if t == team:
                continue
            now = now_teams.get(str(t))
            rivals.append(
                Rival(
                    t,
                    self.units[t],
                    (now.points if now else 0,),
                    None,
                    tuple(self._team_counts(self._now, str(t))) if self._now else (),
                    self._tie_ok(final, team, str(t)),
                )
            )
        return team_row[team].points, self._team_counts(final, team), rivals

    def _driver_rivals(
        self, final: Standings, driver: int, others: Sequence[int]
    ) -> tuple[int, list[int], list[Rival]]:
        champ = self.champ
        row = {d.driver: d for d in final.drivers}
        now_rows = {d.driver: d for d in self._now.drivers} if self._now else {}
        drop = min(champ.scale.drop_worst, champ.total_races - 1)
        keep = champ.total_races - drop if drop > 0 else None
        rivals: list[Rival] = []
        for d in others:
            nrow = now_rows.get(d)
            totals = tuple(nrow.race_totals) if nrow else ()
            known = totals if keep is not None else (sum(totals),)
            counts = tuple(_counts(nrow.results)) if nrow else ()
            rivals.append(Rival(d, (d,), known, keep, counts, self._tie_ok(final, driver, d)))
        return row[driver].points, _counts(row[driver].results), rivals

    def _tie_ok(self, final: Standings, x: Hashable, rival: Hashable) -> bool:
        """Whether X, at the top of every remaining race it is entered in, would beat ``rival``
        on FD-76 (2) and (3) (FD-77 for teams) if they ended level on points and countback.

        The most recent race decides where they differ: one X is entered in (X is first, best
        of all), one only the rival is entered in (the rival is classified, X not started), or
        earlier the resolved races, then the driver list (the team name)."""
        for i in reversed(range(self.events_left)):
            entered = set(self.champ.entered(i))
            mine = any(u in entered for u in self.units[x])
            theirs = any(u in entered for u in self.units[rival])
            if mine or theirs:
                return mine
        return self._history_prefers(x, rival)

    def _history_prefers(self, x: Hashable, rival: Hashable) -> bool:
        """FD-76 (2)-(3) / FD-77 between X and a rival on the resolved races alone."""
        races = self.champ.races
        deepest = max((f.position for r in races for f in r.finishes), default=0)
        for race in reversed(races):
            at = {f.driver: f.position for f in race.finishes}
            size = max(len(self.units[x]), len(self.units[rival]))

            def places(unit: Hashable) -> tuple[int, ...]:
                got = sorted(at[d] for d in self.units[unit] if d in at)  # noqa: B023
                return tuple(got) + (deepest + 1,) * (size - len(got))  # noqa: B023

            mine, theirs = places(x), places(rival)
            if mine != theirs:
                return mine < theirs
        if self.is_teams:
            return str(x) < str(rival)
        return self.entrants.index(x) < self.entrants.index(rival)

    def _team_counts(self, standings: Standings | None, team: str) -> list[int]:
        if standings is None:
            return []
        members = set(self.units[team])
        pooled = [p for d in standings.drivers if d.driver in members for p in d.results]
        return _counts(pooled)


def points_statuses(champ: PointsChampionship) -> dict[str, TitleStatus]:
    """Exact statuses of the ``drivers`` title and, with teams, the ``teams`` title."""
    out = {"drivers": title_statuses(_Title(champ, teams=False))}
    if champ.teams:
        out["teams"] = title_statuses(_Title(champ, teams=True))
    return out


# ---- simulation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PointsSimulation:
    """How a simulated race is filled in beyond its finishing order.

    ``dnf_counts``: numbers of non-finishers seen per race (the club's own races, or a pool);
    each simulated race draws one and the last cars of its order are the non-finishers (they
    are always behind every finisher, FD-79). The pole (FD-72) goes to a driver drawn from the
    same strengths (one PL winner).
    """

    dnf_counts: tuple[int, ...] = (0,)


def dnf_counts(races: Sequence[Race]) -> tuple[int, ...]:
    """Non-finishers per resolved race, the draw pool of :class:`PointsSimulation`."""
    return tuple(sum(1 for f in r.finishes if f.status != FINISHED) for r in races) or (0,)


def points_scorer(champ: PointsChampionship, sim: PointsSimulation | None = None) -> Scorer:
    """A scorer for :func:`scoring.forecast.montecarlo.simulate` (units: drivers, entry order).

    Titles ``drivers`` and, with teams, ``teams`` (in ``champ.teams`` order); ranks come from
    :func:`scoring.points.compute_standings`.
    """
    sim = sim or PointsSimulation()
    drivers = [e.id for e in champ.entrants]
    index = {d: i for i, d in enumerate(drivers)}
    team_index = {t: i for i, t in enumerate(champ.teams)}
    pool = np.array(sim.dnf_counts or (0,), dtype=np.int64)
    first = champ.next_number
    size = len(drivers)
    # Finish objects are immutable: one per driver and place, finished or not, made once.
    finished = [[Finish(d, p, FINISHED) for p in range(1, size + 1)] for d in drivers]
    not_finished = [[Finish(d, p, champ.dnf_status) for p in range(1, size + 1)] for d in drivers]
    pole_bonus = champ.pole_bonus
    partial = not champ.everyone_entered

    def score(
        orders: Sequence[np.ndarray], uniforms: np.ndarray, theta: np.ndarray
    ) -> dict[str, list[int]]:
        races: list[Race] = []
        cumulative = None
        if pole_bonus:
            weights = np.exp(theta - theta.max())
            cumulative = np.cumsum(weights) / weights.sum()
        for k, order in enumerate(orders):
            units = order.tolist()
            n = len(units)
            cut = n - int(min(pool[int(uniforms[k, 0] * len(pool))], n))
            # the last cars of the order, from index ``cut`` on, are the non-finishers
            finishes = [
                finished[u][p] if p < cut else not_finished[u][p] for p, u in enumerate(units)
            ]
            if cumulative is not None:
                # FD-72: the pole sitter gets the bonus whatever the result
                pole = _pole_sitter(cumulative, order, theta, float(uniforms[k, 1]), partial)
                for p, u in enumerate(units):
                    if u == pole:
                        f = finishes[p]
                        finishes[p] = Finish(f.driver, f.position, f.status, pole_bonus)
            races.append(Race(first + k, tuple(finishes)))
        standings = champ.standings(races)
        ranks = [1] * len(drivers)  # before any race everyone is level
        for row in standings.drivers:
            ranks[index[row.driver]] = row.rank
        result = {"drivers": ranks}
        if champ.teams:
            team_ranks = [1] * len(champ.teams)
            for t in standings.teams:
                team_ranks[team_index[t.team]] = t.rank
            result["teams"] = team_ranks
        return result

    return score


def _pole_sitter(
    cumulative: np.ndarray, order: np.ndarray, theta: np.ndarray, uniform: float, partial: bool
) -> int:
    """A PL winner's index for FD-72's pole: among every driver, or among the race's entrants
    when some are not entered (its entry list)."""
    if not partial:
        return int(np.searchsorted(cumulative, uniform))
    entered = np.sort(order)
    weights = np.exp(theta[entered] - theta[entered].max())
    share = np.cumsum(weights) / weights.sum()
    return int(entered[min(int(np.searchsorted(share, uniform)), len(entered) - 1)])


def points_spec(
    champ: PointsChampionship, strengths: Strengths, *, block: int = 100
) -> SimulationSpec:
    """The simulation of the remaining races: each with its entrants, titles as the scorer's."""
    if tuple(strengths.units) != tuple(e.id for e in champ.entrants):
        raise ValueError("strengths must be fitted on the drivers in entry order")
    index = {e.id: i for i, e in enumerate(champ.entrants)}
    entered = tuple(tuple(index[d] for d in champ.entered(i)) for i in range(champ.events_left))
    titles: dict[str, tuple[Hashable, ...]] = {"drivers": tuple(e.id for e in champ.entrants)}
    if champ.teams:
        titles["teams"] = tuple(champ.teams)
    return SimulationSpec(strengths, entered, titles, "drivers", extra_draws=2, block=block)


def finishing_orders(champ: PointsChampionship) -> list[list[int]]:
    """Each resolved race's finishing order (by position), the input of the strength fit."""
    return [[f.driver for f in sorted(r.finishes, key=lambda f: f.position)] for r in champ.races]


__all__ = [
    "PointsChampionship",
    "PointsSimulation",
    "dnf_counts",
    "finishing_orders",
    "from_formula_d",
    "points_scorer",
    "points_spec",
    "points_statuses",
]
