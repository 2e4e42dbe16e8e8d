"""Flamme Rouge stage engine (rules/flamme_rouge_stage.md): pure Python, deterministic per seed."""

from games.flamme_rouge.engine import SIMULATOR_VERSION, simulate_stage
from games.flamme_rouge.errors import FlammeRougeError, SetupError, SimulationError
from games.flamme_rouge.outcome import RiderResult, StageOutcome
from games.flamme_rouge.rules import StageRules, WideFinish
from games.flamme_rouge.setup import RiderEntry, Stack, StageSetup, TeamEntry
from games.flamme_rouge.track import (
    OFFICIAL_COURSES,
    Course,
    CourseError,
    official_course,
    parse_course,
)

__all__ = [
    "OFFICIAL_COURSES",
    "SIMULATOR_VERSION",
    "Course",
    "CourseError",
    "FlammeRougeError",
    "RiderEntry",
    "RiderResult",
    "SetupError",
    "SimulationError",
    "Stack",
    "StageOutcome",
    "StageRules",
    "StageSetup",
    "TeamEntry",
    "WideFinish",
    "official_course",
    "parse_course",
    "simulate_stage",
]
