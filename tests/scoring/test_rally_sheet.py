"""RM-52 to RM-54: stage sheet validation as a pure function."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rally.rules import RallyRules
from scoring.rally.sheet import (
    Penalty,
    TimeFormatError,
    check_stage_sheet,
    format_time,
    parse_time,
)

RULES = RallyRules()


def check(rows: Any, entry_list: tuple[int, ...] = (7, 8, 9), out: tuple[int, ...] = ()) -> Any:
    return check_stage_sheet(rows, entry_list=list(entry_list), out_of_rally=out, rules=RULES)


def issues(rows: Any, **kwargs: Any) -> list[tuple[int | None, str | None, str]]:
    return [(i.index, i.field, i.code) for i in check(rows, **kwargs).issues]


def test_api_example_is_accepted() -> None:
    sheet = check(
        [
            {"driver": 7, "time": 312},
            {
                "driver": 8,
                "log": "1 2 3 4 4 5 0 3 4 t2",
                "penalties": [{"seconds": 10, "reason": "jump start"}],
            },
            {"driver": 9, "status": "retired"},
        ]
    )
    assert sheet.ok and sheet.flags == ()
    a, b, c = sheet.entries
    assert (a.net_time, a.stage_time) == (312, 312)
    assert (b.cards, b.tokens, b.net_time, b.penalty_time, b.stage_time) == (285, 2, 283, 10, 293)
    assert b.penalties == (Penalty(10, "jump start"),)
    assert c.status == "retired" and c.stage_time is None


@pytest.mark.parametrize(
    ("value", "seconds"), [(261, 261), ("4:21", 261), ("0:05", 5), (" 12:00 ", 720), (300.0, 300)]
)
def test_time_forms(value: Any, seconds: int) -> None:
    assert parse_time(value) == seconds


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (-1, "negative"),
        (2.5, "not_whole_number"),
        ("4:60", "bad_time_format"),
        ("4:5", "bad_time_format"),
        ("261", "bad_time_format"),
        ("1:02:03", "bad_time_format"),
        (True, "invalid_time"),
        (None, "invalid_time"),
    ],
)
def test_bad_times(value: Any, code: str) -> None:
    with pytest.raises(TimeFormatError) as err:
        parse_time(value)
    assert err.value.code == code


def test_rm53_drivers_unknown_out_missing_twice() -> None:
    rows = [
        {"driver": 7, "time": 100},
        {"driver": 7, "time": 100},
        {"driver": 99, "time": 1},
        {"driver": 9, "time": 5},
        {"driver": "8", "time": 5},
    ]
    assert issues(rows, out=(9,)) == [
        (1, "driver", "duplicate_driver"),
        (2, "driver", "unknown_driver"),
        (3, "driver", "driver_out"),
        (4, "driver", "invalid_driver"),
        (None, "driver", "missing_driver"),
    ]


def test_rm53_time_and_log_rules() -> None:
    rows = [
        {"driver": 7},
        {"driver": 8, "status": "retired", "time": 10, "log": "1 2"},
        {"driver": 9, "time": "4:21", "log": "1 2 3 t1"},
    ]
    assert issues(rows) == [
        (0, "time", "time_required"),
        (1, "time", "retired_with_time"),
        (1, "log", "retired_with_log"),
        (2, "time", "time_log_mismatch"),
    ]
    mismatch = check(rows).issues[-1]
    assert mismatch.params == {"time": 261, "log_time": 119}


def test_rm53_log_errors_values_and_penalties() -> None:
    rows = [
        {"driver": 7, "log": "1 9 t2 3"},
        {"driver": 8, "time": 0},
        {
            "driver": 9,
            "time": 50,
            "penalties": [
                {"seconds": 0, "reason": "x"},
                {"seconds": 5, "reason": " "},
                {"seconds": -3, "reason": "y"},
            ],
            "status": "finished",
            "colour": "red",
        },
    ]
    assert issues(rows) == [
        (0, "log", "log_gear_out_of_range"),
        (0, "log", "log_tokens_not_last"),
        (1, "time", "non_positive_time"),
        (2, "colour", "unknown_field"),
        (2, "penalties[0].seconds", "penalty_zero"),
        (2, "penalties[1].reason", "penalty_no_reason"),
        (2, "penalties[2].seconds", "negative"),
    ]


def test_rm53_net_time_from_tokens_may_not_reach_zero() -> None:
    assert issues([{"driver": 7, "log": "6 t10"}], entry_list=(7,)) == [
        (0, "time", "non_positive_time")
    ]


def test_rm53_status_and_shape() -> None:
    assert issues({"driver": 7}) == [(None, None, "not_a_list")]
    assert issues(["x", {"driver": 8, "status": "dnf"}, {"driver": 9, "time": 1}]) == [
        (0, None, "not_object"),
        (1, "status", "invalid_status"),
        (None, "driver", "missing_driver"),
    ]


def test_rm54_too_many_tokens_is_only_a_flag() -> None:
    sheet = check([{"driver": 7, "log": "1 2 t17"}], entry_list=(7,))
    assert sheet.ok
    (flag,) = sheet.flags
    assert flag.code == "too_many_tokens" and flag.params == {"tokens": 17, "limit": 16}
    assert check([{"driver": 7, "log": "1 2 t16"}], entry_list=(7,)).flags == ()


def test_issue_json_shape() -> None:
    (issue,) = check([{"driver": 7, "time": -4}], entry_list=(7,)).issues
    assert issue.to_json() == {
        "index": 0,
        "field": "time",
        "code": "negative",
        "message": "Time may not be negative.",
        "params": {"value": -4},
    }


@given(st.integers(0, 10**6))
def test_m_ss_round_trip(seconds: int) -> None:
    text = format_time(seconds)
    if seconds < 3600:
        assert parse_time(text) == seconds
    assert format_time(seconds).count(":") == (2 if seconds >= 3600 else 1)


@given(
    st.lists(st.sampled_from(["finished", "retired"]), min_size=1, max_size=8), st.integers(1, 900)
)
def test_a_complete_sheet_is_accepted_in_row_order(statuses: list[str], time: int) -> None:
    drivers = tuple(range(1, len(statuses) + 1))
    rows = [
        {"driver": d, "status": s, **({"time": time} if s == "finished" else {})}
        for d, s in zip(drivers, statuses, strict=True)
    ]
    sheet = check(rows[::-1], entry_list=drivers)
    assert sheet.ok
    assert [e.driver for e in sheet.entries] == list(drivers[::-1])
