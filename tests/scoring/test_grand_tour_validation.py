"""Rejected stage results (scoring/grand_tour/validation.py): every GT-11 case."""

from __future__ import annotations

import dataclasses
import itertools
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.grand_tour import (
    GrandTourRules,
    Issue,
    RiderResult,
    StageSpec,
    validate_stage_results,
)
from scoring.grand_tour.validation import format_time
from tests.scoring.gt_builders import make_setup, rider_id, stage, stage_rows

SETUP = make_setup(teams=2, stages=3)
RULES = GrandTourRules()
FLAT = StageSpec(1, "flat")
ASCENT = StageSpec(1, "ascent")


def good_rows() -> list[RiderResult]:
    return list(
        stage(
            SETUP,
            1,
            [
                ("RS", "0:00", 4, 0, 3),
                ("BS", "0:00", 3, 0, 2),
                ("RR", "1:10", 0, 1, None),
                ("BR", "2:30", 2, 0, 0),
            ],
        ).rows
    )


def check(
    rows: list[RiderResult], spec: StageSpec = FLAT, rules: GrandTourRules = RULES
) -> list[Issue]:
    return validate_stage_results(SETUP, spec, rows, rules)


def codes(issues: list[Issue]) -> list[tuple[str, int | None, str | None]]:
    return [(i.code, i.index, i.field) for i in issues]


def test_valid_results_pass() -> None:
    assert check(good_rows()) == []


# ---- GT-11.1 -----------------------------------------------------------------------------------


def test_missing_rider() -> None:
    rows = good_rows()[:3]
    issues = check(rows)
    assert codes(issues) == [("missing_rider", None, None)]
    issue = issues[0]
    assert issue.params == {"rider": rider_id(SETUP, "BR"), "name": "BR"}
    assert "BR" in issue.message


def test_duplicate_rider() -> None:
    rows = good_rows()
    rows[3] = dataclasses.replace(rows[3], rider=rider_id(SETUP, "RS"))
    issues = check(rows)
    assert codes(issues) == [("duplicate_rider", None, None), ("missing_rider", None, None)]
    assert issues[0].params == {"rider": rider_id(SETUP, "RS"), "name": "RS", "count": 2}
    assert "RS" in issues[0].message and "2 times" in issues[0].message


def test_unknown_rider() -> None:
    rows = good_rows()
    rows[2] = dataclasses.replace(rows[2], rider=999)
    issues = check(rows)
    assert codes(issues) == [("unknown_rider", 2, "rider"), ("missing_rider", None, None)]
    assert issues[0].params == {"rider": 999}
    assert "999" in issues[0].message
    assert issues[1].params["name"] == "RR"


# ---- GT-11.2 -----------------------------------------------------------------------------------


def test_duplicate_position() -> None:
    rows = good_rows()
    rows[1] = dataclasses.replace(rows[1], position=1)
    issues = check(rows)
    assert codes(issues) == [
        ("duplicate_position", 1, "position"),
        ("positions_not_sequence", None, None),
    ]
    assert issues[0].params["position"] == 1
    assert issues[0].params["other_rider"] == rider_id(SETUP, "RS")
    assert "BS" in issues[0].message and "RS" in issues[0].message
    assert issues[1].params == {"count": 4, "missing": [2]}


def test_position_out_of_range() -> None:
    rows = good_rows()
    rows[3] = dataclasses.replace(rows[3], position=5)
    rows[0] = dataclasses.replace(rows[0], position=0)
    issues = check(rows)
    assert codes(issues) == [
        ("position_out_of_range", 0, "position"),
        ("position_out_of_range", 3, "position"),
        ("positions_not_sequence", None, None),
    ]
    assert issues[1].params == {
        "rider": rider_id(SETUP, "BR"),
        "name": "BR",
        "position": 5,
        "count": 4,
    }
    assert issues[2].params["missing"] == [1, 4]


def test_positions_need_not_be_in_row_order() -> None:
    rows = good_rows()
    rows.reverse()
    assert check(rows) == []


# ---- GT-11.3 -----------------------------------------------------------------------------------


