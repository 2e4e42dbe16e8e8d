"""Points championships over finishing orders, for any racing game.

:mod:`scoring.points.championship` is the championship scoring of formula_d.md (FD-71, FD-73 to
FD-77) over plain finishing orders; Formula D championships and leagues both score through it.
:mod:`scoring.points.presets` holds the leagues' points tables and
:mod:`scoring.points.validation` checks a submitted finishing order. Pure Python.
"""

from __future__ import annotations

from scoring.points.championship import (
    FINISHED,
    DriverStanding,
    Entrant,
    Finish,
    Race,
    Scale,
    Standings,
    Tally,
    TeamStanding,
    compute_standings,
    race_total,
    snapshots,
    tally_races,
)
from scoring.points.presets import DEFAULT_LEAGUE_POINTS, LEAGUE_POINTS_PRESETS, points_table
from scoring.points.validation import (
    DNF,
    parse_finishes,
    validate_finishing_order,
)

__all__ = [
    "DEFAULT_LEAGUE_POINTS",
    "DNF",
    "FINISHED",
    "LEAGUE_POINTS_PRESETS",
    "DriverStanding",
    "Entrant",
    "Finish",
    "Race",
    "Scale",
    "Standings",
    "Tally",
    "TeamStanding",
    "compute_standings",
    "parse_finishes",
    "points_table",
    "race_total",
    "snapshots",
    "tally_races",
    "validate_finishing_order",
]
