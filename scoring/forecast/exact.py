"""Who can still win a points title, exactly: clinched, eliminated or open for every entrant.

A game plugs in through :class:`PointsTitle`: it scores a scenario with the competition's own
scoring code, builds the two pairwise extremes, and states the assignment problem left once an
entrant takes the best of everything (:mod:`scoring.forecast.slots`). This module holds the
method, the same for every game:

- ``clinched``: for every rival Y, the best case for Y against X (Y takes the best places, X the
  worst) still leaves X ahead. Pairwise is exact here: X loses the title exactly when some one
  rival finishes ahead of it.
- ``eliminated``: first a screen (some rival stays ahead even in X's best case against it), then
  the exact integer program over every rival at once.
- ``open`` otherwise, with a scenario that gives the entrant the title, checked by scoring it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from scoring.forecast.model import EntrantStatus, Reason, Scenario, Status, TitleStatus, ordinal
from scoring.forecast.slots import Assignment, SlotProblem, greedy, solve

Entrant = Hashable


@dataclass(frozen=True)
class Ranked:
    """An entrant's line in a ranking: rank (shared ranks allowed) and points."""

    entrant: Entrant
    rank: int
    points: int


class PointsTitle(Protocol):
    """What a game provides for one points title (see the module docstring)."""

    title: str
    entrants: tuple[Entrant, ...]
    names: Mapping[Entrant, str]
    events_left: int
    event_noun: str

    def current(self) -> Sequence[Ranked]:
        """The ranking now (every entrant, best first)."""
        ...

    def ranking(self, scenario: Scenario) -> Sequence[Ranked]:
        """The final ranking after ``scenario``, from the competition's own scoring code."""
        ...

    def extreme(self, best: Entrant, worst: Entrant) -> Scenario:
        """``best`` takes the best of every remaining event, ``worst`` the worst."""
        ...

    def runner_up(self, first: Entrant, second: Entrant) -> Scenario:
        """``first`` takes the best of everything and ``second`` the best of what is left."""
        ...

    def bounded(self) -> bool:
        """False when the remaining events may give any number of points (unlimited bonus)."""
        ...


class AssignmentTitle(PointsTitle, Protocol):
    """A title whose "eliminated" is decided by the assignment program of slots.py."""

    def dominant(self, entrant: Entrant) -> tuple[SlotProblem, Callable[[Assignment], Scenario]]:
        """The places left once ``entrant`` takes the best of everything, and how to read a
        solution back as a scenario."""
        ...


class SearchTitle(PointsTitle, Protocol):
    """A title without an exact program (see grand_tour.py): a relaxation proves "eliminated"
    and scored scenarios prove "open"."""

    def relaxed(self, entrant: Entrant) -> SlotProblem:
        """An assignment problem over a superset of the outcomes (the entrant's points at most,
        the rivals' at least what any outcome gives): no solution proves "eliminated"."""
        ...

    def witnesses(self, entrant: Entrant, assignment: Assignment) -> Iterator[Scenario]:
        """Candidate scenarios giving ``entrant`` the title (from the relaxation's solution
        first), each to be checked by scoring."""
        ...


class ForecastError(RuntimeError):
    """A scenario the solver built does not score as the solver expected: a bug, not input."""


def _rank_of(ranking: Sequence[Ranked], entrant: Entrant) -> Ranked:
    for row in ranking:
        if row.entrant == entrant:
            return row
    raise ForecastError(f"{entrant!r} missing from a ranking")


def _ahead(ranking: Sequence[Ranked], a: Entrant, b: Entrant) -> bool:
    """a ranks strictly ahead of b (a shared rank is not ahead)."""
    return _rank_of(ranking, a).rank < _rank_of(ranking, b).rank


def _wins(ranking: Sequence[Ranked], entrant: Entrant) -> bool:
    """The entrant holds the title (rank 1, alone or shared)."""
    return _rank_of(ranking, entrant).rank == 1


def _sole_winner(ranking: Sequence[Ranked], entrant: Entrant) -> bool:
    return _wins(ranking, entrant) and sum(1 for r in ranking if r.rank == 1) == 1


