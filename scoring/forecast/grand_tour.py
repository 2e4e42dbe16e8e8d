"""Grand Tours: exact statuses of every title, through
:func:`scoring.grand_tour.compute_standings` (GT-3 to GT-9); the odds are in
:mod:`scoring.forecast.grand_tour_odds`.

Titles: ``yellow`` (General, riders), ``green`` (the Sprint classification's winner, GT-5.2:
not the jersey, which GT-6.2 passes on when the leader wears yellow), ``polka_dot`` (Mountain,
GT-5.3), ``team`` (GT-5.4) and ``tour_points`` (the Tour winner, GT-9.3).

What a remaining stage may bring: any finishing order and any times that do not decrease along
it (a stage time has no upper bound, so ``yellow`` and ``team`` are open until the last stage);
each token stack of the stage (``StageTokens``, top token first, as its course places them) gives
one token to each of the first riders to reach it, one per rider (GT-3.2), independently of the
finishing order (the rules tie tokens to positions on the road, not at the line); with dummy
teams (GT-1.5) tokens may be lost. Ties of the points classifications go to the better place in
the last stage (GT-5.5), which any rider may take.

Exactness: ``green`` and ``polka_dot`` go through the exact method of
:mod:`scoring.forecast.exact`. ``tour_points`` mixes points with places in time classifications
(GC and Team bonuses, the GC leader's Rest Day TP), where the assignment program would need the
times' coupling: it is ``clinched`` by the exact pairwise test and ``eliminated`` by the pairwise
screen; otherwise ``open`` with a scored scenario, or ``open`` with ``exact=False`` when neither
a proof nor a scenario was found (docs/forecasts.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from scoring.forecast.exact import Ranked, title_statuses
from scoring.forecast.model import (
    EntrantStatus,
    Reason,
    Scenario,
    ScenarioEvent,
    TitleStatus,
    ordinal,
)
from scoring.forecast.slots import Assignment, Block, Rival, Slot, SlotProblem
from scoring.grand_tour import (
    GrandTourRules,
    RiderResult,
    StageResults,
    Standings,
    TourSetup,
    compute_standings,
    initial_standings,
)

# Minutes that put a rider behind anyone riding on time, whatever the gaps so far.
_BIG = 1_000_000
TIME_TITLES = ("yellow", "team")
POINTS_TITLES = ("green", "polka_dot", "tour_points")
# One planned stage: (finishing order, minutes, sprint takers, mountain takers), see _Base._build.
PlannedStage = tuple[list[int], dict[int, int], list[int], list[int]]
# How the others follow X's riders at a token stack (see _TokenOrder).
LeftoverOrder = Literal["order", "fewest", "most"]
_LEFTOVER_ORDERS: tuple[LeftoverOrder, ...] = ("order", "fewest", "most")


@dataclass(frozen=True)
class StageTokens:
    """Token stacks of one remaining stage, each its values top first (GT-3.1)."""

    sprint: tuple[tuple[int, ...], ...] = ()
    mountain: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class GrandTour:
    """A tour as the scoring code sees it; ``tokens`` holds one entry per remaining stage."""

    setup: TourSetup
    stages: tuple[StageResults, ...]
    rules: GrandTourRules
    tokens: tuple[StageTokens, ...] = ()
    tokens_may_be_lost: bool = False

    @property
    def events_left(self) -> int:
        return self.setup.stage_count - len(self.stages)

    def tokens_of(self, index: int) -> StageTokens:
        return self.tokens[index] if index < len(self.tokens) else StageTokens()

    def now(self) -> Standings:
        if not self.stages:
            return initial_standings(self.setup, self.rules)
        return compute_standings(self.setup, self.stages, self.rules, last_only=True)[0]

    def final(self, extra: Sequence[StageResults], now: Standings | None = None) -> Standings:
        if not extra:
            return now or self.now()
        previous = now or self.now()
        return compute_standings(
            self.setup,
            extra,
            self.rules,
            previous=previous if previous.after_stage is not None else None,
            last_only=True,
        )[0]


def _stage(
    number: int,
    order: Sequence[int],
    minutes: Mapping[int, int],
    sprint: Mapping[int, int],
    mountain: Mapping[int, int],
) -> StageResults:
    rows = []
    clock = 0
    for position, rider in enumerate(order, start=1):
        clock = max(clock, minutes.get(rider, 0))  # GT-2.5: never decreasing along the order
        rows.append(
            RiderResult(rider, position, clock, 0, sprint.get(rider, 0), mountain.get(rider, 0))
        )
    return StageResults(number, tuple(rows))


def _deal(
    stacks: Sequence[Sequence[int]], takers: Sequence[int], riders: int, lost: bool
) -> dict[int, int]:
    """Tokens of ``stacks`` to ``takers`` in that order, one per stack each (GT-3.2). Every rider
    reaches every stack, so the first ``riders`` tokens are all taken unless dummies may take
    them (``lost``): then only ``takers`` take any."""
    points: dict[int, int] = {}
    for values in stacks:
        taken = values[: min(len(values), riders)]
        for value, rider in zip(taken, takers, strict=False):
            points[rider] = points.get(rider, 0) + value
    return points


@dataclass(frozen=True)
class _Leftovers:
    """The token blocks of a dominant problem and, for each (stage, stack), its block index."""

    blocks: tuple[Block, ...]
    block_of: dict[tuple[int, int], int]


@dataclass(frozen=True)
class _RelaxedPlaces:
    """Riders placed by a relaxation's solution: stage podiums by stage, and GC bonus places."""

    podiums: dict[int, list[int]]
    general: list[int]


