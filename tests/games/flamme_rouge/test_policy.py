"""The automatic policy (FR-68): finish, sprint, scoring, descent/supply, held nines, ties."""

from __future__ import annotations

from games.flamme_rouge.cards import EXHAUSTION_CODE, card_values, plain
from games.flamme_rouge.policy import PolicyView, choose_card
from games.flamme_rouge.rules import StageRules
from games.flamme_rouge.tables import tables_for

VALUES = card_values(3)
WEIGHTS = StageRules().policy_weights


def choose(
    course: str,
    hand: list[int],
    start: int,
    *,
    sprinting: bool = False,
    hold: bool = False,
    others: tuple[int, ...] = (),
    stacks: tuple[tuple[int, int], ...] = (),
) -> int:
    """Card value (or code for exhaustion) the policy plays; ``others`` = projected squares."""
    tables = tables_for(course, StageRules(tour_mode=False))
    proj = [0] * (tables.n + 40)
    own = start + 4
    proj[own] += 1
    proj[own + 1] += 1
    for square in others:
        proj[square] += 1
    view = PolicyView(VALUES, tables.last, WEIGHTS, tables.slip_ok, 2, 2 * max(VALUES))
    k = choose_card(view, hand, start, tables, sprinting, hold, proj, list(stacks), 4)
    return hand[k]


def test_finish_plays_the_card_that_goes_furthest() -> None:
    # "abu": L = 13. From 10 a 5 and a 7 both cross; the 7 goes further (step 2).
    assert choose("abu", [plain(3), plain(7), plain(5)], 10) == plain(7)


def test_finish_tie_takes_the_lower_card() -> None:
    # Clamped at the last square (18) both a 9 and a 7 end on 18: keep the 9 (step 6).
    assert choose("abu", [plain(9), plain(7)], 12) == plain(7)


def test_sprint_plays_the_biggest_move() -> None:
    assert choose("abcu", [plain(3), plain(9), plain(5)], 8, sprinting=True) == plain(9)


def test_no_nine_wasted_on_an_ascent() -> None:
    # Start on N (ascent): 9, 7 and 5 all move 5; even sprinting he spends the 5.
    hand = [plain(9), plain(7), plain(5)]
    assert choose("abNu", hand, 13, sprinting=True) == plain(5)
    assert choose("abNu", hand, 13) == plain(5)


def test_sprinteur_holds_nines_outside_the_sprint() -> None:
    hand = [plain(9), plain(2), plain(3)]
    assert choose("abcdu", hand, 3, hold=True) != plain(9)
    assert choose("abcdu", [plain(9), plain(9)], 3, hold=True) == plain(9)


def test_descent_start_plays_the_lowest_card_exhaustion_first() -> None:
    hand = [plain(5), plain(2), EXHAUSTION_CODE, plain(4)]
    assert choose("aBcdu", hand, 7) == EXHAUSTION_CODE
    assert choose("a3cdu", [plain(6), plain(3), plain(4)], 7) == plain(3)  # supply


def test_prefers_the_slipstream_spot() -> None:
    # Others projected on 12 and 13: a 3 from 8 lands on 11, right behind them; a 7 would be
    # exposed on 15 (FR-68 step 4).
    assert choose("abcdu", [plain(7), plain(3)], 8, others=(12, 13)) == plain(3)
    # Alone, the bigger move wins despite the value penalty.
    assert choose("abcdu", [plain(7), plain(3)], 8) == plain(7)


def test_token_bonus() -> None:
    # Others projected on 14: a 5 sits behind them (5.5), a 7 is exposed on 15 (3.4) unless a
    # stack on 15 worth 4 lies in reach (7.4).
    hand = [plain(5), plain(7)]
    assert choose("abcdu", hand, 8, others=(14,)) == plain(5)
    assert choose("abcdu", hand, 8, others=(14,), stacks=((15, 4),)) == plain(7)
    assert choose("abcdu", hand, 8, others=(14,), stacks=((16, 4),)) == plain(5)  # out of reach
