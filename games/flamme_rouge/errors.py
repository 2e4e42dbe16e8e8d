"""Errors of the Flamme Rouge engine: a stable ``code``, an English ``message`` and ``params``."""

from __future__ import annotations

from scoring.issues import EngineError


class FlammeRougeError(EngineError):
    """Base of every input or simulation error: ``FlammeRougeError(message, code, **params)``."""


class SetupError(FlammeRougeError):
    """A stage set-up the rules cannot play (riders, teams, stacks, specialists, start area)."""


class SimulationError(FlammeRougeError):
    """The stage could not be played to its end (FR-45: riders left after ``max_rounds``)."""


__all__ = ["FlammeRougeError", "SetupError", "SimulationError"]
