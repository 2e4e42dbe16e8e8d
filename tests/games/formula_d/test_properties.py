"""Properties of whole simulated races over many seeds (hypothesis)."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games.formula_d import Entrant, RaceOutcome, simulate_race
from scoring.formula_d.rules import FormulaDRules, build_formula_d_rules
from scoring.formula_d.validation import validate_race_results
from scoring.rng import derive_rng

ENTRANTS = tuple(Entrant(100 + i, f"Driver {i}") for i in range(10))
RULES = FormulaDRules()


@lru_cache(maxsize=64)
def race(seed: int, laps: int, cars: int, street: bool = False) -> RaceOutcome:
    rules = FormulaDRules(street_rules=True) if street else RULES
    return simulate_race(
        "monaco", ENTRANTS[:cars], laps=laps, rules=rules, rng=derive_rng(seed, "race", 1)
    )


seeds = st.integers(min_value=0, max_value=10_000)
laps = st.sampled_from([1, 2])
cars = st.integers(min_value=1, max_value=10)
FAST = settings(max_examples=12, deadline=None)


@FAST
@given(seeds, laps, cars)
def test_every_car_is_classified_once(seed: int, laps: int, cars: int) -> None:
    outcome = race(seed, laps, cars)
    assert sorted(r.driver for r in outcome.results) == sorted(e.driver for e in ENTRANTS[:cars])
    assert [r.position for r in outcome.results] == list(range(1, cars + 1))


@FAST
@given(seeds, laps, cars)
def test_eliminated_cars_rank_below_finishers(seed: int, laps: int, cars: int) -> None:
    statuses = [r.status for r in race(seed, laps, cars).results]
    assert statuses == sorted(statuses, key=lambda s: s == "eliminated")


@FAST
@given(seeds, laps)
def test_same_seed_same_race(seed: int, laps: int) -> None:
    a = simulate_race("monaco", ENTRANTS, laps=laps, rules=RULES, rng=derive_rng(seed, "race", 1))
    b = race(seed, laps, 10)
    assert a.replay_json() == b.replay_json()


@FAST
@given(seeds, laps, st.booleans())
def test_wp_never_exceed_the_start_value(seed: int, laps: int, street: bool) -> None:
    outcome = race(seed, laps, 10, street)
    assert all(0 <= m.wp <= RULES.wp_start for m in outcome.moves)
    assert all(e.wp <= RULES.wp_start - 0 for m in outcome.moves for e in m.events if e.wp > 0)


@FAST
@given(seeds, laps, cars)
def test_simulated_result_is_a_valid_submission(seed: int, laps: int, cars: int) -> None:
    # FD-78/FD-79: what the simulator produces passes the scorekeeper's validation.
    outcome = race(seed, laps, cars)
    ids = [e.driver for e in ENTRANTS[:cars]]
    issues = validate_race_results(
        outcome.submission(), race_drivers=ids, championship_drivers=ids, laps=laps, rules=RULES
    )
    assert issues == []
    assert sum(1 for r in outcome.results if r.pole) == 1


@FAST
@given(seeds)
def test_finishers_complete_every_lap_and_the_eliminated_fewer(seed: int) -> None:
    for r in race(seed, 2, 10).results:
        assert (r.laps == 2) == (r.status == "finished")
        assert (r.elimination_order is None) == (r.status == "finished")


# -- advanced rule set (§13) --------------------------------------------------------------

ADVANCED = build_formula_d_rules({}, "advanced")[0]
ADVANCED_OPTIONS = build_formula_d_rules(
    {"tyres": True, "weather": True, "pit_reservoir": True}, "advanced"
)[0]
ADVANCED_FAST = settings(max_examples=6, deadline=None)


@lru_cache(maxsize=16)
def advanced_race(seed: int, laps: int, cars: int, options: bool) -> RaceOutcome:
    return simulate_race(
        "monaco",
        ENTRANTS[:cars],
        laps=laps,
        rules=ADVANCED_OPTIONS if options else ADVANCED,
        rule_set="advanced",
        rng=derive_rng(seed, "race", 1),
    )


@ADVANCED_FAST
@given(seeds, st.sampled_from([1, 2, 3]), st.integers(min_value=1, max_value=10), st.booleans())
def test_advanced_race_is_a_valid_classification(
    seed: int, laps: int, cars: int, options: bool
) -> None:
    # Every car classified once, eliminated below finishers, a valid advanced submission
    # (FD-78/FD-79: wp_left per zone) and no zone ever above its start value (FD-59).
    outcome = advanced_race(seed, laps, cars, options)
    ids = [e.driver for e in ENTRANTS[:cars]]
    assert sorted(r.driver for r in outcome.results) == sorted(ids)
    assert [r.position for r in outcome.results] == list(range(1, cars + 1))
    statuses = [r.status for r in outcome.results]
    assert statuses == sorted(statuses, key=lambda s: s == "eliminated")
    rules = ADVANCED_OPTIONS if options else ADVANCED
    issues = validate_race_results(
        outcome.submission(),
        race_drivers=ids,
        championship_drivers=ids,
        laps=laps,
        rules=rules,
        rule_set="advanced",
    )
    assert issues == []
    start = rules.zone_defaults()
    for move in outcome.moves:
        assert all(0 <= wp <= start[zone] for zone, wp in move.zones)


@ADVANCED_FAST
@given(seeds, st.booleans())
def test_advanced_same_seed_same_race(seed: int, options: bool) -> None:
    a = simulate_race(
        "monaco",
        ENTRANTS,
        laps=2,
        rules=ADVANCED_OPTIONS if options else ADVANCED,
        rule_set="advanced",
        rng=derive_rng(seed, "race", 1),
    )
    assert a.replay_json() == advanced_race(seed, 2, 10, options).replay_json()
