"""Plain data the Grand Tour scoring engine reads and returns (no Django)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scoring.tie_break import TieBreak

Role = Literal["rouleur", "sprinteur"]
Finish = Literal["flat", "ascent"]
JERSEYS = ("yellow", "green", "polka_dot")


@dataclass(frozen=True)
class Rider:
    id: int
    name: str
    team_id: int
    role: Role


@dataclass(frozen=True)
class Team:
    """A player's team; ``riders`` in entry order (Rouleur first)."""

    id: int
    name: str
    riders: tuple[Rider, ...]


@dataclass(frozen=True)
class TourSetup:
    """What the engine needs to know about a tour. ``teams`` are in entry order."""

    seed: int
    teams: tuple[Team, ...]
    stage_count: int
    rest_days_after: frozenset[int] = frozenset()

    @property
    def riders(self) -> tuple[Rider, ...]:
        return tuple(r for t in self.teams for r in t.riders)


@dataclass(frozen=True)
class StageSpec:
    number: int
    finish: Finish = "flat"


@dataclass(frozen=True)
class RiderResult:
    """One rider's stage result as a scorekeeper copies it from the table."""

    rider: int
    position: int
    minutes: int
    seconds: int
    sprint_points: int = 0
    mountain_points: int = 0
    exhaustion: int | None = None

    @property
    def time(self) -> int:
        return 60 * self.minutes + self.seconds


@dataclass(frozen=True)
class StageResults:
    number: int
    rows: tuple[RiderResult, ...]


# ---- output -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RiderTimeRow:
    rank: int
    rider: int
    name: str
    team: int
    time: int
    gap: int
    tie_break: TieBreak | None = None  # GT-5.5 against the level row above


@dataclass(frozen=True)
class RiderPointsRow:
    rank: int
    rider: int
    name: str
    team: int
    points: int
    tie_break: TieBreak | None = None  # GT-5.5 against the level row above


@dataclass(frozen=True)
class TeamTimeRow:
    rank: int
    team: int
    name: str
    time: int
    gap: int
    tie_break: TieBreak | None = None  # GT-5.5 against the level row above


@dataclass(frozen=True)
class TourPointsRow:
    rank: int
    team: int
    name: str
    podium: int
    rest_days: int
    classification: int
    total: int
    tie_break: TieBreak | None = None  # GT-5.5 against the level row above


@dataclass(frozen=True)
class ExhaustionRow:
    rider: int
    cards: int | None


@dataclass(frozen=True)
class StageSummary:
    """What happened in the stage itself: podium and Rest Day awards after it."""

    number: int
    podium: tuple[int, ...]  # rider ids, first three across the line
    rest_day: bool
    rest_day_awards: tuple[tuple[str, int], ...]  # (classification, rider id) earning Rest Day TP


@dataclass(frozen=True)
class Standings:
    """The standings after ``after_stage`` (shape of API.md's standings answer)."""

    after_stage: int | None
    general: tuple[RiderTimeRow, ...]
    sprint: tuple[RiderPointsRow, ...]
    mountain: tuple[RiderPointsRow, ...]
    team: tuple[TeamTimeRow, ...]
    jerseys: dict[str, int | None]
    tour_points: tuple[TourPointsRow, ...]
    exhaustion: tuple[ExhaustionRow, ...]
    next_start_order: tuple[int, ...] | None
    stage: StageSummary | None = None
    final: bool = False
    winner: int | None = None  # team id of the Tour winner once the last stage is in (GT-9.3)
