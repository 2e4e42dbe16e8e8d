"""RM-42 to RM-46: stage and overall rally classification as pure functions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.params import build_rules
from scoring.rally.rules import RallyRules
from scoring.rally.sheet import Penalty, StageEntry
from scoring.rally.standings import (
    RallyDriver,
    RallyInputError,
    StageSheet,
    rally_standings,
    shared_ranks,
)

DRIVERS = (RallyDriver(7, "Ana"), RallyDriver(8, "Rui"), RallyDriver(9, "Sara"))
RULES = RallyRules()


def fin(driver: int, time: int, *penalties: int) -> StageEntry:
    return StageEntry(driver, "finished", time, tuple(Penalty(p, "late") for p in penalties))


def ret(driver: int, *penalties: int) -> StageEntry:
    return StageEntry(driver, "retired", None, tuple(Penalty(p, "x") for p in penalties))


def sheet(number: int, *entries: StageEntry) -> StageSheet:
    return StageSheet(number, entries)


def rules(**data: object) -> RallyRules:
    built, errors = build_rules(RallyRules, data)
    assert not errors
    return built


def test_shared_ranks() -> None:
    assert shared_ranks([1, 1, 2, 3, 3, 3, 4]) == [1, 1, 3, 4, 4, 4, 7]
    assert shared_ranks([]) == []


def test_no_stage_yet() -> None:
    assert rally_standings(DRIVERS, [], RULES).to_json() == {
        "after_stage": None,
        "overall": [],
        "stages": [],
    }


def test_api_shape_and_penalties() -> None:
    stages = [
        sheet(1, fin(7, 300), fin(8, 290, 20), fin(9, 320)),
        sheet(2, fin(7, 305), fin(8, 305), fin(9, 300)),
    ]
    data = rally_standings(DRIVERS, stages, RULES).to_json()
    assert data["after_stage"] == 2
    assert data["overall"][0] == {
        "rank": 1,
        "driver": 7,
        "name": "Ana",
        "time": 605,
        "gap": 0,
        "stage_wins": 1,
        "out_after_stage": None,
    }
    assert [(r["driver"], r["time"], r["gap"]) for r in data["overall"]] == [
        (7, 605, 0),
        (8, 615, 10),
        (9, 620, 15),
    ]
    assert data["stages"][0]["winner"] == 7 and data["stages"][0]["winners"] == [7]
    assert data["stages"][0]["times"][1] == {
        "driver": 8,
        "time": 310,
        "rank": 2,
        "status": "finished",
        "super_rally": False,
    }


def test_rm42_equal_stage_times_share_the_position_and_the_win() -> None:
    standings = rally_standings(DRIVERS, [sheet(1, fin(9, 300), fin(8, 300), fin(7, 310))], RULES)
    stage = standings.stages[0]
    assert [(t.driver, t.rank) for t in stage.times] == [(8, 1), (9, 1), (7, 3)]  # entry order
    assert stage.winners == (8, 9)
    assert [r.stage_wins for r in standings.overall] == [1, 1, 0]


def test_rm44_ties_broken_by_stage_1_then_shared() -> None:
    stages = [
        sheet(1, fin(7, 300), fin(8, 290), fin(9, 300)),
        sheet(2, fin(7, 300), fin(8, 310), fin(9, 300)),
    ]
    overall = rally_standings(DRIVERS, stages, RULES).overall
    assert [(r.driver, r.rank) for r in overall] == [(8, 1), (7, 2), (9, 2)]


def test_rm46_super_rally_slowest_plus_penalty_and_own_penalties() -> None:
    stages = [
        sheet(1, fin(7, 300), fin(8, 320, 5), ret(9, 10)),
        sheet(2, fin(7, 300), fin(8, 300), fin(9, 280)),
    ]
    standings = rally_standings(DRIVERS, stages, RULES)
    stage1 = standings.stages[0]
    assert [(t.driver, t.time, t.rank, t.super_rally) for t in stage1.times] == [
        (7, 300, 1, False),
        (8, 325, 2, False),
        (9, 325 + 300 + 10, None, True),
    ]
    assert [(r.driver, r.time) for r in standings.overall] == [(7, 600), (8, 625), (9, 915)]
    fastest = rally_standings(DRIVERS, stages, rules(super_rally_base="fastest"))
    assert fastest.stages[0].times[-1].time == 300 + 300 + 10


def test_rm46_nobody_finished_base_is_zero() -> None:
    standings = rally_standings(DRIVERS, [sheet(1, ret(7), ret(8), ret(9))], RULES)
    assert standings.stages[0].winners == ()
    assert [r.time for r in standings.overall] == [300, 300, 300]
    assert [r.rank for r in standings.overall] == [1, 1, 1]
    assert standings.stages[0].to_json()["winner"] is None


def test_rm46_without_super_rally_a_retired_driver_is_out() -> None:
    no_sr = rules(super_rally=False)
    stages = [sheet(1, fin(7, 300), ret(8), fin(9, 310)), sheet(2, fin(7, 300), ret(9))]
    standings = rally_standings(DRIVERS, stages, no_sr)
    assert [(r.rank, r.driver, r.time, r.gap, r.out_after_stage) for r in standings.overall] == [
        (1, 7, 600, 0, None),
        (None, 9, None, None, 2),
        (None, 8, None, None, 1),
    ]
    assert standings.out_of_rally == {8, 9}
    with pytest.raises(RallyInputError) as err:
        rally_standings(DRIVERS, [stages[0], sheet(2, fin(7, 1), fin(8, 1), fin(9, 1))], no_sr)
    assert err.value.code == "driver_out"


@pytest.mark.parametrize(
    ("entries", "code"),
    [
        ((fin(7, 1), fin(8, 1)), "missing_driver"),
        ((fin(7, 1), fin(8, 1), fin(9, 1), fin(9, 2)), "duplicate_driver"),
        ((fin(7, 1), fin(8, 1), fin(9, 1), fin(5, 1)), "unknown_driver"),
    ],
)
def test_bad_sheets_are_refused(entries: tuple[StageEntry, ...], code: str) -> None:
    with pytest.raises(RallyInputError) as err:
        rally_standings(DRIVERS, [StageSheet(1, entries)], RULES)
    assert err.value.code == code


entry_strategy = st.lists(
    st.tuples(st.booleans(), st.integers(1, 400), st.integers(0, 30)), min_size=3, max_size=3
)


@given(st.lists(entry_strategy, min_size=1, max_size=4), st.booleans())
def test_properties(stage_rows: list[list[tuple[bool, int, int]]], super_rally: bool) -> None:
    rr = rules(super_rally=super_rally)
    sheets: list[StageSheet] = []
    out: set[int] = set()
    for k, rows in enumerate(stage_rows, start=1):
        entries = tuple(
            (fin(d.id, t, *([p] if p else [])) if finished else ret(d.id))
            for d, (finished, t, p) in zip(DRIVERS, rows, strict=True)
            if d.id not in out
        )
        sheets.append(StageSheet(k, entries))
        if not super_rally:
            out |= {e.driver for e in entries if e.status == "retired"}
    standings = rally_standings(DRIVERS, sheets, rr)
    overall = standings.overall
    # a permutation of the drivers; ranked ones first, ascending time, ranks 1..n with skips
    assert sorted(r.driver for r in overall) == [7, 8, 9]
    ranked = [r for r in overall if r.rank is not None]
    assert all(r.rank is None for r in overall[len(ranked) :])
    assert [r.time for r in ranked] == sorted(r.time or 0 for r in ranked)
    if ranked:
        assert ranked[0].rank == 1 and ranked[0].gap == 0
    for i, r in enumerate(ranked):
        assert r.rank is not None and r.rank <= i + 1
        # rally time = sum of the stage times (Super Rally times included, RM-43)
        assert r.time == sum(t or 0 for t in r.stage_times)
    # re-computing from the same sheets gives the same standings
    assert rally_standings(DRIVERS, sheets, rr) == standings
