"""The replay checker: seeded stages replay with no violation, and tampered replays are caught."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.rallyman.check import check_stage, run
from games.rallyman.layout import load_layout
from games.rallyman.simulate import CarEntry, simulate_stage
from games.rallyman.track import build_track
from scoring.rally.rules import RallyRules

# Sized for the suite's five minutes: ~3 CPU seconds; `python -m games.rallyman.check
# --stages N` runs the soak batches (thousands of stages).
SEEDED_STAGES = 600

TRACK = build_track(load_layout("ford-cuts"))
ENTRIES = [CarEntry(c) for c in range(1, 5)]
RULES = RallyRules()


def test_seeded_stages_replay_without_a_violation() -> None:
    stages, report = run(SEEDED_STAGES)
    assert stages == SEEDED_STAGES
    assert report.violations == []
    assert report.moves > 10 * stages and report.checks > 30 * report.moves


@pytest.fixture(scope="module")
def replay() -> dict[str, Any]:
    stage = simulate_stage(TRACK, ENTRIES, RULES, random.Random(5))
    data: dict[str, Any] = json.loads(json.dumps(stage.replay_json()))
    assert check_stage(TRACK, ENTRIES, RULES, data).violations == []
    return data


def first(data: dict[str, Any], test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return next(t for t in data["turns"] if test(t))


def loc_turn(t: dict[str, Any]) -> bool:
    return t["loc"] is not None


def gear_turn(t: dict[str, Any]) -> bool:
    return t["round"] > 4 and bool(t["plan"]) and t["plan"][0]["gear"] > 0


TAMPERS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("card", lambda d: first(d, gear_turn).__setitem__("card", 5), "RM-33"),
    ("gear", lambda d: first(d, gear_turn)["plan"][0].__setitem__("gear", 6), "gear 6 after"),
    (
        "hazard",
        lambda d: first(d, lambda t: bool(t["dice"]))["dice"][0].__setitem__("hazard", True),
        "RM-26",
    ),
    ("order", lambda d: d["turns"].__setitem__(slice(8, 10), d["turns"][9:7:-1]), "RM-7"),
    ("loc", lambda d: first(d, loc_turn).__setitem__("loc", None), "RM-27"),
    ("to", lambda d: first(d, gear_turn).__setitem__("to", "A.0.start-left"), "ends on"),
    ("tokens", lambda d: first(d, gear_turn).__setitem__("tokens", 9), "tokens held"),
    ("result", lambda d: d["results"][0].__setitem__("net_time", 1), "net_time"),
]


@pytest.mark.parametrize(("name", "change", "rule"), TAMPERS, ids=[t[0] for t in TAMPERS])
def test_a_tampered_turn_is_a_violation(
    replay: dict[str, Any], name: str, change: Callable[[dict[str, Any]], None], rule: str
) -> None:
    tampered = copy.deepcopy(replay)
    change(tampered)
    violations = check_stage(TRACK, ENTRIES, RULES, tampered).violations
    assert violations and rule in violations[0], violations[:3]
