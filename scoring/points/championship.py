"""A points championship over finishing orders, for any racing game (formula_d.md FD-71, FD-73 to
FD-77, written there for Formula D and applied as they stand to every game scored this way).

Results are the source of truth: :func:`compute_standings` recomputes driver and team standings
after any race from the resolved races, with countback, drop-worst and team totals, and never
shares a rank (FD-76). The game says what a race total is made of only through :class:`Finish`
(its position, whether the car finished, and bonus points such as Formula D's pole bonus, FD-72)
and :class:`Scale`; ``Standings.to_json()`` is the body of the ``standings/`` endpoints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


def compute_standings(
    entrants: Sequence[Entrant],
    races: Sequence[Race],
    scale: Scale,
    *,
    after_race: int | None = None,
) -> Standings:
    """Standings after ``after_race`` (default: every race given), races in championship order.

    ``races`` are the resolved races from race 1 on; a finish for a driver who is not in
    ``entrants`` is ignored (the game validates rows first).
    """
    if after_race is not None:
        races = [r for r in races if r.number <= after_race]
    if not races:
        return Standings(None, (), ())
    races = sorted(races, key=lambda r: r.number)
    by_race = [{f.driver: f for f in r.finishes} for r in races]
    count = len(races)
    drop = max(0, min(scale.drop_worst, count - 1))  # FD-74
    max_pos = max((f.position for r in races for f in r.finishes), default=0)
    rows: list[tuple[tuple[Any, ...], DriverStanding]] = []
    for index, d in enumerate(entrants):
        finishes = [race.get(d.id) for race in by_race]
        totals = tuple(0 if f is None else race_total(f, scale) for f in finishes)
        # FD-74: discard the lowest totals, the earliest first among equals (stable choice).
        dropped_idx = sorted(range(count), key=lambda i: (totals[i], i))[:drop]
        kept = sum(t for i, t in enumerate(totals) if i not in dropped_idx)
        results = tuple(f.position if f is not None and f.finished else None for f in finishes)
        key = (
            -kept,
            _countback([p for p in results if p is not None], max_pos),
            # FD-76 (2): the most recent race where they differ; not started ranks last.
            tuple(max_pos + 1 if f is None else f.position for f in reversed(finishes)),
            index,
        )
        standing = DriverStanding(
            rank=0,
            driver=d.id,
            name=d.name,
            team=d.team,
            points=kept,
            wins=sum(1 for p in results if p == 1),
            results=results,
            statuses=tuple("not_entered" if f is None else f.status for f in finishes),
            race_totals=totals,
            dropped=tuple(races[i].number for i in sorted(dropped_idx)),
        )
        rows.append((key, standing))
    rows.sort(key=lambda item: item[0])
    numbers = [r.number for r in races]
    ranked = tuple(
        _ranked(
            s, i + 1, _tie_break(rows[i - 1][0], key, numbers, max_pos, DRIVERS_RULE) if i else None
        )
        for i, (key, s) in enumerate(rows)
    )
    return Standings(races[-1].number, ranked, _teams(entrants, by_race, scale, max_pos, numbers))


DRIVERS_RULE, TEAMS_RULE = "FD-76", "FD-77"


def _tie_break(
    above: tuple[Any, ...], key: tuple[Any, ...], numbers: Sequence[int], max_pos: int, rule: str
) -> TieBreak | None:
    """Which FD-76 (FD-77) criterion ranks the row of ``key`` after the row of ``above``.

    Keys are the sort keys of :func:`compute_standings` and :func:`_teams`: (-points,
    countback, places from the most recent race back, entry order or team name). ``None``
    when the points differ.
    """
    if above[0] != key[0]:
        return None
    counted = countback_break([-c for c in above[1]], [-c for c in key[1]], rule)
    if counted is not None:
        return counted
    for back, (a, b) in enumerate(zip(above[2], key[2], strict=True)):
        if a != b:
            race = numbers[len(numbers) - 1 - back]
            if isinstance(a, tuple):  # a team's pooled places, best car first
                params = {"race": race, "places": _entered(a, max_pos)}
                params["other_places"] = _entered(b, max_pos)
                return TieBreak("recent_race_places", rule, params)
            other = None if b > max_pos else b
            return TieBreak(
                "recent_race_place", rule, {"race": race, "place": a, "other_place": other}
            )
    return TieBreak("entry_order" if rule == DRIVERS_RULE else "team_name", rule, {})


def _entered(places: tuple[int, ...], max_pos: int) -> tuple[int | None, ...]:
    # "Not started" pads a team's places past the last classified position: shown as such.
    return tuple(None if p > max_pos else p for p in places)


def snapshots(
    entrants: Sequence[Entrant], races: Sequence[Race], scale: Scale
) -> list[dict[str, Any]]:
    """The standings JSON after each of ``races`` (1..k, in order), each driver row with its
    ``race_totals`` as ``race_points`` (dropped ones included), ``dropped`` and ``progression``
    (standings points after each race so far, for a chart)."""
    progression: dict[int, list[int]] = {}
    documents = []
    for k in range(1, len(races) + 1):
        standings = compute_standings(entrants, races[:k], scale)
        data = standings.to_json()
        for row, s in zip(data["drivers"], standings.drivers, strict=True):
            history = progression.setdefault(s.driver, [])
            history.append(s.points)
            row.update(race_points=list(s.race_totals), dropped=list(s.dropped))
            row["progression"] = list(history)
        documents.append(data)
    return documents


def _ranked(s: DriverStanding, rank: int, tie_break: TieBreak | None) -> DriverStanding:
    return DriverStanding(
        rank,
        s.driver,
        s.name,
        s.team,
        s.points,
        s.wins,
        s.results,
        s.statuses,
        s.race_totals,
        s.dropped,
        tie_break,
    )


def _countback(positions: Sequence[int], max_pos: int) -> tuple[int, ...]:
    # FD-76 (1): most wins, then most 2nd places, ... (negated so that smaller sorts first).
    counts = [0] * (max_pos + 1)
    for p in positions:
        counts[p] += 1
    return tuple(-c for c in counts[1:])


def _teams(
    entrants: Sequence[Entrant],
    by_race: Sequence[dict[int, Finish]],
    scale: Scale,
    max_pos: int,
    numbers: Sequence[int],
) -> tuple[TeamStanding, ...]:
    """FD-77: sums of the drivers' race totals, no drops; ties as FD-76 on pooled positions.

    Ties: countback on the pooled finishing positions, then the most recent race where the
    teams' pooled classified positions differ, then the team name.
    """
    names: list[str] = []
    for d in entrants:
        if d.team is not None and d.team not in names:
            names.append(d.team)
    size = max((sum(1 for d in entrants if d.team == team) for team in names), default=0)
    rows: list[tuple[tuple[Any, ...], str, int]] = []
    for team in names:
        members = [d.id for d in entrants if d.team == team]
        total = 0
        positions: list[int] = []
        recent: list[tuple[int, ...]] = []
        for race in by_race:
            classified: list[int] = []
            for driver in members:
                f = race.get(driver)
                if f is None:
                    continue
                total += race_total(f, scale)
                classified.append(f.position)
                if f.finished:
                    positions.append(f.position)
            recent.append(_pooled(classified, size, max_pos))
        # FD-76 (2) for teams (decisions-formula-d.md): the most recent race where the two
        # teams' pooled classified positions differ, compared best car first.
        key = (-total, _countback(positions, max_pos), tuple(reversed(recent)), team)
        rows.append((key, team, total))
    rows.sort(key=lambda item: item[0])
    return tuple(
        TeamStanding(
            i + 1,
            team,
            total,
            _tie_break(rows[i - 1][0], key, numbers, max_pos, TEAMS_RULE) if i else None,
        )
        for i, (key, team, total) in enumerate(rows)
    )


def _pooled(classified: list[int], size: int, max_pos: int) -> tuple[int, ...]:
    # A team's classified positions in one race, best first, padded to the largest team's size
    # with "not started" (ranks last, as in FD-76 (2)).
    return tuple(sorted(classified)) + (max_pos + 1,) * (size - len(classified))
