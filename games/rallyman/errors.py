"""Domain errors of the Rallyman engine: a stable ``code``, an English ``message`` and ``params``.

The service translates by ``code``; ``params`` carries the values a translation needs.
"""

from __future__ import annotations

from typing import Any


class RallymanError(ValueError):
    """Base class of every input error raised by ``games.rallyman``."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def to_json(self) -> dict[str, Any]:
        """The error as the service reports it."""
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


class PlanError(RallymanError):
    """A turn plan that breaks a planning rule (RM-10 to RM-24)."""


class ScriptExhausted(RallymanError):
    """A scripted dice source ran out of prepared results (tests only)."""