def test_negative_values_each_reported() -> None:
    rows = good_rows()
    rows[2] = dataclasses.replace(rows[2], minutes=-1, sprint_points=-2, mountain_points=-3)
    rows[3] = dataclasses.replace(rows[3], seconds=-10)
    issues = check(rows)
    assert codes(issues) == [
        ("negative", 2, "minutes"),
        ("negative", 2, "sprint_points"),
        ("negative", 2, "mountain_points"),
        ("negative", 3, "seconds"),
    ]
    assert issues[1].params == {"rider": rider_id(SETUP, "RR"), "name": "RR", "value": -2}
    assert "RR" in issues[1].message and "-2" in issues[1].message


def test_seconds_of_sixty_or_more() -> None:
    rows = good_rows()
    rows[3] = dataclasses.replace(rows[3], seconds=60)
    issues = check(rows)
    assert codes(issues) == [("seconds_too_large", 3, "seconds")]
    assert issues[0].params["value"] == 60
    # Also without the Timing tile.
    assert codes(check(rows, rules=GrandTourRules(timing_tile=False))) == [
        ("seconds_too_large", 3, "seconds")
    ]


def test_seconds_not_on_the_flat_tile() -> None:
    rows = good_rows()
    rows[3] = dataclasses.replace(rows[3], seconds=35)
    issues = check(rows)
    assert codes(issues) == [("seconds_not_on_timing_tile", 3, "seconds")]
    assert issues[0].params == {
        "rider": rider_id(SETUP, "BR"),
        "name": "BR",
        "value": 35,
        "finish": "flat",
        "allowed": [50, 40, 30, 20, 10, 0],
    }
    assert "35" in issues[0].message and "flat" in issues[0].message


def test_timing_tile_side_follows_the_finish() -> None:
    rows = good_rows()
    rows[3] = dataclasses.replace(rows[3], seconds=50)  # flat only
    assert check(rows, FLAT) == []
    issues = check(rows, ASCENT)
    assert codes(issues) == [("seconds_not_on_timing_tile", 3, "seconds")]
    assert issues[0].params["allowed"] == [40, 30, 20, 10, 0]


def test_timing_tile_parameter() -> None:
    rows = good_rows()
    rows[3] = dataclasses.replace(rows[3], seconds=35)
    assert check(rows, rules=GrandTourRules(timing_tile=False)) == []
    custom = GrandTourRules(timing_flat=(45, 35, 0))
    # 10 s (RR's 1:10) is not on the custom tile; 35 and 0 are.
    assert codes(check(rows, rules=custom)) == [("seconds_not_on_timing_tile", 2, "seconds")]


# ---- GT-11.4 -----------------------------------------------------------------------------------


def test_time_decreasing_points_at_the_later_row() -> None:
    rows = good_rows()
    # BR (4th) 1:00 after RR (3rd) 1:10.
    rows[3] = dataclasses.replace(rows[3], minutes=1, seconds=0)
    issues = check(rows)
    assert codes(issues) == [("time_decreases", 3, "seconds")]
    assert issues[0].params == {
        "rider": rider_id(SETUP, "BR"),
        "name": "BR",
        "position": 4,
        "time": 60,
        "previous_rider": rider_id(SETUP, "RR"),
        "previous_position": 3,
        "previous_time": 70,
    }
    assert "1:00" in issues[0].message and "1:10" in issues[0].message and "RR" in issues[0].message


def test_time_decreasing_by_minutes_blames_minutes() -> None:
    rows = good_rows()
    rows[2] = dataclasses.replace(rows[2], minutes=3, seconds=0)  # RR 3:00 before BR 2:30
    issues = check(rows)
    assert codes(issues) == [("time_decreases", 3, "minutes")]


def test_time_order_follows_positions_not_rows() -> None:
    rows = good_rows()
    rows.reverse()
    rows[0] = dataclasses.replace(rows[0], minutes=0, seconds=0)  # BR (4th) 0:00
    issues = check(rows)
    assert codes(issues) == [("time_decreases", 0, "minutes")]


def test_every_decrease_is_reported() -> None:
    rows = good_rows()
    rows[1] = dataclasses.replace(rows[1], minutes=2, seconds=30)  # BS 2:30, then RR 1:10
    rows[3] = dataclasses.replace(rows[3], minutes=0, seconds=50)  # BR 0:50 after RR 1:10
    assert codes(check(rows)) == [
        ("time_decreases", 2, "minutes"),
        ("time_decreases", 3, "minutes"),
    ]


