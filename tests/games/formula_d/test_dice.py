"""Random dice: the faces of FD-1/FD-3, drawn exactly as ``random.Random.randrange`` would."""

from __future__ import annotations

import random

from games.formula_d.dice import BLACK, BLACK_FACES, GEAR_FACES, RandomDice, faces

DICE = [BLACK, *GEAR_FACES]


def test_rolls_are_the_faces_randrange_picks() -> None:
    # RandomDice draws a plain Random's bits itself; the stream must stay the one of randrange
    # (stored seeds replay the same races).
    dice, reference = RandomDice(random.Random("podium")), random.Random("podium")
    for i in range(20_000):
        die = DICE[i % len(DICE)]
        values = faces(die)
        assert dice.roll(die) == values[reference.randrange(len(values))]


class Counting(random.Random):
    """A generator of its own: RandomDice must go through its randrange."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.calls = 0

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        self.calls += 1
        return super().randrange(*args)


def test_other_generators_are_asked_through_randrange() -> None:
    rng = Counting("podium")
    dice = RandomDice(rng)
    rolled = [dice.roll(die) for die in DICE for _ in range(50)]
    assert rng.calls == len(rolled)
    reference = random.Random("podium")
    assert rolled == [faces(d)[reference.randrange(len(faces(d)))] for d in DICE for _ in range(50)]


def test_every_face_comes_up() -> None:
    dice = RandomDice(random.Random(3))
    for die in DICE:
        seen = {dice.roll(die) for _ in range(2_000)}
        assert seen == set(faces(die))
    assert set(BLACK_FACES) == set(range(1, 21))
