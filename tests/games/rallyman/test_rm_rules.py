"""Rally rule parameters: defaults of rallyman.md, JSON forms, errors by key."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.params import rules_to_json
from scoring.rally.rules import RallyRules, parse_rules


def codes(data: dict[str, Any]) -> dict[str, list[str]]:
    _, errors = parse_rules(data)
    return {k: [e.code for e in v] for k, v in errors.items()}


def test_defaults_match_rallyman_md() -> None:
    rules = RallyRules()
    assert rules.hazard_limit == 3 and rules.loc_card_s == 60 and rules.token_seconds == 1
    assert rules.time_card_s == (50, 40, 30, 20, 15, 10)
    assert rules.hazard_faces.gear == (1, 1, 2, 2, 2, 2) and rules.hazard_faces.leader_coast == 2
    assert rules.crash_draws[5] == (0, 2, 3, 4)
    assert rules.loc_outcome_weights.for_gear(4).to_json() == {"sisu": 25, "spin": 25, "crash": 50}
    assert rules.super_rally and rules.super_rally_penalty_s == 300
    assert not rules.boost_enabled and rules.max_turns_per_stage == 60


def test_json_round_trip() -> None:
    data = RallyRules().to_json()
    assert data["time_card_s"] == {"1": 50, "2": 40, "3": 30, "4": 20, "5": 15, "6": 10}
    assert data["crash_draws"]["4"] == [0, 0, 1, 2]
    rebuilt, errors = parse_rules(data)
    assert not errors and rebuilt == RallyRules()
    assert set(rules_to_json(RallyRules())) == set(data)


def test_per_gear_loc_mix() -> None:
    rules, errors = parse_rules({"loc_outcome_weights": {"6": {"sisu": 0, "spin": 1, "crash": 3}}})
    assert not errors
    assert rules.loc_outcome_weights.for_gear(6).values == (0, 1, 3)
    assert rules.loc_outcome_weights.for_gear(2).values == (25, 25, 50)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"points": "wrc-2010"}, {"points": ["unknown_param"]}),  # championship setting (RM-47)
        ({"drop_worst": 1}, {"drop_worst": ["unknown_param"]}),
        ({"hazard_limit": 0}, {"hazard_limit": ["min_value"]}),
        ({"hazard_limit": True}, {"hazard_limit": ["not_int"]}),
        ({"loc_card_s": 50}, {"loc_card_s": ["loc_card_too_low"]}),
        ({"time_card_s": {"1": 50}}, {"time_card_s": ["missing_keys"]}),
        ({"allowance": {"gear": 0, "coast": 2, "brake": 1}}, {"allowance": ["min_value"]}),
        (
            {"shortcut_draw": {"ok": 0, "coast": 0, "mud": 0}},
            {"shortcut_draw": ["weights_all_zero"]},
        ),
        (
            {"crash_draws": {str(g): [0, 0, 0] for g in range(1, 7)}},
            {"crash_draws": ["crash_draws_columns"]},
        ),
        ({"super_rally_base": "median"}, {"super_rally_base": ["invalid_choice"]}),
        ({"hazard_faces": {"gear": {}, "coast": 1}}, {"hazard_faces": ["missing_keys"]}),
    ],
)
def test_bad_values_are_reported_by_key(
    data: dict[str, Any], expected: dict[str, list[str]]
) -> None:
    assert codes(data) == expected
