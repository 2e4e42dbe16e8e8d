"""simulate_race relaxes the garbage collector only while races run, and restores it."""

from __future__ import annotations

import gc
import threading
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
    """The automatic driver, noting the collector's thresholds and pausing at its first gear."""

    def __init__(self, started: threading.Event | None = None, go: threading.Event | None = None):
        super().__init__()
        self.seen: set[tuple[int, ...]] = set()
        self.started, self.go = started, go

    def choose_gear(self, race: Race, car: Car, allowed: Sequence[int]) -> int:
        self.seen.add(gc.get_threshold())
        if self.started is not None and self.go is not None and not self.started.is_set():
            self.started.set()
            assert self.go.wait(30)
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


def test_thresholds_are_raised_during_a_race_and_restored_after() -> None:
    before = gc.get_threshold()
    policy = Watching()
    run(policy, 1)
    assert policy.seen == {(20_000, 50, 100)}
    assert gc.get_threshold() == before


def test_overlapping_races_in_threads_restore_the_callers_thresholds() -> None:
    # Race A starts, race B starts, A ends, B ends: the caller's thresholds come back only
    # when B, the last one running, ends.
    before = gc.get_threshold()
    events = [(threading.Event(), threading.Event()) for _ in range(2)]
    drivers = [Watching(started, go) for started, go in events]
    threads = [
        threading.Thread(target=run, args=(driver, seed)) for seed, driver in enumerate(drivers)
    ]
    threads[0].start()
    assert events[0][0].wait(30)  # A runs (paused at its first gear)
    threads[1].start()
    assert events[1][0].wait(30)  # B runs too
    events[0][1].set()
    threads[0].join(30)  # A ends first
    assert not threads[0].is_alive()
    assert gc.get_threshold() == (20_000, 50, 100)  # B still runs
    events[1][1].set()
    threads[1].join(30)
    assert not threads[1].is_alive()
    assert gc.get_threshold() == before
    assert drivers[0].seen == drivers[1].seen == {(20_000, 50, 100)}


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
