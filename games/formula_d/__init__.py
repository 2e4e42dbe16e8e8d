"""Formula D race engine and simulator (rules: ``rules/formula_d.md``, basic and advanced sets).

Public entry points: :func:`simulate_race` (a whole race with automatic drivers),
:class:`Race` (step by step, with injected dice and policy), :func:`circuit_from_json` /
:func:`load_circuit` (circuits as validated data) and the plain dataclasses of
:mod:`games.formula_d.model`.
"""

from __future__ import annotations

from games.formula_d.advanced_driver import AdvancedDriver
from games.formula_d.circuit import Circuit, circuit_from_json, load_circuit, shipped_circuits
from games.formula_d.dice import BLACK, GEAR_FACES, DiceSource, RandomDice, ScriptedDice
from games.formula_d.errors import CircuitError, FormulaDError
from games.formula_d.model import (
    CarSetup,
    Entrant,
    Event,
    MoveRecord,
    RaceOutcome,
    ResultEntry,
)
from games.formula_d.moves import MoveOption
from games.formula_d.policy import AutoDriver
from games.formula_d.race import Car, DriverPolicy, Race
from games.formula_d.simulate import simulate_race, track_for
from games.formula_d.track import PIT, Track

__all__ = [
    "BLACK",
    "GEAR_FACES",
    "PIT",
    "AdvancedDriver",
    "AutoDriver",
    "Car",
    "CarSetup",
    "Circuit",
    "CircuitError",
    "DiceSource",
    "DriverPolicy",
    "Entrant",
    "Event",
    "FormulaDError",
    "MoveOption",
    "MoveRecord",
    "Race",
    "RaceOutcome",
    "RandomDice",
    "ResultEntry",
    "ScriptedDice",
    "Track",
    "circuit_from_json",
    "load_circuit",
    "shipped_circuits",
    "simulate_race",
    "track_for",
]