@dataclass(frozen=True)
class _Held:
    """Points held now in the Sprint and Mountain classifications, by rider."""

    sprint: dict[int, int]
    mountain: dict[int, int]


@dataclass(frozen=True)
class _TokenOrder:
    """Who reaches a stack first: X's riders in the given orders, then the others ("order": by
    finishing order, "fewest"/"most": by points held in that classification)."""

    sprint_first: list[int]
    mountain_first: list[int]
    leftovers: LeftoverOrder


def _leftover_takers(
    rest: list[int], points: Mapping[int, int], leftovers: LeftoverOrder
) -> list[int]:
    if leftovers == "order":
        return rest
    sign = 1 if leftovers == "fewest" else -1
    return sorted(rest, key=lambda r: (sign * points.get(r, 0), r))


class _Base:
    event_noun = "stage"

    def __init__(self, tour: GrandTour) -> None:
        self.tour = tour
        self.events_left = tour.events_left
        self.now_standings = tour.now()
        self.riders = [r.id for r in tour.setup.riders]
        self.team_riders = {t.id: [r.id for r in t.riders] for t in tour.setup.teams}
        self.first = len(tour.stages) + 1
        general = self.now_standings.general
        self.gc_order = [row.rider for row in general] if general else list(self.riders)

    def bounded(self) -> bool:
        return True

    def ranking(self, scenario: Scenario) -> Sequence[Ranked]:
        stages = [s for s in scenario.results if isinstance(s, StageResults)]
        return self._rank(self.tour.final(stages, self.now_standings))

    def current(self) -> Sequence[Ranked]:
        return self._rank(self.now_standings)

    def _rank(self, standings: Standings) -> list[Ranked]:
        raise NotImplementedError

    def _build(
        self,
        plan: Callable[[int], PlannedStage],
    ) -> Scenario:
        """``plan(i)`` -> (finishing order, minutes, sprint takers, mountain takers)."""
        stages: list[StageResults] = []
        events: list[ScenarioEvent] = []
        n = len(self.riders)
        lost = self.tour.tokens_may_be_lost
        for i in range(self.events_left):
            order, minutes, sprint_takers, mountain_takers = plan(i)
            tokens = self.tour.tokens_of(i)
            sprint = _deal(tokens.sprint, sprint_takers, n, lost)
            mountain = _deal(tokens.mountain, mountain_takers, n, lost)
            stage = _stage(self.first + i, order, minutes, sprint, mountain)
            stages.append(stage)
            details = {
                "minutes": {str(r.rider): r.minutes for r in stage.rows if r.minutes},
                "sprint_points": {str(k): v for k, v in sprint.items() if v},
                "mountain_points": {str(k): v for k, v in mountain.items() if v},
            }
            events.append(ScenarioEvent(self.first + i, tuple(order), details))
        return Scenario(tuple(events), tuple(stages))


