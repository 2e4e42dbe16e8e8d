"""A points championship over finishing orders, for any racing game (formula_d.md FD-71, FD-73 to
FD-77, written there for Formula D and applied as they stand to every game scored this way).

Results are the source of truth: :func:`compute_standings` recomputes driver and team standings
after any race from the resolved races, with countback, drop-worst and team totals, and never
shares a rank (FD-76). The game says what a race total is made of only through :class:`Finish`
(its position, whether the car finished, and bonus points such as Formula D's pole bonus, FD-72)
and :class:`Scale`; ``Standings.to_json()`` is the body of the ``standings/`` endpoints.

The standings are ranked from a :class:`Tally`, each driver's figures race by race. A tally is
extended race by race, so :func:`snapshots` is one pass and a forecast that scores thousands of
endings of one championship tallies the played races once (``compute_standings(previous=)``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from operator import neg
from typing import Any, NamedTuple

from scoring.tie_break import TieBreak, countback_break

#: The status of a car that crossed the finish line; any other status (Formula D's
#: ``eliminated``, a league's ``dnf``) is a classified non-finisher.
FINISHED = "finished"


@dataclass(frozen=True)
class Entrant:
    """A driver of the championship, in the championship's driver-list order (FD-76 (3))."""

    id: int
    name: str
    team: str | None = None


@dataclass(frozen=True)
class Finish:
    """One driver's classified result in a race: position 1..n, finishers first."""

    driver: int
    position: int
    status: str = FINISHED  # shown, per race, in the standings' ``statuses``
    bonus: int = 0  # added to the race total whatever the result (FD-72, a league's ``bonus``)

    @property
    def finished(self) -> bool:
        return self.status == FINISHED


@dataclass(frozen=True)
class Race:
    """A resolved race: its number and one finish per starter."""

    number: int
    finishes: tuple[Finish, ...]


@dataclass(frozen=True)
class Scale:
    """How race totals are made and kept: the points table (FD-70), FD-71 and FD-74."""

    points: tuple[int, ...]
    finishers_only: bool = True
    drop_worst: int = 0


@dataclass(frozen=True)
class DriverStanding:
    rank: int
    driver: int
    name: str
    team: str | None
    points: int
    wins: int
    results: tuple[int | None, ...]
    statuses: tuple[str, ...]
    race_totals: tuple[int, ...]
    dropped: tuple[int, ...]  # race numbers whose totals were discarded (FD-74)
    tie_break: TieBreak | None = None  # FD-76 against the row above, when level on points

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank,
            "driver": self.driver,
            "name": self.name,
            "team": self.team,
            "points": self.points,
            "wins": self.wins,
            "results": list(self.results),
            "statuses": list(self.statuses),
        }
        if self.tie_break is not None:
            out["tie_break"] = self.tie_break.to_json()
        return out


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    team: str
    points: int
    tie_break: TieBreak | None = None  # FD-77 against the row above, when level on points

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rank": self.rank, "team": self.team, "points": self.points}
        if self.tie_break is not None:
            out["tie_break"] = self.tie_break.to_json()
        return out


@dataclass(frozen=True)
class Standings:
    after_race: int | None
    drivers: tuple[DriverStanding, ...]
    teams: tuple[TeamStanding, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "after_race": self.after_race,
            "drivers": [d.to_json() for d in self.drivers],
            "teams": [t.to_json() for t in self.teams],
        }


def race_total(finish: Finish, scale: Scale) -> int:
    """FD-71 and FD-73: points by classified position (0 beyond the table) plus the bonus."""
    scored = finish.finished or not scale.finishers_only
    points = scale.points
    base = points[finish.position - 1] if scored and finish.position <= len(points) else 0
    return base + finish.bonus


