"""Draws and derived orders (scoring/grand_tour/order.py): GT-1.2, GT-1.3, GT-10."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.grand_tour import (
    GrandTourRules,
    RiderTimeRow,
    drawn_start_order,
    recommended_rest_days,
    specialist_order,
    start_order,
)
from scoring.rng import derive_rng
from tests.scoring.gt_builders import make_setup


@pytest.mark.parametrize(
    ("stages", "expected"), [(1, 0), (2, 1), (7, 1), (8, 1), (14, 1), (15, 2), (21, 2)]
)
def test_recommended_rest_days(stages: int, expected: int) -> None:
    assert recommended_rest_days(stages) == expected


def test_specialist_order_is_the_seeded_shuffle_of_entry_order() -> None:
    setup = make_setup(teams=5, seed=42)
    expected = [1, 2, 3, 4, 5]
    derive_rng(42, "specialist_order").shuffle(expected)
    assert specialist_order(setup) == tuple(expected)
    assert specialist_order(setup) == specialist_order(make_setup(teams=5, seed=42))


def test_drawn_start_order_uses_its_own_stream_per_stage() -> None:
    setup = make_setup(teams=6, seed=3)
    for number in range(1, 8):
        expected = [1, 2, 3, 4, 5, 6]
        derive_rng(3, "start_order", number).shuffle(expected)
        assert drawn_start_order(setup, number) == tuple(expected)
    # Different stages and seeds draw differently (not one frozen order).
    assert len({drawn_start_order(setup, n) for n in range(1, 8)}) > 1
    assert len({specialist_order(make_setup(teams=6, seed=s)) for s in range(8)}) > 1


def general_rows(team_of_rank: list[int]) -> tuple[RiderTimeRow, ...]:
    return tuple(
        RiderTimeRow(rank=i, rider=100 + i, name=f"r{i}", team=team, time=i, gap=i - 1)
        for i, team in enumerate(team_of_rank, start=1)
    )


def test_start_order_by_tp_then_gc() -> None:
    setup = make_setup(teams=4)
    rules = GrandTourRules(tp_order_from_stage=3)
    general = general_rows([3, 1, 4, 2, 1, 3, 2, 4])
    points = {1: 5, 2: 2, 3: 5, 4: 2}
    # Before stage 3: drawn.
    assert start_order(setup, rules, 2, points, general) == drawn_start_order(setup, 2)
    # 2 and 4 tie on 2 TP: 4's best rider is 3rd in GC, 2's is 4th: 4 places later.
    # 1 and 3 tie on 5: 3 leads the GC and places last.
    assert start_order(setup, rules, 3, points, general) == (2, 4, 1, 3)
    assert start_order(setup, rules, 9, points, general) == (2, 4, 1, 3)


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**9), st.integers(1, 21))
def test_draws_are_permutations(teams: int, seed: int, number: int) -> None:
    setup = make_setup(teams=teams, seed=seed)
    ids = list(range(1, teams + 1))
    assert sorted(specialist_order(setup)) == ids
    assert sorted(drawn_start_order(setup, number)) == ids
    assert drawn_start_order(setup, number) == drawn_start_order(setup, number)
