"""compute_standings(previous=..., last_only=True), the forecast's fast path, equals the full
computation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.grand_tour import GrandTourRules, RiderResult, StageResults, compute_standings
from tests.scoring.gt_builders import make_setup


def random_stage(rng: random.Random, riders: list[int], number: int) -> StageResults:
    order = riders[:]
    rng.shuffle(order)
    rows, clock = [], 0
    for position, rider in enumerate(order, start=1):
        clock += rng.choice([0, 0, 10, 60, 130])
        rows.append(
            RiderResult(
                rider,
                position,
                clock // 60,
                clock % 60,
                rng.choice([0, 0, 1, 3, 4]),
                rng.choice([0, 0, 2]),
                rng.choice([None, 0, 3, 7]),
            )
        )
    return StageResults(number, tuple(rows))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 6),
    st.integers(1, 9),
    st.integers(0, 10_000),
    st.data(),
)
def test_resume_and_last_only_equal_the_full_run(
    teams: int, stages: int, seed: int, data: st.DataObject
) -> None:
    rest = (
        data.draw(st.sets(st.integers(1, max(stages - 1, 1)), max_size=2)) if stages > 1 else set()
    )
    setup = make_setup(teams=teams, stages=stages, rest_days=rest, seed=seed)
    rng = random.Random(seed)
    ids = [r.id for r in setup.riders]
    results = [random_stage(rng, ids, n) for n in range(1, stages + 1)]
    rules = GrandTourRules(timing_tile=False, podium_tp=(3, 2, 1))
    full = compute_standings(setup, results, rules)
    cut = data.draw(st.integers(0, stages - 1))
    previous = full[cut - 1] if cut else None
    resumed = compute_standings(setup, results[cut:], rules, previous=previous)
    assert resumed == full[cut:]
    assert compute_standings(setup, results[cut:], rules, previous=previous, last_only=True) == [
        full[-1]
    ]


def test_a_stage_must_list_every_rider_and_place_once() -> None:
    setup = make_setup(teams=2, stages=2)
    rules = GrandTourRules(timing_tile=False)
    ids = [r.id for r in setup.riders]
    good = [RiderResult(rider, p, 0, 0) for p, rider in enumerate(ids, start=1)]
    assert len(compute_standings(setup, [StageResults(1, tuple(good))], rules)) == 1
    twice = [*good[:-1], RiderResult(ids[0], len(ids), 0, 0)]
    missing = good[:-1]
    stranger = [*good[:-1], RiderResult(99, len(ids), 0, 0)]
    for rows in (twice, missing, stranger):
        with pytest.raises(ValueError, match="every rider exactly once"):
            compute_standings(setup, [StageResults(1, tuple(rows))], rules)
    same_place = [*good[:-1], RiderResult(ids[-1], 1, 0, 0)]
    with pytest.raises(ValueError, match=r"positions are not 1\.\.4"):
        compute_standings(setup, [StageResults(1, tuple(same_place))], rules)
    with pytest.raises(ValueError, match="expected stage 1, got stage 2"):
        compute_standings(setup, [StageResults(2, tuple(good))], rules)
