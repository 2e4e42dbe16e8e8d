"""Formula D dice (FD-1 to FD-3) and dice sources: random for races, scripted for tests."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol

from games.formula_d.errors import FormulaDError

BLACK = 0  # the black d20 (FD-3); gear dice are named by their gear, 1 to 6

# FD-1: the faces of each gear die. FD-2: gears 2 and 3 are not uniform, so sample these lists.
GEAR_FACES: dict[int, tuple[int, ...]] = {
    1: (1, 1, 2, 2),
    2: (2, 3, 3, 4, 4, 4),
    3: (4, 5, 6, 6, 7, 7, 8, 8),
    4: tuple(v for v in range(7, 13) for _ in range(2)),
    5: tuple(v for v in range(11, 21) for _ in range(2)),
    6: tuple(v for v in range(21, 31) for _ in range(3)),
}
BLACK_FACES: tuple[int, ...] = tuple(range(1, 21))
# FD-32: the face that strains the engine, per gear.
ENGINE_TRIGGER: dict[int, int] = {5: 20, 6: 30}


def faces(die: int) -> tuple[int, ...]:
    """The faces of ``die`` (``BLACK`` or a gear 1..6)."""
    return BLACK_FACES if die == BLACK else GEAR_FACES[die]


def distribution(die: int) -> tuple[tuple[int, float], ...]:
    """Distinct values of ``die`` with their probabilities, in increasing value."""
    values = faces(die)
    return tuple((v, values.count(v) / len(values)) for v in sorted(set(values)))


class DiceSource(Protocol):
    """Where rolls come from; the engine asks for one die at a time, in rule order."""

    def roll(self, die: int) -> int: ...


class RandomDice:
    """Rolls from one injected ``random.Random`` (the race's only randomness)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        # A plain random.Random draws randrange(n) as getrandbits(n.bit_length()) until below
        # n (Random._randbelow_with_getrandbits). Drawing that way here gives the same faces
        # for a third of the cost; any other generator goes through its own randrange.
        self._bits = rng.getrandbits if type(rng) is random.Random else None
        self._dice = {
            die: (values, len(values), len(values).bit_length())
            for die, values in {BLACK: BLACK_FACES, **GEAR_FACES}.items()
        }

    def roll(self, die: int) -> int:
        values, n, k = self._dice[die]
        bits = self._bits
        if bits is None:
            return values[self._rng.randrange(n)]
        r = bits(k)
        while r >= n:
            r = bits(k)
        return values[r]


class ScriptedDice:
    """A fixed sequence of ``(die, value)`` rolls for tests.

    Each request must match the next scripted die, so a test also checks which dice the engine
    rolls and in what order. Running out, or an impossible face, raises :class:`FormulaDError`.
    """

    def __init__(self, rolls: Iterable[tuple[int, int]]) -> None:
        self._rolls: deque[tuple[int, int]] = deque()
        for die, value in rolls:
            if value not in faces(die):
                raise FormulaDError(
                    f"{value} is not a face of die {die}.", "bad_face", die=die, value=value
                )
            self._rolls.append((die, value))
        self.used: list[tuple[int, int]] = []

    def roll(self, die: int) -> int:
        if not self._rolls:
            raise FormulaDError(f"No scripted roll left for die {die}.", "dice_exhausted", die=die)
        expected, value = self._rolls.popleft()
        if expected != die:
            raise FormulaDError(
                f"The engine rolled die {die} where the script has die {expected}.",
                "dice_mismatch",
                die=die,
                expected=expected,
            )
        self.used.append((die, value))
        return value

    @property
    def remaining(self) -> int:
        return len(self._rolls)
