"""Errors of the Flamme Rouge engine: a stable ``code``, an English ``message`` and ``params``."""

from __future__ import annotations

from typing import Any


class FlammeRougeError(ValueError):
    """Base of every input or simulation error; the service translates by ``code``."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params

    def to_json(self) -> dict[str, Any]:
        """The error as the API shows it."""
        return {"code": self.code, "message": self.message, "params": self.params}


class SetupError(FlammeRougeError):
    """A stage set-up the rules cannot play (riders, teams, stacks, specialists, start area)."""


class SimulationError(FlammeRougeError):
    """The stage could not be played to its end (FR-45: riders left after ``max_rounds``)."""


__all__ = ["FlammeRougeError", "SetupError", "SimulationError"]
