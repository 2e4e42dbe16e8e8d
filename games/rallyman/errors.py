"""Domain errors of the Rallyman engine: an English ``message``, a stable ``code`` and ``params``.

The service translates by ``code``; ``params`` carries the values a translation needs. Every error
is a :class:`scoring.issues.EngineError`, built as ``RallymanError(message, code, **params)``.
"""

from __future__ import annotations

from scoring.issues import EngineError


class RallymanError(EngineError):
    """Base class of every input error raised by ``games.rallyman``."""


class PlanError(RallymanError):
    """A turn plan that breaks a planning rule (RM-10 to RM-24)."""


class ScriptExhausted(RallymanError):
    """A scripted dice source ran out of prepared results (tests only)."""
