"""simulate_race leaves the garbage collector alone, and a finished race needs no collection."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Sequence

from games.formula_d import (
    AutoDriver,
    Entrant,
    RandomDice,
    load_circuit,
    simulate_race,
    track_for,
)
from games.formula_d.race import Car, Race
from scoring.formula_d.rules import FormulaDRules
from scoring.rng import derive_rng

ENTRANTS = [Entrant(i + 1, f"Driver {i + 1}") for i in range(4)]


class Watching(AutoDriver):
    """The automatic driver, noting the collector's thresholds."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[int, ...]] = set()

    def choose_gear(self, race: Race, car: Car, allowed: Sequence[int]) -> int:
        self.seen.add(gc.get_threshold())
        return super().choose_gear(race, car, allowed)


def run(policy: AutoDriver, seed: int) -> None:
    simulate_race(
        "monaco",
        ENTRANTS,
        laps=1,
        rules=FormulaDRules(),
        rng=derive_rng(seed, "race", 1),
        policy=policy,
    )


def test_a_race_leaves_the_collector_alone() -> None:
    # A library must not change its host process's collector (issue #14): the thresholds seen
    # during a race are the caller's.
    before = gc.get_threshold()
    policy = Watching()
    run(policy, 1)
    assert policy.seen == {before}
    assert gc.get_threshold() == before


def test_a_finished_race_is_freed_without_the_cyclic_collector() -> None:
    # A race holds its driver, which must not hold the race: a cycle would leave every finished
    # race (move log, cars, options) to the cyclic collector (about 1,100 objects a race).
    driver = AutoDriver()
    gc.collect()
    gc.disable()
    try:
        race = Race(
            track_for(load_circuit("monaco")),
            ENTRANTS,
            laps=1,
            rules=FormulaDRules(),
            dice=RandomDice(derive_rng(1, "race", 1)),
            policy=driver,
        )
        race.run()
        ref = weakref.ref(race)
        del race
        assert ref() is None  # freed by reference counting, the driver still alive
        for seed in range(3):
            run(driver, seed)
            run(AutoDriver(), seed)
        assert gc.collect() == 0  # nothing the races left needed the collector
    finally:
        gc.enable()
