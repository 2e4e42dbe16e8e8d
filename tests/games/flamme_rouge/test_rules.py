"""StageRules: every [param] of flamme_rouge_stage.md with its default, checks and FR-13."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.flamme_rouge.rules import StageRules, WideFinish
from scoring.params import build_rules, rules_to_json

RULES_FILE = Path("/work/shared/rules/flamme_rouge_stage.md")


def test_every_param_of_the_rules_file_is_a_field() -> None:
    if not RULES_FILE.exists():
        pytest.skip("shared rules not mounted")
    names = set(re.findall(r"\[param: (\w+) =", RULES_FILE.read_text())) - {"name"}
    fields = set(rules_to_json(StageRules()))
    assert names == fields


def test_defaults() -> None:
    data = rules_to_json(StageRules())
    assert data["exhaustion_supply"] == "unlimited"
    assert data["wide_finish_flat"] == {"before": 1, "past": 6}
    assert data["wide_finish_ascent"] == {"before": 2, "past": 5}
    assert data["timing_flat"] == [50, 40, 30, 20, 10, 0]
    assert data["timing_ascent"] == [40, 30, 20, 10, 0]
    assert data["major_tokens"] == [4, 3, 2] and data["minor_tokens"] == [3, 1]
    assert data["policy_weights"] == [2.0, 1.0, 1.5, 0.3, 1.0]
    assert (data["ascent_cap"], data["max_rounds"], data["dummy_empty_value"]) == (5, 100, 2)
    assert data["tour_mode"] and data["slipstream_past_line"] and not data["breakaway_variant"]


def test_round_trip_through_json() -> None:
    rules, errors = build_rules(StageRules, rules_to_json(StageRules()))
    assert errors == {} and rules == StageRules()


@pytest.mark.parametrize(
    ("data", "key", "code"),
    [
        ({"exhaustion_supply": "lots"}, "exhaustion_supply", "invalid_choice"),
        ({"exhaustion_supply": -1}, "exhaustion_supply", "min_value"),
        ({"wide_finish_flat": [1, 6]}, "wide_finish_flat", "wide_finish_shape"),
        ({"wide_finish_flat": {"before": 1}}, "wide_finish_flat", "wide_finish_keys"),
        (
            {"wide_finish_flat": {"before": 1, "past": 6, "x": 1}},
            "wide_finish_flat",
            "wide_finish_keys",
        ),
        ({"wide_finish_ascent": {"before": 0, "past": 5}}, "wide_finish_ascent", "min_value"),
        ({"timing_flat": [50, 50, 30, 20, 10, 0]}, "timing_flat", "timing_decreasing"),
        ({"policy_weights": [1, 2]}, "policy_weights", "weights_length"),
        ({"policy_first_placed": "peloton"}, "policy_first_placed", "invalid_choice"),
        ({"specialist_effects": "all"}, "specialist_effects", "invalid_choice"),
        ({"nonsense": 1}, "nonsense", "unknown_param"),
        ({"tour_mode": 1}, "tour_mode", "not_bool"),
    ],
)
def test_bad_values_are_reported_by_code(data: dict[str, object], key: str, code: str) -> None:
    _, errors = build_rules(StageRules, data)
    assert [e.code for e in errors[key]] == [code]


def test_exhaustion_supply_accepts_an_integer() -> None:
    rules, errors = build_rules(StageRules, {"exhaustion_supply": 12})
    assert errors == {} and rules.exhaustion_limit == 12
    assert StageRules().exhaustion_limit is None


def test_fr13_wide_finish_must_match_timing() -> None:
    _, errors = build_rules(StageRules, {"wide_finish_flat": {"before": 1, "past": 5}})
    assert [e.code for e in errors["wide_finish_flat"]] == ["wide_finish_timing_mismatch"]
    _, errors = build_rules(StageRules, {"timing_ascent": [30, 20, 10, 0]})
    assert [e.code for e in errors["wide_finish_ascent"]] == ["wide_finish_timing_mismatch"]
    rules, errors = build_rules(
        StageRules,
        {"timing_ascent": [30, 20, 10, 0], "wide_finish_ascent": {"before": 2, "past": 4}},
    )
    assert errors == {} and rules.wide_finish_ascent == WideFinish(2, 4)
