"""Seeded replays stay byte-identical unless the simulator's version changes.

A stored seed must replay the same race. These fingerprints (SHA-256 of the replay JSON, keys
sorted) are of version 2 (issue #14). When a change alters them on purpose (a rule fix), bump
``SIMULATOR_VERSION`` in games/formula_d/results.py, say why there, and update the table; a change
that should not alter races (a refactor, a speed-up) must leave them as they are.
``.venv/bin/python bench/snapshot_formula_d.py --save/--check`` compares 64 races the same way.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from games.formula_d import Entrant, simulate_race
from games.formula_d.results import SIMULATOR_VERSION
from scoring.formula_d.rules import build_formula_d_rules
from scoring.rng import derive_rng

RULES = {
    "basic": ("basic", {}),
    "street": ("basic", {"street_rules": True}),
    "advanced": ("advanced", {}),
    "weather": ("advanced", {"tyres": True, "weather": True}),
}
FINGERPRINTS = {
    ("basic", 1): "b51a97f42781edcc",
    ("basic", 2): "707067e1a2c83d04",
    ("street", 1): "5a410f9a6e2dcc5a",
    ("street", 2): "265886ab7dc5eb5b",
    ("advanced", 1): "db0effbdce0eff46",
    ("advanced", 2): "6a9ee13ee4f3e66a",
    ("weather", 1): "fc18c8fcc153e916",
    ("weather", 2): "363dec3773cf0999",
}


@pytest.mark.parametrize(("config", "number"), sorted(FINGERPRINTS))
def test_seeded_replay_is_unchanged(config: str, number: int) -> None:
    rule_set, data = RULES[config]
    outcome = simulate_race(
        "monaco",
        [Entrant(i + 1, f"Driver {i + 1}") for i in range(10)],
        laps=2,
        rules=build_formula_d_rules(data, rule_set)[0],
        rule_set=rule_set,
        rng=derive_rng(20240, "race", number),
    )
    replay = outcome.replay_json()
    assert replay["version"] == SIMULATOR_VERSION == "2"
    digest = hashlib.sha256(json.dumps(replay, sort_keys=True).encode()).hexdigest()
    assert digest[:16] == FINGERPRINTS[config, number]
