"""Validation of submitted Formula D results (FD-78, FD-79) and of rule parameters."""

from __future__ import annotations

from typing import Any

from scoring.formula_d import (
    FormulaDRules,
    build_formula_d_rules,
    check_laps,
    parse_race_results,
    validate_race_results,
)
from scoring.params import ParamError

IDS = [1, 2, 3, 4]


def good() -> list[dict[str, Any]]:
    return [
        {"driver": 3, "position": 1, "status": "finished", "laps": 2, "wp_left": 4, "pole": True},
        {"driver": 1, "position": 2, "status": "finished", "laps": 2},
        {"driver": 4, "position": 3, "status": "eliminated", "laps": 1, "elimination_order": 2},
        {"driver": 2, "position": 4, "status": "eliminated", "laps": 1, "elimination_order": 1},
    ]


def codes(rows: Any, **kw: Any) -> set[tuple[int | None, str | None, str]]:
    args: dict[str, Any] = {
        "race_drivers": IDS,
        "championship_drivers": [*IDS, 9],
        "laps": 2,
        "rules": FormulaDRules(),
    }
    args.update(kw)
    return {(i.index, i.field, i.code) for i in validate_race_results(rows, **args)}


def test_a_valid_submission_has_no_issue() -> None:
    assert codes(good()) == set()
    entries = parse_race_results(good())
    assert [e.driver for e in entries] == [3, 1, 4, 2] and entries[0].pole


def test_positions_shared_or_not_one_to_n() -> None:
    rows = good()
    rows[1]["position"] = 1
    assert (1, "position", "duplicate_position") in codes(rows)
    rows = good()
    rows[3]["position"] = 5
    assert (3, "position", "position_range") in codes(rows)


def test_drivers_unknown_not_entered_twice_or_missing() -> None:
    rows = good()
    rows[0]["driver"] = 7
    found = codes(rows)
    assert (0, "driver", "unknown_driver") in found and (None, "driver", "missing_driver") in found
    rows = good()
    rows[0]["driver"] = 9
    assert (0, "driver", "not_entered") in codes(rows)
    rows = good()
    rows[1]["driver"] = 3
    assert (1, "driver", "duplicate_driver") in codes(rows)


def test_eliminated_ahead_of_a_finisher() -> None:
    rows = good()
    rows[1]["position"], rows[2]["position"] = 3, 2
    assert (1, "position", "eliminated_ahead") in codes(rows)


def test_eliminated_order_by_laps_then_elimination_order() -> None:
    rows = good()
    rows[2]["laps"], rows[3]["laps"] = 0, 1
    assert (3, "laps", "elimination_rank") in codes(rows)
    rows = good()
    rows[2]["elimination_order"], rows[3]["elimination_order"] = 1, 2
    assert (3, "elimination_order", "order_contradicts_position") in codes(rows)


def test_laps_rules() -> None:
    rows = good()
    rows[0]["laps"] = 3
    assert (0, "laps", "laps_exceed") in codes(rows)
    rows = good()
    rows[1]["laps"] = 1
    assert (1, "laps", "finisher_laps") in codes(rows)
    rows = good()
    rows[2]["laps"] = 2
    assert (2, "laps", "eliminated_all_laps") in codes(rows)


def test_numbers_negative_or_not_integers() -> None:
    rows = good()
    rows[0]["position"] = 1.0
    rows[1]["laps"] = -1
    rows[2]["driver"] = True
    found = codes(rows)
    assert {(0, "position", "not_int"), (1, "laps", "negative"), (2, "driver", "not_int")} <= found


def test_elimination_orders_repeat_or_out_of_range() -> None:
    rows = good()
    rows[3]["elimination_order"] = 2
    assert (3, "elimination_order", "order_repeated") in codes(rows)
    rows = good()
    rows[3]["elimination_order"] = 3
    assert (3, "elimination_order", "order_range") in codes(rows)
    rows = good()
    rows[0]["elimination_order"] = 1
    assert (0, "elimination_order", "order_for_finisher") in codes(rows)


def test_wp_left_range_and_single_pole() -> None:
    rows = good()
    rows[0]["wp_left"] = 19
    rows[2]["wp_left"] = 1
    rows[1]["pole"] = True
    found = codes(rows)
    assert {(0, "wp_left", "wp_range"), (2, "wp_left", "wp_range")} <= found
    assert (None, "pole", "multiple_pole") in found


def test_advanced_wp_left_is_an_object_by_zone() -> None:
    rows = good()
    rows[0]["wp_left"] = {
        "tyres": 2,
        "brakes": 1,
        "gearbox": 1,
        "body": 1,
        "engine": 1,
        "handling": 1,
    }
    assert codes(rows, rule_set="advanced") == set()
    rows[0]["wp_left"] = 4
    assert (0, "wp_left", "wp_zones") in codes(rows, rule_set="advanced")


def test_missing_fields_and_unknown_fields() -> None:
    rows = good()
    del rows[0]["status"]
    rows[1]["speed"] = 3
    found = codes(rows)
    assert (0, "status", "required") in found and (1, "speed", "unknown_field") in found
    assert codes("nope") == {(None, None, "not_list")}


def test_parse_fills_missing_elimination_orders_from_positions() -> None:
    rows = good()
    for r in rows[2:]:
        del r["elimination_order"]
    entries = parse_race_results(rows)
    assert [e.elimination_order for e in entries] == [None, None, 2, 1]


def test_rules_defaults_errors_and_rule_sets() -> None:
    rules, errors = build_formula_d_rules({})
    assert errors == {} and rules.wp_start == 18 and rules.start_great_min == 17
    adv, errors = build_formula_d_rules({}, "advanced")
    assert errors == {} and adv.start_great_min == 20 and adv.collision_fail_max == 1
    _, errors = build_formula_d_rules({"points": [1], "laps": 2, "warp": 1, "wp_start": -1})
    assert errors["points"][0].code == "top_level_setting"
    assert errors["laps"][0].code == "top_level_setting"
    assert errors["warp"][0].code == "unknown_param"
    assert errors["wp_start"][0].code == "min_value"
    _, errors = build_formula_d_rules({"street_rules": True}, "advanced")
    assert errors["street_rules"][0].code == "street_rules_advanced"
    _, errors = build_formula_d_rules({"start_great_min": 1})
    assert errors["start_great_min"][0].code == "start_bands_overlap"
    _table, errors = build_formula_d_rules({"blocking_table": {"brakes": [1], "tyres": [0, 1]}})
    assert errors["blocking_table"][0].code == "blocking_table_lengths"
    ok, errors = build_formula_d_rules(
        {"downshift_table": {"1": {"gearbox": 2}}, "exit_lane_lock": "overshoot_only"}
    )
    assert errors == {} and ok.downshift_table.cost(1) == {"gearbox": 2}
    assert ok.downshift_table.cost(2) is None


def test_laps_per_rule_set() -> None:
    assert check_laps(2) == 2 and check_laps(3, "advanced") == 3
    for value, rule_set in ((3, "basic"), (0, "basic"), (4, "advanced"), ("2", "basic")):
        try:
            check_laps(value, rule_set)
        except ParamError:
            continue
        raise AssertionError(f"{value} accepted under {rule_set}")