def test_time_order_skips_ambiguous_positions() -> None:
    rows = good_rows()
    rows[2] = dataclasses.replace(rows[2], position=4)  # RR and BR both 4th: order unknown
    issues = check(rows)
    assert [i.code for i in issues] == ["duplicate_position", "positions_not_sequence"]


# ---- GT-11.6 -----------------------------------------------------------------------------------


def test_negative_exhaustion() -> None:
    rows = good_rows()
    rows[1] = dataclasses.replace(rows[1], exhaustion=-1)
    issues = check(rows)
    assert codes(issues) == [("negative_exhaustion", 1, "exhaustion")]
    assert issues[0].params == {"rider": rider_id(SETUP, "BS"), "name": "BS", "value": -1}


def test_every_problem_at_once() -> None:
    rows = good_rows()
    rows[0] = dataclasses.replace(rows[0], rider=999, exhaustion=-4)
    rows[1] = dataclasses.replace(rows[1], seconds=61)
    rows[2] = dataclasses.replace(rows[2], position=2)
    assert codes(check(rows)) == [
        ("unknown_rider", 0, "rider"),
        ("missing_rider", None, None),
        ("duplicate_position", 2, "position"),
        ("positions_not_sequence", None, None),
        ("seconds_too_large", 1, "seconds"),
        ("negative_exhaustion", 0, "exhaustion"),
    ]


def test_empty_list_misses_everyone() -> None:
    issues = check([])
    assert codes(issues) == [("missing_rider", None, None)] * 4


def test_format_time() -> None:
    assert format_time(0) == "0:00"
    assert format_time(70) == "1:10"
    assert format_time(3725) == "1:02:05"
    assert format_time(-5) == "-0:05"


# ---- properties ---------------------------------------------------------------------------------

BIG = make_setup(teams=6, stages=21)


@settings(max_examples=80, deadline=None)
@given(stage_rows(BIG), st.booleans(), st.randoms(use_true_random=False))
def test_valid_rows_pass_in_any_row_order(
    rows: tuple[RiderResult, ...], ascent: bool, rnd: random.Random
) -> None:
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    if ascent:
        # Rebuild the seconds on the ascent side by index so the times stay non-decreasing.
        tile = dict(zip((50, 40, 30, 20, 10, 0), (40, 40, 30, 20, 10, 0), strict=True))
        shuffled = [dataclasses.replace(r, seconds=tile[r.seconds]) for r in shuffled]
    spec = StageSpec(1, "ascent" if ascent else "flat")
    assert validate_stage_results(BIG, spec, shuffled, RULES) == []


@settings(max_examples=80, deadline=None)
@given(stage_rows(BIG), st.data())
def test_one_broken_value_gives_one_issue_on_that_row(
    rows: tuple[RiderResult, ...], data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(rows) - 1))
    name = data.draw(st.sampled_from(["minutes", "sprint_points", "mountain_points", "exhaustion"]))
    broken = list(rows)
    broken[index] = dataclasses.replace(rows[index], **{name: -1})
    issues = validate_stage_results(BIG, FLAT, broken, RULES)
    code = "negative_exhaustion" if name == "exhaustion" else "negative"
    assert (code, index, name) in codes(issues)
    assert all(i.index == index for i in issues)


@settings(max_examples=60, deadline=None)
@given(stage_rows(BIG), st.data())
def test_swapping_two_different_times_is_caught(
    rows: tuple[RiderResult, ...], data: st.DataObject
) -> None:
    ordered = sorted(rows, key=lambda r: r.position)
    pairs = [(a, b) for a, b in itertools.pairwise(ordered) if a.time < b.time]
    assume(pairs)
    first, second = data.draw(st.sampled_from(pairs))
    swapped = [
        dataclasses.replace(first, position=second.position)
        if r is first
        else dataclasses.replace(second, position=first.position)
        if r is second
        else r
        for r in rows
    ]
    issues = validate_stage_results(BIG, FLAT, swapped, RULES)
    assert [i.code for i in issues] == ["time_decreases"]
    index = issues[0].index
    assert index is not None and swapped[index].rider == first.rider
