"""Sources of chance for the engine: dice faces, LoC cards and damage tokens.

The engine never touches a random generator directly: it asks a :class:`Chance`. The simulator
uses :class:`RandomChance` over the stage's one injected ``random.Random``; tests script every
result with :class:`ScriptedChance` instead of patching anything.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol

from games.rallyman.errors import ScriptExhausted
from scoring.rally.rules import Weights


class Chance(Protocol):
    """What the engine needs to draw."""

    def hazard(self, faces: int) -> bool:
        """Roll one die with ``faces`` hazard faces out of six; True when a hazard shows."""
        ...

    def draw(self, weights: Weights, what: str) -> str:
        """Draw one name of ``weights`` (``what`` names the draw: loc, crash, shortcut)."""
        ...


class RandomChance:
    """Chance from one ``random.Random``: the only randomness a simulated stage uses."""

    def __init__(self, rng: random.Random) -> None:
        self._random = rng.random

    def hazard(self, faces: int) -> bool:
        """A fair six-sided die (RM-1)."""
        return int(self._random() * 6) < faces

    def draw(self, weights: Weights, what: str) -> str:
        """A weighted draw, as from a freshly shuffled deck or bag (RM-37, RM-39, RM-19)."""
        pick = self._random() * weights.total()
        for name, weight in zip(weights.names, weights.values, strict=True):
            if pick < weight:
                return name
            pick -= weight
        # Only reachable through float rounding at the very top of the range.
        return next(n for n, w in zip(weights.names, weights.values, strict=True) if w > 0)


class ScriptedChance:
    """Results prepared by a test, consumed in order; running out is an error.

    ``hazards`` is a sequence of booleans (or a string of ``x`` for a hazard and ``.`` for a safe
    face); ``draws`` gives the names the weighted draws return (``"crash"``, ``"gear"``, ``"mud"``).
    """

    def __init__(self, hazards: Iterable[bool] | str = (), draws: Iterable[str] = ()) -> None:
        if isinstance(hazards, str):
            hazards = [c == "x" for c in hazards if c in "x."]
        self._hazards: deque[bool] = deque(hazards)
        self._draws: deque[str] = deque(draws)
        self.rolled: list[int] = []  # hazard faces of every die rolled, for assertions
        self.drawn: list[str] = []

    def hazard(self, faces: int) -> bool:
        """The next scripted face."""
        if not self._hazards:
            raise ScriptExhausted("No scripted die result left.", "script_exhausted")
        self.rolled.append(faces)
        return self._hazards.popleft()

    def draw(self, weights: Weights, what: str) -> str:
        """The next scripted draw; it must be one of the names of ``weights``."""
        if not self._draws:
            raise ScriptExhausted(f"No scripted {what} draw left.", "script_exhausted", what=what)
        name = self._draws.popleft()
        if name not in weights.names:
            raise ScriptExhausted(
                f"Scripted {name!r} is not a {what} result.", "script_mismatch", what=what
            )
        self.drawn.append(name)
        return name

    @property
    def unused(self) -> tuple[int, int]:
        """Scripted hazards and draws not consumed (tests assert both are 0)."""
        return len(self._hazards), len(self._draws)
