"""Forecasts of every competition's titles, pure (issue #17, API.md "Forecasts and who can still
win").

- Who can still win, exactly: :func:`points_statuses` (Formula D championships, leagues),
  :func:`rally_statuses` (rally championships), :func:`grand_tour_statuses` (tours); the
  method, the same for every game, is in :mod:`scoring.forecast.exact`.
- Title odds: :func:`fit_plackett_luce` fits strengths, :func:`simulate_chunk` runs a seeded
  chunk of simulations through a game's scorer (the competition's own scoring code) and
  :func:`merge` combines chunks into a :class:`Forecast`, identically to one run.

No Django and no game engine: the service loads rows into the scoring code's dataclasses.
"""

from __future__ import annotations

from scoring.forecast.exact import (
    AssignmentTitle,
    ForecastError,
    PointsTitle,
    Ranked,
    SearchTitle,
    title_statuses,
)
from scoring.forecast.grand_tour import GrandTour, StageTokens, grand_tour_statuses
from scoring.forecast.grand_tour_odds import (
    StageTemplate,
    grand_tour_scorer,
    grand_tour_spec,
    stage_orders,
    templates_from_results,
)
from scoring.forecast.model import (
    EntrantStatus,
    Forecast,
    Reason,
    Scenario,
    ScenarioEvent,
    Status,
    TitleOdds,
    TitleStatus,
)
from scoring.forecast.montecarlo import (
    DEFAULT_SIMULATIONS,
    ChunkResult,
    Scorer,
    SimulationSpec,
    merge,
    simulate,
    simulate_chunk,
)
from scoring.forecast.points import (
    PointsChampionship,
    PointsSimulation,
    dnf_counts,
    finishing_orders,
    from_formula_d,
    points_scorer,
    points_spec,
    points_statuses,
)
from scoring.forecast.rally import (
    RallyChampionship,
    rally_orders,
    rally_scorer,
    rally_spec,
    rally_statuses,
    retirements,
)
from scoring.forecast.strengths import Strengths, fit_plackett_luce

__all__ = [
    "DEFAULT_SIMULATIONS",
    "AssignmentTitle",
    "ChunkResult",
    "EntrantStatus",
    "Forecast",
    "ForecastError",
    "GrandTour",
    "PointsChampionship",
    "PointsSimulation",
    "PointsTitle",
    "RallyChampionship",
    "Ranked",
    "Reason",
    "Scenario",
    "ScenarioEvent",
    "Scorer",
    "SearchTitle",
    "SimulationSpec",
    "StageTemplate",
    "StageTokens",
    "Status",
    "Strengths",
    "TitleOdds",
    "TitleStatus",
    "dnf_counts",
    "finishing_orders",
    "fit_plackett_luce",
    "from_formula_d",
    "grand_tour_scorer",
    "grand_tour_spec",
    "grand_tour_statuses",
    "merge",
    "points_scorer",
    "points_spec",
    "points_statuses",
    "rally_orders",
    "rally_scorer",
    "rally_spec",
    "rally_statuses",
    "retirements",
    "simulate",
    "simulate_chunk",
    "stage_orders",
    "templates_from_results",
    "title_statuses",
]
