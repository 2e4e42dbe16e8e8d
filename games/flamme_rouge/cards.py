"""Energy, exhaustion and attack cards; base and specialist decks (FR-1..FR-5, FR-56, FR-57, FR-63).

Inside the engine a card is a small int, its *code*: an index into :data:`CARD_SPECS`. Decks are
plain lists of codes, which keeps the hot loop free of object churn. Card values are resolved per
stage by :func:`card_values`, because the Strong Descents value is a rule parameter (FR-64).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.flamme_rouge.errors import SetupError

ENERGY, EXHAUSTION, ATTACK = "energy", "exhaustion", "attack"
ROULEUR, SPRINTEUR = "rouleur", "sprinteur"
RECOVERY = "recovery"
STRONG_DESCENTS = "strong_descents"
# A value of None marks a Strong Descents card: its value is `strong_descents_value` (FR-64).
_SD = None


@dataclass(frozen=True)
class Card:
    """A card as FR-4 describes it: kind, value and specialist symbols."""

    kind: str
    value: int
    symbols: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """Short human label: ``4``, ``X`` for exhaustion, ``A`` for attack, ``6*`` symbols."""
        if self.kind == EXHAUSTION:
            return "X"
        if self.kind == ATTACK:
            return "A"
        return f"{self.value}*" if self.symbols else str(self.value)


# Card codes. 0 exhaustion, 1 attack, 2..11 plain energy cards of that value, then the specialist
# cards with symbols. The order is part of the log format: append, never reorder.
EXHAUSTION_CODE = 0
ATTACK_CODE = 1
CARD_SPECS: tuple[tuple[str, int | None, tuple[str, ...]], ...] = (
    (EXHAUSTION, 2, ()),
    (ATTACK, 0, ()),
    *((ENERGY, v, ()) for v in range(2, 12)),
    (ENERGY, 5, ("breakaway", "relentless")),  # 12
    (ENERGY, 6, ("breakaway", "relentless")),  # 13
    (ENERGY, 7, ("breakaway", "relentless")),  # 14
    (ENERGY, 3, ("chase",)),  # 15
    (ENERGY, 4, ("chase",)),  # 16
    (ENERGY, 5, ("chase",)),  # 17
    (ENERGY, 6, ("chase",)),  # 18
    (ENERGY, 7, ("chase",)),  # 19
    (ENERGY, _SD, (STRONG_DESCENTS,)),  # 20
    (ENERGY, 6, ("strong_ascents",)),  # 21
    (ENERGY, 4, (RECOVERY,)),  # 22
    (ENERGY, 5, ("nimble",)),  # 23
    (ENERGY, 6, ("nimble",)),  # 24
    (ENERGY, 8, ("relentless",)),  # 25
    (ENERGY, _SD, (STRONG_DESCENTS, RECOVERY)),  # 26
    (ENERGY, 7, ("strong_ascents",)),  # 27
    (ENERGY, 7, ("breakaway", "chase")),  # 28
    (ENERGY, 9, ("nimble",)),  # 29
)
RECOVERY_CODES = frozenset(i for i, spec in enumerate(CARD_SPECS) if RECOVERY in spec[2])


def plain(value: int) -> int:
    """The code of a plain energy card of ``value`` (2..11)."""
    return value


ROULEUR_DECK: tuple[int, ...] = tuple(plain(v) for v in (3, 4, 5, 6, 7) for _ in range(3))  # FR-2
SPRINTEUR_DECK: tuple[int, ...] = tuple(plain(v) for v in (2, 3, 4, 5, 9) for _ in range(3))

# FR-63: specialist -> (base role, removed plain values, added card codes).
SPECIALISTS: dict[str, tuple[str, tuple[int, ...], tuple[int, ...]]] = {
    "baroudeur": (ROULEUR, (3, 5, 6, 6, 7), (12, 13, 13, 14)),
    "flandrien": (ROULEUR, (3, 4, 5, 6, 7), (15, 16, 17, 18, 19)),
    "grimpeur": (ROULEUR, (3, 3, 3, 6, 6, 6), (20, 20, 20, 21, 21, 21)),
    "domestique": (ROULEUR, (4, 4, 4), (22, 22, 22)),
    "super_rouleur": (ROULEUR, (5, 5, 6, 6), (23, 23, 24, 24)),
    "puncheur": (ROULEUR, (4, 6), (25,)),
    "descender": (SPRINTEUR, (3, 3, 3), (26, 26, 26)),
    "polyvalent": (SPRINTEUR, (4, 4, 4), (plain(3), plain(6), plain(6))),
    "mountaineer": (SPRINTEUR, (2, 3, 5, 9), (plain(4), 27, 27)),
    "squirrel": (SPRINTEUR, (2, 9), (28, 28)),
    "super_sprinteur": (SPRINTEUR, (5, 9, 9), (plain(4), plain(10), plain(11))),
    "flahute": (SPRINTEUR, (4, 9, 9), (plain(5), 29, 29)),
}

# FR-56: the Peloton's shared deck is a Rouleur deck plus two Attack cards.
PELOTON_DECK: tuple[int, ...] = (*ROULEUR_DECK, ATTACK_CODE, ATTACK_CODE)
# FR-57: the Muscle Sprinteur has one extra 5.
MUSCLE_SPRINTEUR_DECK: tuple[int, ...] = (*SPRINTEUR_DECK, plain(5))


def card_values(strong_descents_value: int) -> list[int]:
    """Value of every card code for a stage (Strong Descents resolved, FR-64)."""
    return [strong_descents_value if v is None else v for _, v, _ in CARD_SPECS]


def card(code: int, strong_descents_value: int) -> Card:
    """The :class:`Card` of ``code`` with the stage's Strong Descents value."""
    kind, value, symbols = CARD_SPECS[code]
    return Card(kind, strong_descents_value if value is None else value, symbols)


def build_deck(role: str, specialist: str | None, exhaustion: int = 0) -> list[int]:
    """A rider's full deck (FR-5): base deck, specialist changes (FR-63), carried exhaustion.

    Raises :class:`SetupError` for an unknown role or specialist, or a specialist on the wrong
    rider type.
    """
    if role == ROULEUR:
        deck = list(ROULEUR_DECK)
    elif role == SPRINTEUR:
        deck = list(SPRINTEUR_DECK)
    else:
        raise SetupError(
            f"Unknown rider role {role!r}; expected rouleur or sprinteur.",
            "unknown_role",
            role=role,
        )
    if specialist is not None:
        spec = SPECIALISTS.get(specialist)
        if spec is None:
            raise SetupError(
                f"Unknown specialist {specialist!r}.",
                "unknown_specialist",
                specialist=specialist,
                choices=sorted(SPECIALISTS),
            )
        base, removed, added = spec
        if base != role:
            raise SetupError(
                f"Specialist {specialist!r} is a {base} specialist; this rider is a {role}.",
                "specialist_wrong_role",
                specialist=specialist,
                role=role,
                expected=base,
            )
        for value in removed:
            deck.remove(plain(value))
        deck.extend(added)
    deck.extend([EXHAUSTION_CODE] * exhaustion)
    return deck


__all__ = [
    "ATTACK_CODE",
    "CARD_SPECS",
    "EXHAUSTION_CODE",
    "SPECIALISTS",
    "Card",
    "build_deck",
    "card",
    "card_values",
]
