"""Formula D championship rules, result validation (FD-78, FD-79) and standings (FD-70 to FD-77).

Pure Python: the service turns rows into the dataclasses of this package and stores what the
functions return.
"""

from __future__ import annotations

from scoring.formula_d.rules import (
    POINTS_PRESETS,
    RULE_SETS,
    BlockingTable,
    DownshiftTable,
    FormulaDRules,
    build_formula_d_rules,
    check_laps,
    resolve_points,
)
from scoring.formula_d.standings import (
    ChampionshipDriver,
    DriverStanding,
    RaceEntry,
    RaceResult,
    Standings,
    TeamStanding,
    compute_standings,
    standings_snapshots,
)
from scoring.formula_d.validation import parse_race_results, validate_race_results

__all__ = [
    "POINTS_PRESETS",
    "RULE_SETS",
    "BlockingTable",
    "ChampionshipDriver",
    "DownshiftTable",
    "DriverStanding",
    "FormulaDRules",
    "RaceEntry",
    "RaceResult",
    "Standings",
    "TeamStanding",
    "build_formula_d_rules",
    "check_laps",
    "compute_standings",
    "parse_race_results",
    "resolve_points",
    "standings_snapshots",
    "validate_race_results",
]