class _TokenTitle(_Base):
    """``green`` (sprint tokens) or ``polka_dot`` (mountain tokens): riders on points."""

    def __init__(self, tour: GrandTour, kind: str) -> None:
        super().__init__(tour)
        self.kind = kind
        self.title = "green" if kind == "sprint" else "polka_dot"
        self.entrants: tuple[Hashable, ...] = tuple(self.riders)
        self.names: Mapping[Hashable, str] = {r.id: r.name for r in tour.setup.riders}

    def _rank(self, standings: Standings) -> list[Ranked]:
        rows = standings.sprint if self.kind == "sprint" else standings.mountain
        if not rows:
            return [Ranked(r, 1, 0) for r in self.riders]
        return [Ranked(r.rider, r.rank, r.points) for r in rows]

    def _stacks(self, i: int) -> tuple[tuple[int, ...], ...]:
        tokens = self.tour.tokens_of(i)
        return tokens.sprint if self.kind == "sprint" else tokens.mountain

    def _plan(self, order: list[int], takers: list[int]) -> Callable[[int], PlannedStage]:
        def plan(_: int) -> PlannedStage:
            return order, {}, takers, takers

        return plan

    def _middle(self, *skip: int) -> list[int]:
        return [r for r in self.gc_order if r not in skip]

    def extreme(self, best: Hashable, worst: Hashable) -> Scenario:
        b, w = cast(int, best), cast(int, worst)
        middle = self._middle(b, w)
        takers = [b, *middle] if self.tour.tokens_may_be_lost else [b, *middle, w]
        return self._build(self._plan([b, *middle, w], takers))

    def runner_up(self, first: Hashable, second: Hashable) -> Scenario:
        a, b = cast(int, first), cast(int, second)
        rest = self._middle(a, b)
        return self._build(self._plan([a, b, *rest], [a, b, *rest]))

    def dominant(self, entrant: Hashable) -> tuple[SlotProblem, Callable[[Assignment], Scenario]]:
        """X takes the top token of every stack; the program shares out the tokens left."""
        x = cast(int, entrant)
        others = self._middle(x)
        leftovers = self._leftovers(others)

        def read(assignment: Assignment) -> Scenario:
            return self._read(x, others, leftovers, assignment)

        fill: Assignment = {
            (b, s): others[s]
            for b, block in enumerate(leftovers.blocks)
            for s in range(len(block.slots))
        }
        final = {r.entrant: r for r in self.ranking(read(fill))}
        now = {r.entrant: r for r in self.current()}
        rivals = tuple(Rival(r, (r,), (now[r].points,)) for r in others)
        problem = SlotProblem(self.events_left, leftovers.blocks, rivals, final[x].points)
        return problem, read

    def _leftovers(self, others: list[int]) -> _Leftovers:
        """A block for each stack of more than one token taken: its tokens below the top one."""
        n = len(self.riders)
        lost = self.tour.tokens_may_be_lost
        blocks: list[Block] = []
        block_of: dict[tuple[int, int], int] = {}
        for i in range(self.events_left):
            for j, values in enumerate(self._stacks(i)):
                taken = values[: min(len(values), n)]
                if len(taken) <= 1:
                    continue
                block_of[i, j] = len(blocks)
                slots = tuple(Slot(v) for v in taken[1:])
                blocks.append(Block(i, slots, tuple(others), exact=False, optional=lost))
        return _Leftovers(tuple(blocks), block_of)

    def _read(
        self, x: int, others: list[int], leftovers: _Leftovers, assignment: Assignment
    ) -> Scenario:
        """The scenario of a solution: X first everywhere with the top tokens, the tokens left
        as ``assignment`` shares them, the other classification's tokens in finishing order."""
        n = len(self.riders)
        lost = self.tour.tokens_may_be_lost
        order = [x, *others]
        stages: list[StageResults] = []
        events: list[ScenarioEvent] = []
        for i in range(self.events_left):
            points = self._title_points(x, i, leftovers, assignment)
            tokens = self.tour.tokens_of(i)
            other_stacks = tokens.mountain if self.kind == "sprint" else tokens.sprint
            other = _deal(other_stacks, order, n, lost)
            sprint, mountain = (points, other) if self.kind == "sprint" else (other, points)
            stage = _stage(self.first + i, order, {}, sprint, mountain)
            stages.append(stage)
            events.append(
                ScenarioEvent(
                    self.first + i,
                    tuple(row.rider for row in stage.rows),
                    {f"{self.kind}_points": {str(k): v for k, v in points.items() if v}},
                )
            )
        return Scenario(tuple(events), tuple(stages))

    def _title_points(
        self, x: int, i: int, leftovers: _Leftovers, assignment: Assignment
    ) -> dict[int, int]:
        """This title's tokens of stage ``i``: each stack's top one to X, the rest as assigned."""
        points: dict[int, int] = {}
        for j, values in enumerate(self._stacks(i)):
            if not values:
                continue
            points[x] = points.get(x, 0) + values[0]
            if (i, j) not in leftovers.block_of:
                continue
            b = leftovers.block_of[i, j]
            for s, slot in enumerate(leftovers.blocks[b].slots):
                if (b, s) in assignment:
                    rider = cast(int, assignment[b, s])
                    points[rider] = points.get(rider, 0) + slot.value
        return points


