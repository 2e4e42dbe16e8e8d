"""Helpers to build hand-made Formula D situations on Monaco (or a test circuit)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.formula_d import (
    BLACK,
    CarSetup,
    Circuit,
    Entrant,
    MoveOption,
    Race,
    ScriptedDice,
    load_circuit,
    track_for,
)
from games.formula_d.race import Car
from scoring.formula_d.rules import FormulaDRules, build_formula_d_rules

MONACO = load_circuit("monaco")
SEG = {s.id: i for i, s in enumerate(MONACO.segments)}
L, M, R = 0, 1, 2


def at(segment: str, lane: int, space: int) -> tuple[int, int, int]:
    """A Monaco position from a segment id, lane index and 1-based space number."""
    return (SEG[segment], lane, space - 1)


Pick = Callable[[Sequence[MoveOption]], MoveOption]


def furthest(options: Sequence[MoveOption]) -> MoveOption:
    """The longest move that does not eliminate, with the fewest lane changes."""
    alive = [o for o in options if not o.overshoot_out and not o.nitro]
    if not alive:
        return options[0]
    return max(alive, key=lambda o: (o.steps, -lane_changes(o)))


def lane_changes(option: MoveOption) -> int:
    return sum(1 for a, b in zip(option.path, option.path[1:], strict=False) if a[1] != b[1])


def ending_at(pos: tuple[int, int, int]) -> Pick:
    def pick(options: Sequence[MoveOption]) -> MoveOption:
        for o in options:
            if o.end == pos and not o.nitro:
                return o
        raise AssertionError(f"no option ends at {pos}: {[o.end for o in options]}")

    return pick


class Scripted:
    """A policy that announces scripted gears and picks moves with ``pick``."""

    def __init__(self, gears: dict[int, list[int]] | None = None, pick: Pick = furthest):
        self.gears = gears or {}
        self.pick = pick
        self.seen: list[Sequence[MoveOption]] = []
        self.allowed: list[Sequence[int]] = []

    def choose_gear(self, race: Race, car: Car, allowed: Sequence[int]) -> int:
        self.allowed.append(list(allowed))
        return self.gears[car.driver].pop(0)

    def choose_move(self, race: Race, car: Car, options: Sequence[MoveOption]) -> MoveOption:
        self.seen.append(options)
        return self.pick(options)


def race_with(
    cars: Sequence[dict[str, Any]],
    rolls: Sequence[tuple[int, int]] = (),
    *,
    gears: dict[int, list[int]] | None = None,
    pick: Pick = furthest,
    laps: int = 1,
    rules: FormulaDRules | None = None,
    circuit: Circuit = MONACO,
    rule_set: str = "basic",
) -> tuple[Race, ScriptedDice, Scripted]:
    """A race with cars placed by hand: each dict gives ``pos`` and CarSetup fields."""
    entrants = [Entrant(i + 1, f"D{i + 1}") for i in range(len(cars))]
    setups = [CarSetup(entrant=e, **c) for e, c in zip(entrants, cars, strict=True)]
    dice = ScriptedDice(rolls)
    policy = Scripted(gears, pick)
    race = Race(
        track_for(circuit),
        entrants,
        laps=laps,
        rules=rules or build_formula_d_rules({}, rule_set)[0],
        dice=dice,
        policy=policy,
        setups=setups,
        rule_set=rule_set,
    )
    return race, dice, policy


def car(race: Race, driver: int) -> Car:
    return next(c for c in race.cars if c.driver == driver)


__all__ = ["BLACK", "MONACO", "L", "M", "R", "at", "car", "ending_at", "furthest", "race_with"]