class DriverTally(NamedTuple):
    """One driver's figures after the races of a :class:`Tally`, one item per race.

    Everything the standings need from a driver's races, kept so that more races extend it
    instead of scoring the earlier ones again.
    """

    totals: tuple[int, ...]  # race totals (FD-73), 0 when not entered
    results: tuple[int | None, ...]  # finishing positions, None for a non-finisher
    statuses: tuple[str, ...]  # the finish's status, NOT_ENTERED when not in the race
    places: tuple[int, ...]  # classified positions, NOT_STARTED when not in the race (FD-76 (2))
    counts: tuple[int, ...]  # finishes in 1st, 2nd, ... place, to the tally's ``deepest``
    points: int  # the sum of ``totals``, nothing dropped
    lowest: tuple[tuple[int, int], ...]  # (total, race index) of the lowest totals (FD-74)


@dataclass(frozen=True)
class Tally:
    """The driver and team figures after some races, from which :func:`compute_standings`
    resumes (``previous=``) to score only the races after them.

    A forecast scores thousands of simulated endings of one championship (scoring/forecast):
    the played races are tallied once and each ending adds only its own races. Made by
    :func:`tally_races`; tied to its entrants and scale.
    """

    entrants: tuple[Entrant, ...]
    scale: Scale
    numbers: tuple[int, ...]  # the races' numbers, in championship order
    deepest: int  # the deepest classified position of any race so far (0 before any)
    drivers: tuple[DriverTally, ...]  # in entrant order
    team_names: tuple[str, ...]  # in order of first appearance in the driver list
    team_members: tuple[tuple[int, ...], ...]  # per team, its drivers' entrant indices
    # per team, per race, its drivers' classified positions best first, padded with
    # NOT_STARTED to the largest team's size (FD-77's places, decisions-formula-d.md)
    team_places: tuple[tuple[tuple[int, ...], ...], ...]


#: The status of a driver with no finish in a race (shown in the standings' ``statuses``).
NOT_ENTERED = "not_entered"
#: The classified position of a driver not in a race: behind every classified one (FD-76 (2)).
NOT_STARTED = sys.maxsize


def tally_races(
    entrants: Sequence[Entrant],
    races: Sequence[Race],
    scale: Scale,
    *,
    previous: Tally | None = None,
) -> Tally:
    """The figures of ``entrants`` after ``races`` (as :func:`compute_standings` takes them),
    to resume from with ``compute_standings(..., previous=)``; ``previous`` extends a tally of
    the earlier races."""
    return _extend(_resumed(entrants, scale, previous), races)


def compute_standings(
    entrants: Sequence[Entrant],
    races: Sequence[Race],
    scale: Scale,
    *,
    after_race: int | None = None,
    previous: Tally | None = None,
) -> Standings:
    """Standings after ``after_race`` (default: every race given), races in championship order.

    ``races`` are the resolved races from race 1 on; a finish for a driver who is not in
    ``entrants`` is ignored (the game validates rows first).

    ``previous`` resumes from a :func:`tally_races` of the earlier races (of the same entrants
    and scale): ``races`` are then only the races after them. The standings are exactly those
    of the full computation (tested), whose own path is the same tally made from nothing.
    """
    if after_race is not None:
        races = [r for r in races if r.number <= after_race]
        if previous is not None and previous.numbers and previous.numbers[-1] > after_race:
            raise ValueError(f"the tally runs past race {after_race}")
    return _standings(_extend(_resumed(entrants, scale, previous), races))


def _resumed(entrants: Sequence[Entrant], scale: Scale, previous: Tally | None) -> Tally:
    """``previous``, checked to be a tally of ``entrants`` and ``scale``, or an empty one."""
    if previous is None:
        return _empty(entrants, scale)
    if (previous.scale is not scale and previous.scale != scale) or (
        previous.entrants is not entrants and previous.entrants != tuple(entrants)
    ):
        raise ValueError("the tally was made for other entrants or another scale")
    return previous


def _empty(entrants: Sequence[Entrant], scale: Scale) -> Tally:
    """The tally before any race."""
    names: list[str] = []
    for d in entrants:
        if d.team is not None and d.team not in names:
            names.append(d.team)
    members = tuple(tuple(i for i, d in enumerate(entrants) if d.team == team) for team in names)
    nothing = DriverTally((), (), (), (), (), 0, ())
    return Tally(
        tuple(entrants),
        scale,
        (),
        0,
        tuple(nothing for _ in entrants),
        tuple(names),
        members,
        tuple(() for _ in names),
    )


