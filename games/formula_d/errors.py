"""Errors of the Formula D engine: a stable ``code``, an English ``message`` and ``params``."""

from __future__ import annotations

from typing import Any


class FormulaDError(ValueError):
    """Bad input to the engine (a circuit, a race set-up, a scripted die); ``code`` is stable."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


class CircuitError(FormulaDError):
    """A malformed circuit file; ``params["path"]`` locates the offending JSON value."""
