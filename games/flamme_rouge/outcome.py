"""What a simulated stage returns: per-rider results (FR-70), header (FR-71) and log (FR-73)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.flamme_rouge.cards import Card


@dataclass(frozen=True)
class RiderResult:
    """FR-70: one rider's stage result, integers only.

    In base mode (FR-41) a rider who never crossed has ``crossing_round`` 0 (rounds are
    numbered from 1) and ``squares_past`` = his square - L, 0 or less (how far short of the line
    he stands), so FR-72's order needs no special case beyond "crossers first".
    """

    rider_id: int
    team_id: int
    rider_type: str  # rouleur | sprinteur (Peloton riders: rouleur, FR-56 deck)
    is_dummy: bool
    position: int
    crossing_round: int
    squares_past: int
    lane: int
    minutes: int
    seconds: int
    sprint_points: int
    mountain_points: int
    tokens: tuple[tuple[str, int], ...]
    exhaustion_end: int
    exhaustion_taken: int
    exhaustion_played: int
    deck_end: tuple[Card, ...]

    @property
    def time_s(self) -> int:
        """Stage time in seconds (FR-49)."""
        return 60 * self.minutes + self.seconds

    def to_json(self) -> dict[str, Any]:
        """JSON form; cards as labels (``X`` exhaustion, ``6*`` a card with symbols)."""
        return {
            "rider_id": self.rider_id,
            "team_id": self.team_id,
            "rider_type": self.rider_type,
            "is_dummy": self.is_dummy,
            "position": self.position,
            "crossing_round": self.crossing_round,
            "squares_past": self.squares_past,
            "lane": self.lane,
            "minutes": self.minutes,
            "seconds": self.seconds,
            "time_s": self.time_s,
            "sprint_points": self.sprint_points,
            "mountain_points": self.mountain_points,
            "tokens": [list(t) for t in self.tokens],
            "exhaustion_end": self.exhaustion_end,
            "exhaustion_taken": self.exhaustion_taken,
            "exhaustion_played": self.exhaustion_played,
            "deck_end": [c.label for c in self.deck_end],
        }


@dataclass(frozen=True)
class StageOutcome:
    """The result of :func:`simulate_stage`: riders in finishing order, header and round log."""

    riders: tuple[RiderResult, ...]
    header: dict[str, Any]
    log: dict[str, Any]

    @property
    def winner(self) -> RiderResult:
        """Position 1 (FR-72)."""
        return self.riders[0]

    def submission(self) -> list[dict[str, int]]:
        """The stage results a Grand Tour scorekeeper would post (API.md, GT-1.5).

        Dummy riders are dropped and positions renumbered 1..n in finishing order; the tokens they
        took are lost. ``exhaustion`` is the count the rider ends the stage with (FR-70).
        """
        rows: list[dict[str, int]] = []
        for rider in self.riders:
            if rider.is_dummy:
                continue
            rows.append(
                {
                    "rider": rider.rider_id,
                    "position": len(rows) + 1,
                    "minutes": rider.minutes,
                    "seconds": rider.seconds,
                    "sprint_points": rider.sprint_points,
                    "mountain_points": rider.mountain_points,
                    "exhaustion": rider.exhaustion_end,
                }
            )
        return rows

    def to_json(self) -> dict[str, Any]:
        """Header, riders and log as one JSON-ready mapping."""
        return {
            "header": self.header,
            "riders": [r.to_json() for r in self.riders],
            "log": self.log,
        }

    def log_json(self) -> str:
        """The replay log as compact JSON text, byte-for-byte stable for a seed (FR-73)."""
        return json.dumps(self.log, separators=(",", ":"), ensure_ascii=False)


__all__ = ["RiderResult", "StageOutcome"]