def _extend(tally: Tally, races: Sequence[Race]) -> Tally:
    """``tally`` with ``races`` added (numbered from the tally's last race on)."""
    if not races:
        return tally
    races = sorted(races, key=lambda r: r.number)
    if tally.numbers and races[0].number < tally.numbers[-1]:
        raise ValueError(f"race {races[0].number} comes before the tally's last race")
    scale = tally.scale
    first = len(tally.numbers)
    by_race = [{f.driver: f for f in r.finishes} for r in races]
    deepest = max([tally.deepest, *(f.position for r in races for f in r.finishes)])
    # FD-74 drops at most ``drop_worst`` races: the lowest totals among them are enough.
    keep_lowest = max(0, scale.drop_worst)
    drivers: list[DriverTally] = []
    for entrant, before in zip(tally.entrants, tally.drivers, strict=True):
        totals: list[int] = []
        results: list[int | None] = []
        statuses: list[str] = []
        places: list[int] = []
        counts = [*before.counts, *(0,) * (deepest - len(before.counts))]
        for race in by_race:
            finish = race.get(entrant.id)
            if finish is None:
                totals.append(0)
                results.append(None)
                statuses.append(NOT_ENTERED)
                places.append(NOT_STARTED)
                continue
            totals.append(race_total(finish, scale))
            statuses.append(finish.status)
            places.append(finish.position)
            if finish.finished:
                results.append(finish.position)
                counts[finish.position - 1] += 1
            else:
                results.append(None)
        # FD-74: the lowest totals, the earliest first among equals (stable choice).
        candidates = [*before.lowest, *zip(totals, range(first, first + len(totals)), strict=True)]
        drivers.append(
            DriverTally(
                before.totals + tuple(totals),
                before.results + tuple(results),
                before.statuses + tuple(statuses),
                before.places + tuple(places),
                tuple(counts),
                before.points + sum(totals),
                tuple(sorted(candidates)[:keep_lowest]),
            )
        )
    size = max((len(m) for m in tally.team_members), default=0)
    team_places = []
    for members, before_places in zip(tally.team_members, tally.team_places, strict=True):
        missing = (NOT_STARTED,) * (size - len(members))
        per_race = zip(*(drivers[m].places[first:] for m in members), strict=True)
        team_places.append(
            before_places + tuple(tuple(sorted(places)) + missing for places in per_race)
        )
    return Tally(
        tally.entrants,
        scale,
        tally.numbers + tuple(r.number for r in races),
        deepest,
        tuple(drivers),
        tally.team_names,
        tally.team_members,
        tuple(team_places),
    )


class _Key(NamedTuple):
    """The FD-76 (FD-77) sort key of a row: smaller ranks first."""

    minus_points: int  # most points first
    minus_counts: tuple[int, ...]  # most 1st, then 2nd, ... places first (FD-76 (1))
    recent: tuple[Any, ...]  # places from the most recent race back (FD-76 (2))
    order: int | str  # entry order, or the team name (FD-76 (3))


def _standings(tally: Tally) -> Standings:
    """The ranked standings of a tally (FD-74, FD-76, FD-77)."""
    numbers = tally.numbers
    if not numbers:
        return Standings(None, (), ())
    drop = max(0, min(tally.scale.drop_worst, len(numbers) - 1))  # FD-74
    rows: list[_Row] = []
    for index, (entrant, t) in enumerate(zip(tally.entrants, tally.drivers, strict=True)):
        dropped = t.lowest[:drop]
        key = _Key(
            sum(total for total, _ in dropped) - t.points,
            tuple(map(neg, t.counts)),
            t.places[::-1],
            index,
        )
        dropped_races = tuple(sorted(numbers[race] for _, race in dropped))
        rows.append(_Row(key, entrant, t, dropped_races))
    rows.sort()  # the keys differ (entry order last), so only they are compared
    drivers = []
    above: _Key | None = None
    for rank, row in enumerate(rows, start=1):
        tie_break = None
        if above is not None:
            tie_break = _tie_break(above, row.key, numbers, tally.deepest, DRIVERS_RULE)
        drivers.append(
            DriverStanding(
                rank=rank,
                driver=row.entrant.id,
                name=row.entrant.name,
                team=row.entrant.team,
                points=-row.key.minus_points,
                wins=row.tally.counts[0] if row.tally.counts else 0,
                results=row.tally.results,
                statuses=row.tally.statuses,
                race_totals=row.tally.totals,
                dropped=row.dropped,
                tie_break=tie_break,
            )
        )
        above = row.key
    return Standings(numbers[-1], tuple(drivers), _teams(tally))


