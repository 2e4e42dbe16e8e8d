"""Formula D championship standings (FD-70 to FD-77) as a pure function of race results.

Results are the source of truth: :func:`compute_standings` recomputes driver and team standings
after any race from the resolved races, with countback, drop-worst and team totals, and never
shares a rank (FD-76). ``Standings.to_json()`` is the body of
``GET /api/championships/{id}/standings/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scoring.formula_d.rules import FormulaDRules

EntryStatus = Literal["finished", "eliminated"]


@dataclass(frozen=True)
class ChampionshipDriver:
    """A driver of the championship, in the championship's driver-list order."""

    id: int
    name: str
    team: str | None = None


@dataclass(frozen=True)
class RaceEntry:
    """One validated result row (FD-78)."""

    driver: int
    position: int
    status: EntryStatus
    laps: int
    elimination_order: int | None = None
    wp_left: int | None = None
    pole: bool = False


@dataclass(frozen=True)
class RaceResult:
    """A resolved race: its number and one entry per starter."""

    number: int
    entries: tuple[RaceEntry, ...]


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

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "driver": self.driver,
            "name": self.name,
            "team": self.team,
            "points": self.points,
            "wins": self.wins,
            "results": list(self.results),
            "statuses": list(self.statuses),
        }


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    team: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "team": self.team, "points": self.points}


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


def race_points(entry: RaceEntry, points: Sequence[int], rules: FormulaDRules) -> int:
    """FD-70 to FD-73: points by classified position plus the pole bonus."""
    scored = entry.status == "finished" or not rules.points_finishers_only
    base = points[entry.position - 1] if scored and entry.position <= len(points) else 0
    return base + (rules.pole_bonus if entry.pole else 0)


def compute_standings(
    drivers: Sequence[ChampionshipDriver],
    races: Sequence[RaceResult],
    *,
    points: Sequence[int],
    rules: FormulaDRules,
    after_race: int | None = None,
) -> Standings:
    """Standings after ``after_race`` (default: every race given), races in championship order.

    ``races`` are the resolved races from race 1 on; an entry for a driver who is not in
    ``drivers`` is ignored (the service validates rows first, FD-79).
    """
    if after_race is not None:
        races = [r for r in races if r.number <= after_race]
    if not races:
        return Standings(None, (), ())
    races = sorted(races, key=lambda r: r.number)
    by_race = [{e.driver: e for e in r.entries} for r in races]
    count = len(races)
    drop = min(rules.drop_worst, count - 1)  # FD-74
    max_pos = max((e.position for r in races for e in r.entries), default=0)
    rows: list[tuple[tuple[Any, ...], DriverStanding]] = []
    for index, d in enumerate(drivers):
        entries = [race.get(d.id) for race in by_race]
        totals = tuple(0 if e is None else race_points(e, points, rules) for e in entries)
        # FD-74: discard the lowest totals, the earliest first among equals (stable choice).
        dropped_idx = sorted(range(count), key=lambda i: (totals[i], i))[:drop]
        kept = sum(t for i, t in enumerate(totals) if i not in dropped_idx)
        results = tuple(
            e.position if e is not None and e.status == "finished" else None for e in entries
        )
        statuses = tuple("not_entered" if e is None else e.status for e in entries)
        wins = sum(1 for p in results if p == 1)
        key = (
            -kept,
            _countback([p for p in results if p is not None], max_pos),
            # FD-76 (2): the most recent race where they differ; not started ranks last.
            tuple(max_pos + 1 if e is None else e.position for e in reversed(entries)),
            index,
        )
        standing = DriverStanding(
            rank=0,
            driver=d.id,
            name=d.name,
            team=d.team,
            points=kept,
            wins=wins,
            results=results,
            statuses=statuses,
            race_totals=totals,
            dropped=tuple(races[i].number for i in sorted(dropped_idx)),
        )
        rows.append((key, standing))
    rows.sort(key=lambda item: item[0])
    ranked = tuple(DriverStanding(i + 1, *_fields(s)[1:]) for i, (_, s) in enumerate(rows))
    return Standings(
        races[-1].number, ranked, _teams(drivers, races, by_race, points, rules, max_pos)
    )


def _fields(s: DriverStanding) -> tuple[Any, ...]:
    return (
        s.rank,
        s.driver,
        s.name,
        s.team,
        s.points,
        s.wins,
        s.results,
        s.statuses,
        s.race_totals,
        s.dropped,
    )


def _countback(positions: Sequence[int], max_pos: int) -> tuple[int, ...]:
    # FD-76 (1): most wins, then most 2nd places, ... (negated so that smaller sorts first).
    counts = [0] * (max_pos + 1)
    for p in positions:
        counts[p] += 1
    return tuple(-c for c in counts[1:])


def _teams(
    drivers: Sequence[ChampionshipDriver],
    races: Sequence[RaceResult],
    by_race: Sequence[dict[int, RaceEntry]],
    points: Sequence[int],
    rules: FormulaDRules,
    max_pos: int,
) -> tuple[TeamStanding, ...]:
    """FD-77: sums of the drivers' race totals, no drops; ties as FD-76 on pooled positions.

    Ties: countback on the pooled finishing positions, then the most recent race where the
    teams' pooled classified positions differ, then the team name.
    """
    names: list[str] = []
    for d in drivers:
        if d.team is not None and d.team not in names:
            names.append(d.team)
    size = max((sum(1 for d in drivers if d.team == team) for team in names), default=0)
    rows: list[tuple[tuple[Any, ...], str, int]] = []
    for team in names:
        members = [d.id for d in drivers if d.team == team]
        total = 0
        positions: list[int] = []
        recent: list[tuple[int, ...]] = []
        for race in by_race:
            classified: list[int] = []
            for driver in members:
                e = race.get(driver)
                if e is None:
                    continue
                total += race_points(e, points, rules)
                classified.append(e.position)
                if e.status == "finished":
                    positions.append(e.position)
            recent.append(_pooled(classified, size, max_pos))
        # FD-76 (2) for teams (decisions-formula-d.md): the most recent race where the two
        # teams' pooled classified positions differ, compared best car first.
        key = (-total, _countback(positions, max_pos), tuple(reversed(recent)), team)
        rows.append((key, team, total))
    rows.sort(key=lambda item: item[0])
    return tuple(TeamStanding(i + 1, team, total) for i, (_, team, total) in enumerate(rows))


def _pooled(classified: list[int], size: int, max_pos: int) -> tuple[int, ...]:
    # A team's classified positions in one race, best first, padded to the largest team's size
    # with "not started" (ranks last, as in FD-76 (2)).
    return tuple(sorted(classified)) + (max_pos + 1,) * (size - len(classified))
