"""Errors of the Formula D engine: the shared :class:`~scoring.issues.EngineError` shape,
``(message, code, **params)``, with a stable ``code``, an English ``message`` and ``params``."""

from __future__ import annotations

from scoring.issues import EngineError


class FormulaDError(EngineError):
    """Bad input to the engine (a circuit, a race set-up, a scripted die); ``code`` is stable."""


class CircuitError(FormulaDError):
    """A malformed circuit file; ``params["path"]`` locates the offending JSON value."""
