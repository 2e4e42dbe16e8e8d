"""The Flamme Rouge Grand Tour scoring engine (``rules/grand_tour.md`` GT-1 to GT-11), pure.

The service validates a stage's results with :func:`validate_stage_results`, then recomputes the
standings after every stage with :func:`compute_standings` and stores them as JSON snapshots
(:func:`standings_to_json`).
"""

from __future__ import annotations

from scoring.grand_tour.model import (
    ExhaustionRow,
    Rider,
    RiderPointsRow,
    RiderResult,
    RiderTimeRow,
    StageResults,
    StageSpec,
    StageSummary,
    Standings,
    Team,
    TeamTimeRow,
    TourPointsRow,
    TourSetup,
)
from scoring.grand_tour.order import (
    drawn_start_order,
    recommended_rest_days,
    specialist_order,
    start_order,
)
from scoring.grand_tour.rules import ClassificationTP, GrandTourRules
from scoring.grand_tour.serialization import standings_from_json, standings_to_json
from scoring.grand_tour.standings import compute_standings, initial_standings
from scoring.grand_tour.validation import validate_stage_results
from scoring.issues import Issue

__all__ = [
    "ClassificationTP",
    "ExhaustionRow",
    "GrandTourRules",
    "Issue",
    "Rider",
    "RiderPointsRow",
    "RiderResult",
    "RiderTimeRow",
    "StageResults",
    "StageSpec",
    "StageSummary",
    "Standings",
    "Team",
    "TeamTimeRow",
    "TourPointsRow",
    "TourSetup",
    "compute_standings",
    "drawn_start_order",
    "initial_standings",
    "recommended_rest_days",
    "specialist_order",
    "standings_from_json",
    "standings_to_json",
    "start_order",
    "validate_stage_results",
]
