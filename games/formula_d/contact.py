"""End-of-move tests between cars: collisions (FD-29 to FD-31) and engine damage (FD-32/33).

Under the advanced rule set the losses go to the body and engine zones (FD-60, in
:mod:`games.formula_d.advanced`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.formula_d import advanced
from games.formula_d.dice import BLACK
from games.formula_d.model import Event

if TYPE_CHECKING:
    from games.formula_d.race import Car, Race


def collision_tests(race: Race, car: Car) -> None:
    """FD-29/FD-30: the mover and every car it stopped directly behind or beside roll."""
    if car.in_pit:
        return
    track = race.track
    if not track.near_masks[track.node_id[car.pos]] & race.occupancy(car):
        return  # nobody ahead or beside
    near = _near(race, car)
    if not near:
        return
    rank = {c.driver: i for i, c in enumerate(race.order)}
    near.sort(key=lambda c: rank.get(c.driver, len(rank) + c.index))
    if race.adv is not None:
        advanced.collision_tests(race, car, near)
        return
    rules = race.rules
    for involved in [car, *near]:
        if not involved.running:
            continue
        value = race.dice.roll(BLACK)
        if value <= rules.collision_fail_max:
            race.events.append(Event("collision", involved.driver, value, -rules.collision_wp_loss))
            race.lose(involved, rules.collision_wp_loss, "collision", log=False)
        else:
            race.events.append(Event("collision", involved.driver, value))


def _near(race: Race, car: Car) -> list[Car]:
    """The cars directly ahead of ``car`` and beside it (FD-29)."""
    near: list[Car] = []
    ahead = race.occupied.get(race.track.forward(car.pos))
    if ahead is not None:
        near.append(ahead)
    for p in race.track.beside(car.pos):
        other = race.occupied.get(p)
        if other is not None and other not in near:
            near.append(other)
    return near


def engine_tests(race: Race, trigger: Car) -> None:
    """FD-32/FD-33: the triggering car, then every car in 5th or 6th, in turn order."""
    rank = {c.driver: i for i, c in enumerate(race.order)}
    others = sorted(
        (c for c in race.cars if c is not trigger and c.running and c.gear >= 5),
        key=lambda c: rank.get(c.driver, len(rank) + c.index),
    )
    rules = race.rules
    for car in [trigger, *others]:
        if not car.running or car.in_pit:
            continue
        value = race.dice.roll(BLACK)
        if race.adv is not None:
            if advanced.engine_fails(race, value):
                advanced.lose(race, car, "engine", rules.engine_wp_loss, "engine", value)
            else:
                race.events.append(Event("engine", car.driver, value))
            continue
        lost = value <= rules.engine_fail_max
        race.events.append(Event("engine", car.driver, value, -rules.engine_wp_loss if lost else 0))
        if lost:
            race.lose(car, rules.engine_wp_loss, "engine", log=False)