class _TourPointsTitle(_Base):
    """``tour_points``: teams on TP (GT-9); see the module docstring for the method."""

    title = "tour_points"

    def __init__(self, tour: GrandTour, tries: int = 24) -> None:
        super().__init__(tour)
        self.entrants: tuple[Hashable, ...] = tuple(t.id for t in tour.setup.teams)
        self.names: Mapping[Hashable, str] = {t.id: t.name for t in tour.setup.teams}
        self.tries = tries

    def _rank(self, standings: Standings) -> list[Ranked]:
        if not standings.tour_points:
            return [Ranked(t, 1, 0) for t in self.entrants]
        return [Ranked(r.team, r.rank, r.total) for r in standings.tour_points]

    def _others(self, *teams: int) -> list[int]:
        skip = {r for t in teams for r in self.team_riders[t]}
        return [r for r in self.gc_order if r not in skip]

    def _ordered(self, top: list[int], middle: list[int], bottom: list[int]) -> Scenario:
        minutes = {r: 0 for r in top}
        minutes.update({r: _BIG for r in middle})
        minutes.update({r: 2 * _BIG for r in bottom})
        lost = self.tour.tokens_may_be_lost
        takers = [*top, *middle] if lost else [*top, *middle, *bottom]

        def plan(_: int) -> PlannedStage:
            return [*top, *middle, *bottom], minutes, takers, takers

        return self._build(plan)

    def extreme(self, best: Hashable, worst: Hashable) -> Scenario:
        b, w = cast(int, best), cast(int, worst)
        return self._ordered(self.team_riders[b], self._others(b, w), self.team_riders[w])

    def runner_up(self, first: Hashable, second: Hashable) -> Scenario:
        a, b = cast(int, first), cast(int, second)
        return self._ordered([*self.team_riders[a], *self.team_riders[b]], self._others(a, b), [])

    def relaxed(self, entrant: Hashable) -> SlotProblem:
        return self._relaxation(entrant)[0]

    def _relaxation(self, entrant: Hashable) -> tuple[SlotProblem, list[str]]:
        """X's TP at most every remaining award it could take; each rival's at least its share
        of what must go past X's two riders: places 3.. of each stage's podium, GC bonus places
        3.., Team bonus places 2.. (the j-th best other rider is at worst (j+2)-th, so his award
        is at least the (j+2)-th value). Sprint, Mountain and Rest Day TP of rivals count 0."""
        x = cast(int, entrant)
        tour, rules = self.tour, self.tour.rules
        setup = tour.setup
        table = rules.classification_tp
        col = table.column(setup.stage_count, len(setup.teams))
        played = len(tour.stages)
        rests = sum(1 for k in setup.rest_days_after if played < k < setup.stage_count)
        now = {r.entrant: r.points for r in self.current()}
        best = (
            now[x]
            + self.events_left * sum(rules.podium_tp[:2])
            + rests * rules.rest_day_tp  # the GC leader on a Rest Day may always be X's
            + sum(table.general[col][:2])
            + sum(table.team[col][:1])
        )
        for kind, values in (("sprint", table.sprint[col]), ("mountain", table.mountain[col])):
            best += self._points_bound(x, kind, values, played)
        others = self._others(x)
        rival_teams = [t for t in self.entrants if t != x]
        blocks: list[Block] = []
        kinds: list[str] = []
        podium = tuple(Slot(v) for v in rules.podium_tp[2:][: len(others)])
        for i in range(self.events_left):
            if podium:
                blocks.append(Block(i, podium, tuple(others), exact=False))
                kinds.append("podium")
        gc = tuple(Slot(v) for v in table.general[col][2:][: len(others)])
        if gc:
            blocks.append(Block(self.events_left - 1, gc, tuple(others), exact=False))
            kinds.append("general")
        teams = tuple(Slot(v) for v in table.team[col][1:][: len(rival_teams)])
        if teams:
            units = tuple(("team", t) for t in rival_teams)
            blocks.append(Block(self.events_left - 1, teams, units, exact=False))
            kinds.append("team")
        rivals = tuple(
            Rival(t, (*self.team_riders[cast(int, t)], ("team", t)), (now[t],)) for t in rival_teams
        )
        return SlotProblem(self.events_left, tuple(blocks), rivals, best), kinds

    def _points_bound(self, x: int, kind: str, values: Sequence[int], played: int) -> int:
        """The most Sprint (or Mountain) TP X can take: Rest Day awards (GT-8.1) and the end
        bonus (GT-9.1) only where one of X's riders can still lead or reach the place: a rival
        already above a rider's best possible points stays above him (points only grow)."""
        tour, rules = self.tour, self.tour.rules
        rows = self.now_standings.sprint if kind == "sprint" else self.now_standings.mountain
        points = {r.rider: r.points for r in rows} if rows else dict.fromkeys(self.riders, 0)
        mine = self.team_riders[x]
        rivals = [points[r] for r in self.riders if r not in mine]

        def reach(upto: int) -> list[int]:
            # each of X's riders alone may take the top token of every stack up to a stage
            gain = sum(
                values_[0]
                for i in range(upto)
                for values_ in (
                    tour.tokens_of(i).sprint if kind == "sprint" else tour.tokens_of(i).mountain
                )
                if values_
            )
            return sorted((points[r] + gain for r in mine), reverse=True)

        total = 0
        needs = rules.jersey_needs_points
        for k in tour.setup.rest_days_after:
            if played < k < tour.setup.stage_count:
                top = reach(k - played)[0]
                if (top > 0 or not needs) and all(top >= p for p in rivals):
                    total += rules.rest_day_tp
        final = reach(self.events_left)
        taken = 0
        for rank_floor, score in sorted((1 + sum(1 for p in rivals if p > mp), mp) for mp in final):
            rank = max(rank_floor, taken + 1)
            taken = rank
            if rank <= len(values) and (score > 0 or not needs):
                total += values[rank - 1]
        return total

    def witnesses(self, entrant: Hashable, assignment: Assignment) -> Iterator[Scenario]:
        """The entrant's riders first everywhere; the others' leftovers shared as the
        relaxation's solution says, then in several other ways (weakest teams first, strongest
        first, then seeded shuffles)."""
        x = cast(int, entrant)
        top = self.team_riders[x]
        others = self._others(x)
        yield from self._from_relaxation(x, assignment)
        tp = {r.entrant: r.points for r in self.current()}
        team_of = {r.id: r.team_id for r in self.tour.setup.riders}
        weakest = sorted(others, key=lambda r: (tp[team_of[r]], r))
        yield self._ordered(top, weakest, [])
        yield self._ordered(top, weakest[::-1], [])
        rng = random.Random(f"podium-forecast-tp:{x}")
        for _ in range(self.tries):
            per_stage = []
            for _ in range(self.events_left):
                shuffled = others[:]
                rng.shuffle(shuffled)
                per_stage.append(shuffled)
            gaps = {r: _BIG + k for k, r in enumerate(per_stage[-1] if per_stage else others)}

            def plan(
                i: int, per_stage: list[list[int]] = per_stage, gaps: dict[int, int] = gaps
            ) -> PlannedStage:
                order = [*top, *per_stage[i]]
                minutes = {r: 0 for r in top}
                minutes.update(gaps)
                return order, minutes, order, order

            yield self._build(plan)

    def _from_relaxation(self, x: int, assignment: Assignment) -> Iterator[Scenario]:
        """Stage podiums as the relaxation placed them; in the last stage the others finish in
        the GC order it chose (minutes far apart, so that order is the final GC's). Tokens: each
        of X's riders first at a stack in turn, the leftovers to the others by finishing order,
        by fewest points or by most points of that classification."""
        top = self.team_riders[x]
        places = self._relaxed_places(x, assignment)
        now = self.now_standings
        held = _Held(
            sprint={r.rider: r.points for r in now.sprint},
            mountain={r.rider: r.points for r in now.mountain},
        )
        firsts = (list(top), list(reversed(top)))
        for sprint_first, mountain_first in ((0, 0), (1, 1), (0, 1), (1, 0)):
            for leftovers in _LEFTOVER_ORDERS:
                tokens = _TokenOrder(firsts[sprint_first], firsts[mountain_first], leftovers)
                yield self._build(self._relaxed_plan(x, places, held, tokens))

    def _relaxed_places(self, x: int, assignment: Assignment) -> _RelaxedPlaces:
        """The riders the relaxation's solution put on each stage podium and in the GC bonus
        places (the Team bonus follows from the riders' times)."""
        relaxed, kinds = self._relaxation(x)
        podiums: dict[int, list[int]] = {}
        general: list[int] = []
        for b, (block, kind) in enumerate(zip(relaxed.blocks, kinds, strict=True)):
            placed = [
                cast(int, assignment[b, s]) for s in range(len(block.slots)) if (b, s) in assignment
            ]
            if kind == "podium":
                podiums[block.event] = placed
            elif kind == "general":
                general = placed
        return _RelaxedPlaces(podiums, general)

    def _relaxed_plan(
        self, x: int, places: _RelaxedPlaces, held: _Held, tokens: _TokenOrder
    ) -> Callable[[int], PlannedStage]:
        top = self.team_riders[x]
        others = self._others(x)
        last = self.events_left - 1

        def plan(i: int) -> PlannedStage:
            lead = places.podiums.get(i, [])
            if i == last:
                lead = lead + [r for r in places.general if r not in lead]
            rest = [*lead, *(r for r in others if r not in lead)]
            minutes = {r: 0 for r in top}
            for k, r in enumerate(rest, start=1):
                minutes[r] = _BIG * (k if i == last else 1)
            sprint = [*tokens.sprint_first, *_leftover_takers(rest, held.sprint, tokens.leftovers)]
            mountain = [
                *tokens.mountain_first,
                *_leftover_takers(rest, held.mountain, tokens.leftovers),
            ]
            return [*top, *rest], minutes, sprint, mountain

        return plan


