"""Rallyman: DIRT: stage layouts, the turn engine, the automatic driver and the RM-55 turn log.

Pure Python (no Django). Typical use by the service::

    track = build_track(load_layout("gravel-flats"))   # or a layout document
    order = start_order(number, classification, entry_list, rules, rng=...)   # RM-6
    run = simulate_stage(track, stage_entries(order, rules, previous_replay), rules,
                         derive_rng(seed, "rally_stage", number))
    run.sheet()          # RM-52 rows for the stage
    log_time("1 2 3 4 t2", rules).net_time
"""

from __future__ import annotations

from games.rallyman.dice import Chance, RandomChance, ScriptedChance
from games.rallyman.engine import (
    CarState,
    Plan,
    StageState,
    Step,
    TurnContext,
    check_plan,
    make_context,
)
from games.rallyman.errors import PlanError, RallymanError
from games.rallyman.layout import (
    SAMPLE_STAGES,
    Layout,
    LayoutInvalid,
    LayoutIssue,
    layout_issues,
    load_layout,
    parse_layout,
    sample_document,
)
from games.rallyman.policy import AutoDriver, Profile
from games.rallyman.rally import stage_entries, start_order
from games.rallyman.simulate import CarEntry, CarRun, Driver, StageRun, simulate_stage, turn_order
from games.rallyman.track import Track, build_track
from games.rallyman.turn import (
    Relay,
    RollState,
    Throw,
    TurnRecord,
    play_turn,
    return_after_crash,
)
from scoring.rally.notation import (
    LogError,
    LogTime,
    LogTurn,
    TurnLog,
    log_issues,
    log_time,
    parse_log,
)
from scoring.rally.rules import RallyRules, parse_rules

__all__ = [
    "SAMPLE_STAGES",
    "AutoDriver",
    "CarEntry",
    "CarRun",
    "CarState",
    "Chance",
    "Driver",
    "Layout",
    "LayoutInvalid",
    "LayoutIssue",
    "LogError",
    "LogTime",
    "LogTurn",
    "Plan",
    "PlanError",
    "Profile",
    "RallyRules",
    "RallymanError",
    "RandomChance",
    "Relay",
    "RollState",
    "ScriptedChance",
    "StageRun",
    "StageState",
    "Step",
    "Throw",
    "Track",
    "TurnContext",
    "TurnLog",
    "TurnRecord",
    "build_track",
    "check_plan",
    "layout_issues",
    "load_layout",
    "log_issues",
    "log_time",
    "make_context",
    "parse_layout",
    "parse_log",
    "parse_rules",
    "play_turn",
    "return_after_crash",
    "sample_document",
    "simulate_stage",
    "stage_entries",
    "start_order",
    "turn_order",
]
