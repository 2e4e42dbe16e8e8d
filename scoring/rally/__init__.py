"""Rallyman: DIRT scoring: stage sheet validation, rally standings, rally championships.

- :mod:`scoring.rally.rules`: the rally's rule parameters (``RallyRules``, ``parse_rules``).
- :mod:`scoring.rally.notation`: the RM-55 turn log (``log_issues``, ``log_time``, ``parse_log``).
- :mod:`scoring.rally.sheet`: RM-52 to RM-54 (``check_stage_sheet``, ``parse_time``).
- :mod:`scoring.rally.standings`: RM-42 to RM-46 (``rally_standings``).
- :mod:`scoring.rally.championship`: RM-47 to RM-51 (``championship_standings``).
"""

from __future__ import annotations

from scoring.rally.championship import (
    PRESETS,
    ChampionshipRow,
    ChampionshipSettings,
    ChampionshipStandings,
    championship_standings,
    normalize_name,
    parse_championship_settings,
    power_stage_scores,
)
from scoring.rally.sheet import (
    CheckedSheet,
    Penalty,
    StageEntry,
    TimeFormatError,
    check_stage_sheet,
    format_time,
    parse_time,
)
from scoring.rally.standings import (
    OverallRow,
    RallyDriver,
    RallyInputError,
    RallyStandings,
    StageClassification,
    StageSheet,
    StageTime,
    classify_stage,
    rally_standings,
    shared_ranks,
)

__all__ = [
    "PRESETS",
    "ChampionshipRow",
    "ChampionshipSettings",
    "ChampionshipStandings",
    "CheckedSheet",
    "OverallRow",
    "Penalty",
    "RallyDriver",
    "RallyInputError",
    "RallyStandings",
    "StageClassification",
    "StageEntry",
    "StageSheet",
    "StageTime",
    "TimeFormatError",
    "championship_standings",
    "check_stage_sheet",
    "classify_stage",
    "format_time",
    "normalize_name",
    "parse_championship_settings",
    "parse_time",
    "power_stage_scores",
    "rally_standings",
    "shared_ranks",
]
