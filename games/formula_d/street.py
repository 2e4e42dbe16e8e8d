"""Street-racing rules (formula_d.md §12, FD-51 to FD-57), switched on by ``street_rules``.

Nitro and Checkpoint work on any circuit; noise zones, danger zones, tunnels and the police line
act only where the circuit data marks them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.formula_d.circuit import Circuit, Pos
from games.formula_d.dice import BLACK
from games.formula_d.model import Event
from games.formula_d.moves import MoveOption

if TYPE_CHECKING:
    from games.formula_d.race import Car, Race


@dataclass
class StreetState:
    """Police speed records per lap (FD-57) and the tunnel map of the circuit (FD-55)."""

    police: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # lap -> (driver, km/h)
    awarded: set[int] = field(default_factory=set)
    _tunnels: dict[Pos, Pos] | None = None

    def tunnels(self, circuit: Circuit) -> dict[Pos, Pos]:
        if self._tunnels is None:
            self._tunnels = {a: b for a, b in circuit.street.tunnels}
        return self._tunnels


def nitro_available(race: Race, car: Car) -> bool:
    """FD-52: once per lap (an unused nitro does not carry over), never in the pit lane."""
    return (
        race.street is not None
        and race.rules.nitro_per_lap > 0
        and car.nitro_lap != car.laps_done
        and not car.in_pit
    )


def with_nitro(option: MoveOption) -> MoveOption:
    """The same option, marked as using the nitro bonus."""
    return dataclasses.replace(option, nitro=True)


def nitro_options(boosted: Sequence[MoveOption]) -> list[MoveOption]:
    """FD-52: the nitro bonus "must be used in full": no braking, only the moves that go as far
    as the car can (a blocked car still stops where FD-27 stops it; finishing, pitting or an
    elimination end the move early as on any move)."""
    return [with_nitro(o) for o in boosted if uses_whole_roll(o)]


def uses_whole_roll(option: MoveOption) -> bool:
    """Whether ``option`` moves as far as the roll allows (no voluntary braking, FD-26)."""
    if option.finished or option.into_box or option.overshoot_out:
        return True
    return option.steps == option.roll - option.forced


def danger_tests(race: Race, car: Car, option: MoveOption) -> None:
    """FD-54: one black-die test per danger space moved over (project rule)."""
    for _ in option.danger:
        if not car.running:
            return
        value = race.dice.roll(BLACK)
        lost = value <= race.rules.danger_fail_max
        race.events.append(Event("danger", car.driver, value, -race.rules.danger_wp_loss * lost))
        if lost:
            race.lose(car, race.rules.danger_wp_loss, "danger", log=False)


def police_crossing(race: Race, car: Car, roll: int) -> None:
    """FD-57: record the gear-die result of the move that crossed the police line."""
    assert race.street is not None
    lap = car.laps_done
    race.street.police.setdefault(lap, []).append((car.driver, roll))
    race.events.append(Event("police", car.driver, roll, detail=f"{roll * 10} km/h"))


def checkpoint(race: Race, car: Car) -> None:
    """FD-56: crossing the line at the end of lap 1 of a longer race gains WP."""
    if race.laps >= 2 and car.crossings == 2:
        race.gain(car, race.rules.checkpoint_wp, "checkpoint")


def end_of_move(race: Race, car: Car) -> None:
    """FD-53 noise zone for the mover, then any police bonus now due (FD-57)."""
    circuit = race.track.circuit
    if car.running and car.finish_position is None and car.pos in circuit.street.noise:
        value = race.dice.roll(BLACK)
        lost = value >= race.rules.noise_fail_min
        race.events.append(Event("noise", car.driver, value, -race.rules.noise_wp_loss * lost))
        if lost:
            race.lose(car, race.rules.noise_wp_loss, "noise", log=False)
    _police_award(race)


def _police_award(race: Race) -> None:
    assert race.street is not None
    for lap in sorted(race.street.police):
        if lap in race.street.awarded:
            continue
        records = race.street.police[lap]
        crossed = {driver for driver, _ in records}
        if any(c.running and c.driver not in crossed for c in race.cars):
            continue
        race.street.awarded.add(lap)
        alive = {c.driver: c for c in race.cars if c.status != "eliminated"}
        best: tuple[int, int] | None = None
        for driver, speed in records:  # in crossing order: a tie goes to the first
            if driver in alive and (best is None or speed > best[1]):
                best = (driver, speed)
        if best is not None:
            race.gain(alive[best[0]], race.rules.police_bonus_wp, "police bonus")