def title_statuses(title: AssignmentTitle | SearchTitle) -> TitleStatus:
    """The exact status of every entrant of ``title``, with reasons and scenarios."""
    now = {r.entrant: r for r in title.current()}
    common = {"event_noun": title.event_noun, "events_left": title.events_left}
    rows: list[EntrantStatus] = []
    if title.events_left == 0:
        ranking = title.current()
        for r in ranking:
            status: Status = "clinched" if _sole_winner(ranking, r.entrant) else "eliminated"
            if r.rank == 1 and status != "clinched":
                status = "open"  # a shared title after the last event: held, not alone
            reason = Reason(
                "decided", {**common, "entrant": title.names[r.entrant], "rank": ordinal(r.rank)}
            )
            rows.append(EntrantStatus(r.entrant, title.names[r.entrant], status, reason))
        return TitleStatus(title.title, 0, _in_order(title, rows))
    if not title.bounded():
        reason = Reason("unbounded", common)
        rows = [
            EntrantStatus(e, title.names[e], "open", reason, needs_help=True)
            for e in title.entrants
        ]
        return TitleStatus(title.title, title.events_left, tuple(rows))
    for x in title.entrants:
        rows.append(_status(title, x, now, common))
    return TitleStatus(title.title, title.events_left, tuple(rows))


def _in_order(title: PointsTitle, rows: list[EntrantStatus]) -> tuple[EntrantStatus, ...]:
    index = {e: i for i, e in enumerate(title.entrants)}
    return tuple(sorted(rows, key=lambda r: index[r.entrant]))


@dataclass(frozen=True)
class _Margin:
    """How a rival fares against X when the rival takes the best and X the worst of everything:
    X's lead now, and the most points the rival gains."""

    rival: Entrant
    lead: int
    rival_max_gain: int


def _status(
    title: AssignmentTitle | SearchTitle,
    x: Entrant,
    now: Mapping[Entrant, Ranked],
    common: Mapping[str, object],
) -> EntrantStatus:
    name = title.names[x]
    rivals = [y for y in title.entrants if y != x]
    if not rivals:
        return EntrantStatus(
            x, name, "clinched", Reason("only_entrant", {**common, "entrant": name})
        )
    decided = _clinched(title, x, rivals, now, common) or _screened_out(
        title, x, rivals, now, common
    )
    if decided is not None:
        return decided
    needs_help = _needs_help(title, x, rivals)
    if not hasattr(title, "dominant"):
        return _searched(title, x, rivals, common, needs_help)
    return _programmed(cast(AssignmentTitle, title), x, rivals, common, needs_help)


def _clinched(
    title: PointsTitle,
    x: Entrant,
    rivals: Sequence[Entrant],
    now: Mapping[Entrant, Ranked],
    common: Mapping[str, object],
) -> EntrantStatus | None:
    """Clinched: no rival, at its best and with X at its worst, reaches X (a tie would share).
    The reason names the rival who comes closest."""
    margins: list[_Margin] = []
    for y in rivals:
        ranking = title.ranking(title.extreme(best=y, worst=x))
        if not _ahead(ranking, x, y):
            return None
        gain = _rank_of(ranking, y).points - now[y].points
        margins.append(_Margin(y, now[x].points - now[y].points, gain))
    closest = min(margins, key=lambda m: (m.lead - m.rival_max_gain, m.lead))
    reason = Reason(
        "clinched",
        {
            **common,
            "entrant": title.names[x],
            "rival": title.names[closest.rival],
            "lead": closest.lead,
            "rival_max_gain": closest.rival_max_gain,
        },
    )
    return EntrantStatus(x, title.names[x], "clinched", reason)


