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

from scoring.forecast.exact import ForecastError, PointsTitle, Ranked, title_statuses
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
from scoring.forecast.points import (
    PointsChampionship,
    PointsSimulation,
    points_scorer,
    points_statuses,
)

__all__ = [
    "EntrantStatus",
    "Forecast",
    "ForecastError",
    "PointsChampionship",
    "PointsSimulation",
    "PointsTitle",
    "Ranked",
    "Reason",
    "Scenario",
    "ScenarioEvent",
    "Status",
    "TitleOdds",
    "TitleStatus",
    "points_scorer",
    "points_statuses",
    "title_statuses",
]
