"""Formula D championship standings (FD-70 to FD-77) as a pure function of race results.

The points championship itself (FD-71, FD-73 to FD-77) is game-neutral and lives in
:mod:`scoring.points.championship`, which leagues of any racing game share; this module maps a
Formula D race entry onto it (FD-72's pole bonus is the entry's bonus) and keeps the Formula D
names. ``Standings.to_json()`` is the body of ``GET /api/championships/{id}/standings/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scoring.formula_d.rules import FormulaDRules
from scoring.points.championship import (
    DriverStanding,
    Finish,
    Race,
    Scale,
    Standings,
    TeamStanding,
    race_total,
)
from scoring.points.championship import Entrant as ChampionshipDriver
from scoring.points.championship import compute_standings as points_standings
from scoring.points.championship import snapshots as points_snapshots

EntryStatus = Literal["finished", "eliminated"]

__all__ = [
    "ChampionshipDriver",
    "DriverStanding",
    "EntryStatus",
    "RaceEntry",
    "RaceResult",
    "Standings",
    "TeamStanding",
    "compute_standings",
    "race_points",
    "standings_snapshots",
]


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


def _finish(entry: RaceEntry, rules: FormulaDRules) -> Finish:
    # FD-72: the pole bonus is added whatever the result, like any race bonus.
    bonus = rules.pole_bonus if entry.pole else 0
    return Finish(entry.driver, entry.position, entry.status, bonus)


def _scale(points: Sequence[int], rules: FormulaDRules) -> Scale:
    return Scale(tuple(points), rules.points_finishers_only, rules.drop_worst)


def race_points(entry: RaceEntry, points: Sequence[int], rules: FormulaDRules) -> int:
    """FD-70 to FD-73: points by classified position plus the pole bonus."""
    return race_total(_finish(entry, rules), _scale(points, rules))


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
    finishes = [Race(r.number, tuple(_finish(e, rules) for e in r.entries)) for r in races]
    return points_standings(drivers, finishes, _scale(points, rules), after_race=after_race)


def standings_snapshots(
    drivers: Sequence[ChampionshipDriver],
    races: Sequence[RaceResult],
    *,
    points: Sequence[int],
    rules: FormulaDRules,
) -> list[dict[str, Any]]:
    """The standings JSON after each of ``races`` (1..k) in one pass, each driver row with its
    ``race_points``, ``dropped`` and ``progression`` (``scoring.points.snapshots``)."""
    finishes = [Race(r.number, tuple(_finish(e, rules) for e in r.entries)) for r in races]
    return points_snapshots(drivers, finishes, _scale(points, rules))