def _screened_out(
    title: PointsTitle,
    x: Entrant,
    rivals: Sequence[Entrant],
    now: Mapping[Entrant, Ranked],
    common: Mapping[str, object],
) -> EntrantStatus | None:
    """The screen for "eliminated": a rival that stays ahead even in X's best case against it."""
    name = title.names[x]
    for y in rivals:
        ranking = title.ranking(title.extreme(best=x, worst=y))
        if not _ahead(ranking, y, x):
            continue
        final_x, final_y = _rank_of(ranking, x).points, _rank_of(ranking, y).points
        params = {
            **common,
            "entrant": name,
            "rival": title.names[y],
            "behind": now[y].points - now[x].points,
            "max_gain": final_x - now[x].points,
            "rival_min_gain": final_y - now[y].points,
        }
        if final_x == final_y:
            reason = Reason("loses_tie_break", {**params, "points": final_x})
        else:
            reason = Reason("cannot_catch", params)
        return EntrantStatus(x, name, "eliminated", reason)
    return None


def _needs_help(title: PointsTitle, x: Entrant, rivals: Sequence[Entrant]) -> bool:
    """Whether some rival could still pass X when X takes the best of everything."""
    return any(not _wins(title.ranking(title.runner_up(x, y)), x) for y in rivals)


def _searched(
    title: SearchTitle,
    x: Entrant,
    rivals: Sequence[Entrant],
    common: Mapping[str, object],
    needs_help: bool,
) -> EntrantStatus:
    """No exact program for this title: the relaxation's infeasibility proves "eliminated", a
    scenario that scores as a title proves "open"; without either the case stays open but
    unproven (exact=False)."""
    name = title.names[x]
    relaxed = solve(title.relaxed(x))
    if relaxed is None:
        return EntrantStatus(x, name, "eliminated", _beat_all(title, x, rivals, common))
    for scenario in title.witnesses(x, relaxed):
        if _wins(title.ranking(scenario), x):
            return EntrantStatus(x, name, "open", None, needs_help, scenario)
    return EntrantStatus(x, name, "open", None, needs_help, None, exact=False)


def _programmed(
    title: AssignmentTitle,
    x: Entrant,
    rivals: Sequence[Entrant],
    common: Mapping[str, object],
    needs_help: bool,
) -> EntrantStatus:
    """The exact program: with X taking the best of everything, can the other places keep every
    rival behind X? When X needs no help any filling is a solution, so none is a bug."""
    name = title.names[x]
    problem, read = title.dominant(x)
    # A scored scenario proves "open": try the quick filling before the program.
    if all(len(b.slots) <= len(b.units) for b in problem.blocks):
        quick = read(greedy(problem))
        if _wins(title.ranking(quick), x):
            return EntrantStatus(x, name, "open", None, needs_help, quick)
    assignment = solve(problem)
    if assignment is None:
        if not needs_help:
            raise ForecastError(f"{x!r} wins alone yet the program has no solution")
        close = [
            title.names[y] for y in rivals if not _ahead(title.ranking(title.runner_up(x, y)), x, y)
        ]
        reason = Reason("cannot_beat_all", {**common, "entrant": name, "rivals": tuple(close)})
        return EntrantStatus(x, name, "eliminated", reason)
    scenario = read(assignment)
    _check(title, scenario, x)
    return EntrantStatus(x, name, "open", None, needs_help, scenario)


def _beat_all(
    title: PointsTitle, x: Entrant, rivals: Sequence[Entrant], common: Mapping[str, object]
) -> Reason:
    """The reason when no single rival but the rivals together keep X from the title: names the
    rivals who could pass X even when X takes the best of everything."""
    close = [y for y in rivals if not _ahead(title.ranking(title.runner_up(x, y)), x, y)]
    names = tuple(title.names[y] for y in (close or rivals))
    return Reason("cannot_beat_all", {**common, "entrant": title.names[x], "rivals": names})


def _check(title: PointsTitle, scenario: Scenario, x: Entrant) -> None:
    ranking = title.ranking(scenario)
    if not _wins(ranking, x):
        got = [(r.entrant, r.rank, r.points) for r in ranking]
        raise ForecastError(f"scenario for {x!r} does not give it the title: {got}")


__all__ = [
    "AssignmentTitle",
    "ForecastError",
    "PointsTitle",
    "Ranked",
    "SearchTitle",
    "title_statuses",
]