class _Row(NamedTuple):
    key: _Key
    entrant: Entrant
    tally: DriverTally
    dropped: tuple[int, ...]  # race numbers


DRIVERS_RULE, TEAMS_RULE = "FD-76", "FD-77"


def _tie_break(
    above: _Key, key: _Key, numbers: Sequence[int], deepest: int, rule: str
) -> TieBreak | None:
    """Which FD-76 (FD-77) criterion ranks the row of ``key`` after the row of ``above``
    (``None`` when the points differ); ``deepest`` is the deepest classified position."""
    if above.minus_points != key.minus_points:
        return None
    counts, other_counts = [-c for c in above.minus_counts], [-c for c in key.minus_counts]
    counted = countback_break(counts, other_counts, rule)
    if counted is not None:
        return counted
    for back, (a, b) in enumerate(zip(above.recent, key.recent, strict=True)):
        if a != b:
            race = numbers[len(numbers) - 1 - back]
            if isinstance(a, tuple):  # a team's pooled places, best car first
                params = {"race": race, "places": _entered(a, deepest)}
                params["other_places"] = _entered(b, deepest)
                return TieBreak("recent_race_places", rule, params)
            other = None if b > deepest else b
            return TieBreak(
                "recent_race_place", rule, {"race": race, "place": a, "other_place": other}
            )
    return TieBreak("entry_order" if rule == DRIVERS_RULE else "team_name", rule, {})


def _entered(places: tuple[int, ...], deepest: int) -> tuple[int | None, ...]:
    # "Not started" pads a team's places past the last classified position: shown as such.
    return tuple(None if p > deepest else p for p in places)


def snapshots(
    entrants: Sequence[Entrant], races: Sequence[Race], scale: Scale
) -> list[dict[str, Any]]:
    """The standings JSON after each of ``races`` (1..k, in order), each driver row with its
    ``race_totals`` as ``race_points`` (dropped ones included), ``dropped`` and ``progression``
    (standings points after each race so far, for a chart). One pass: each race extends the
    tally of the races before it."""
    progression: dict[int, list[int]] = {}
    documents = []
    tally = _empty(entrants, scale)
    for race in races:
        tally = _extend(tally, [race])
        standings = _standings(tally)
        data = standings.to_json()
        for row, s in zip(data["drivers"], standings.drivers, strict=True):
            history = progression.setdefault(s.driver, [])
            history.append(s.points)
            row.update(race_points=list(s.race_totals), dropped=list(s.dropped))
            row["progression"] = list(history)
        documents.append(data)
    return documents


def _teams(tally: Tally) -> tuple[TeamStanding, ...]:
    """FD-77: sums of the drivers' race totals, no drops; ties as FD-76 on pooled positions.

    Ties: countback on the pooled finishing positions, then the most recent race where the
    teams' pooled classified positions differ (decisions-formula-d.md), then the team name.
    """
    keys: list[_Key] = []
    for team, members, places in zip(
        tally.team_names, tally.team_members, tally.team_places, strict=True
    ):
        drivers = [tally.drivers[m] for m in members]
        pooled = [sum(counts) for counts in zip(*(d.counts for d in drivers), strict=True)]
        keys.append(
            _Key(-sum(d.points for d in drivers), tuple(map(neg, pooled)), places[::-1], team)
        )
    keys.sort()
    return tuple(
        TeamStanding(
            i + 1,
            str(key.order),
            -key.minus_points,
            _tie_break(keys[i - 1], key, tally.numbers, tally.deepest, TEAMS_RULE) if i else None,
        )
        for i, key in enumerate(keys)
    )