class _TimeTitle(_Base):
    """``yellow`` or ``team``: open until the last stage, then decided by the standings."""

    def __init__(self, tour: GrandTour, title: str) -> None:
        super().__init__(tour)
        self.title = title
        self.entrants: tuple[Hashable, ...]
        self.names: Mapping[Hashable, str]
        if title == "yellow":
            self.entrants = tuple(self.riders)
            self.names = {r.id: r.name for r in tour.setup.riders}
        else:
            self.entrants = tuple(t.id for t in tour.setup.teams)
            self.names = {t.id: t.name for t in tour.setup.teams}

    def _rank(self, standings: Standings) -> list[Ranked]:
        rows = standings.general if self.title == "yellow" else standings.team
        if not rows:
            return [Ranked(e, 1, 0) for e in self.entrants]
        if self.title == "yellow":
            return [Ranked(r.rider, r.rank, -r.time) for r in standings.general]
        return [Ranked(r.team, r.rank, -r.time) for r in standings.team]


def _time_status(title: _TimeTitle) -> TitleStatus:
    if title.events_left == 0:
        index = {e: i for i, e in enumerate(title.entrants)}
        ranking = sorted(title.current(), key=lambda r: index[r.entrant])
        rows = tuple(
            EntrantStatus(
                r.entrant,
                title.names[r.entrant],
                "clinched" if r.rank == 1 else "eliminated",
                Reason(
                    "decided",
                    {
                        "entrant": title.names[r.entrant],
                        "rank": ordinal(r.rank),
                        "event_noun": "stage",
                        "events_left": 0,
                    },
                ),
            )
            for r in ranking
        )
        return TitleStatus(title.title, 0, rows)
    reason = Reason("time_title", {"event_noun": "stage", "events_left": title.events_left})
    return TitleStatus(
        title.title,
        title.events_left,
        tuple(EntrantStatus(e, title.names[e], "open", reason) for e in title.entrants),
    )


def grand_tour_statuses(tour: GrandTour) -> dict[str, TitleStatus]:
    """Statuses of every title of the tour (see the module docstring for each method)."""
    return {
        "yellow": _time_status(_TimeTitle(tour, "yellow")),
        "green": title_statuses(_TokenTitle(tour, "sprint")),
        "polka_dot": title_statuses(_TokenTitle(tour, "mountain")),
        "team": _time_status(_TimeTitle(tour, "team")),
        "tour_points": title_statuses(_TourPointsTitle(tour)),
    }


__all__ = [
    "GrandTour",
    "StageTokens",
    "grand_tour_statuses",
]
