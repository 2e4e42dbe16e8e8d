"""Decks: base decks (FR-2), specialist changes (FR-63), carried exhaustion (FR-5), errors."""

from __future__ import annotations

import pytest

from games.flamme_rouge.cards import (
    EXHAUSTION_CODE,
    MUSCLE_SPRINTEUR_DECK,
    PELOTON_DECK,
    SPECIALISTS,
    build_deck,
    card,
    card_values,
)
from games.flamme_rouge.errors import SetupError

# FR-63 table: specialist -> (cards, sum) with strong_descents_value = 3.
FR63 = {
    "baroudeur": (14, 72),
    "flandrien": (15, 75),
    "grimpeur": (15, 75),
    "domestique": (15, 75),
    "super_rouleur": (15, 75),
    "puncheur": (14, 73),
    "descender": (15, 69),
    "polyvalent": (15, 72),
    "mountaineer": (14, 68),
    "squirrel": (15, 72),
    "super_sprinteur": (15, 71),
    "flahute": (15, 70),
}


def total(deck: list[int], sd: int = 3) -> int:
    values = card_values(sd)
    return sum(values[c] for c in deck)


def test_base_decks() -> None:
    assert (len(build_deck("rouleur", None)), total(build_deck("rouleur", None))) == (15, 75)
    assert (len(build_deck("sprinteur", None)), total(build_deck("sprinteur", None))) == (15, 69)
    assert len(PELOTON_DECK) == 17 and len(MUSCLE_SPRINTEUR_DECK) == 16


@pytest.mark.parametrize("name", sorted(FR63))
def test_specialist_decks_match_fr63(name: str) -> None:
    role = SPECIALISTS[name][0]
    deck = build_deck(role, name)
    assert (len(deck), total(deck)) == FR63[name]


def test_strong_descents_value() -> None:
    deck = build_deck("rouleur", "grimpeur")
    assert total(deck, sd=7) == 75 + 12
    assert card(20, 7).value == 7 and card(20, 7).symbols == ("strong_descents",)


def test_recovery_and_symbols() -> None:
    deck = build_deck("rouleur", "domestique")
    assert sorted(card(c, 3).label for c in deck).count("4*") == 3
    assert card(EXHAUSTION_CODE, 3).label == "X"


def test_carried_exhaustion() -> None:
    deck = build_deck("sprinteur", None, exhaustion=3)
    assert len(deck) == 18 and deck.count(EXHAUSTION_CODE) == 3


def test_errors() -> None:
    with pytest.raises(SetupError) as info:
        build_deck("rouleur", "climber")
    assert info.value.code == "unknown_specialist"
    with pytest.raises(SetupError) as info:
        build_deck("rouleur", "flahute")
    assert info.value.code == "specialist_wrong_role"
    assert info.value.params == {
        "specialist": "flahute",
        "role": "rouleur",
        "expected": "sprinteur",
    }
    with pytest.raises(SetupError) as info:
        build_deck("peloton", None)
    assert info.value.code == "unknown_role"
