"""The replay checker: seeded stages replay with no violation, and tampered logs are caught."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from games.flamme_rouge import Stack, StageRules, simulate_stage
from games.flamme_rouge.check import check_stage, run
from tests.games.flamme_rouge.helpers import COL, setup

# Sized for the suite's five minutes: ~3 CPU seconds; `python -m games.flamme_rouge.check
# --stages N` runs the soak batches (thousands of stages).
SEEDED_STAGES = 500


def test_seeded_stages_replay_without_a_violation() -> None:
    stages, report = run(SEEDED_STAGES)
    assert stages == SEEDED_STAGES
    assert report.violations == []
    assert report.moves > 20 * stages and report.checks > 15 * report.moves


SETUP = setup(
    3,
    3,
    stacks=(Stack("a", "major", "sprint", 20), Stack("m", "minor", "mountain", 40)),
    dummies="both",
    rules=StageRules(exhaustion_supply=5),
)


@pytest.fixture(scope="module")
def replay() -> dict[str, Any]:
    outcome = simulate_stage(SETUP, 3)
    assert check_stage(SETUP, outcome.to_json()).violations == []
    return outcome.to_json()


def row(replay: dict[str, Any], round_index: int, rider: int) -> list[Any]:
    entry = replay["log"]["rounds"][round_index]
    return next(r for r in entry["riders"] if r[0] == rider)


def bump(column: str, by: int) -> Callable[[list[Any]], None]:
    def change(r: list[Any]) -> None:
        r[COL[column]] += by

    return change


@pytest.mark.parametrize(
    ("rider", "change", "rule"),
    [
        (31, bump("to", 1), "FR-27"),
        (21, bump("move", 1), "FR-29"),
        (11, bump("slip", 1), "FR-38"),
        (12, bump("exhausted", 1), "FR-39"),
        (22, lambda r: r.__setitem__(COL["drawn"], [9, 9, 9, 9]), "not in his deck"),
        (32, lambda r: r.__setitem__(COL["played"], 11), "did not draw"),
        (-3, lambda r: r.__setitem__(COL["tokens"], [["a", 4]]), "FR-54"),
        (-4, bump("minute", 1), "FR-48"),
    ],
)
def test_a_tampered_move_is_a_violation(
    replay: dict[str, Any], rider: int, change: Callable[[list[Any]], None], rule: str
) -> None:
    tampered = copy.deepcopy(replay)
    last = len(tampered["log"]["rounds"]) - 1
    round_index = 9 if rule != "FR-48" else last
    if rule == "FR-48":
        rider = tampered["log"]["rounds"][last]["riders"][0][0]
    change(row(tampered, round_index, rider))
    violations = check_stage(SETUP, tampered).violations
    assert violations and rule in violations[0], violations[:3]


def test_tampered_results_are_violations(replay: dict[str, Any]) -> None:
    tampered = copy.deepcopy(replay)
    tampered["riders"][0]["seconds"] += 10
    tampered["riders"][1]["deck_end"].append("X")
    tampered["log"]["grid"].reverse()
    violations = check_stage(SETUP, tampered).violations
    assert any("seconds" in v for v in violations)
    assert any("deck_end" in v for v in violations)
    assert any("grid" in v for v in violations)
    shortened = copy.deepcopy(replay)
    shortened["log"]["rounds"].pop()
    assert any("FR-41" in v for v in check_stage(SETUP, shortened).violations)
