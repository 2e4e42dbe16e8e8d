"""The automatic rider policy of FR-67..FR-69: which card a player-team rider keeps.

The policy sees the state at the start of the round only (FR-67) and never uses the RNG (FR-66),
so a stage is reproducible from its seed. It is written for speed: plain ints and lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.flamme_rouge.cards import EXHAUSTION_CODE
from games.flamme_rouge.tables import Tables
from games.flamme_rouge.track import DESCENT, SUPPLY

HELD_VALUE = 9  # FR-68 step 5: a Sprinteur keeps his 9s (and the Super Sprinteur's 10 and 11)


@dataclass(frozen=True, slots=True)
class PolicyView:
    """What the policy knows of a stage besides the round: card values, the line, its weights."""

    values: Sequence[int]  # value of every card code (FR-64 Strong Descents resolved)
    last: int  # L of FR-14
    weights: Sequence[float]  # FR-68 step 4: slip, token, exposed, value, exhaustion
    slip_ok: Sequence[bool]  # FR-37 by square
    sprint_cards: int  # FR-68 step 3
    sprint_reach: int  # no sprint check is needed further from the line than this


def choose_card(
    view: PolicyView,
    hand: Sequence[int],
    start: int,
    tables: Tables,
    sprinting: bool,
    hold_high: bool,
    proj: Sequence[int],
    stacks: Sequence[tuple[int, int]],
    expected: int,
) -> int:
    """Index in ``hand`` of the card to play (FR-68).

    ``proj[sq]`` counts riders projected on ``sq`` (round-start square plus the expected move;
    this rider is marked on ``start + expected`` and the next). ``stacks`` lists ``(square, top
    token value)`` of stacks with tokens left. ``sprinting`` is step 3's condition, computed by
    the caller only near the line.
    """
    values = view.values
    dest_row = tables.card_dest[start]
    targets = [dest_row[c] for c in hand]
    # Steps 2 and 3: cross the line as far as possible, or sprint with the biggest move.
    if sprinting or max(targets) > view.last:
        return _furthest(hand, targets, values)
    candidates = _keep_high(hand, values) if hold_high else range(len(hand))
    if tables.terrain[start] in (DESCENT, SUPPLY):
        return _lowest(hand, candidates, values)
    # Step 4: the best m + 2·slip + token - 1.5·exposed - 0.3·value + is_exhaustion.
    slip_ok = view.slip_ok
    w_slip, w_token, w_exposed, w_value, w_exhaustion = view.weights
    own = start + expected  # the rider's own marks, own and own + 1: nobody drafts himself
    best, best_score = -1, 0.0
    for k in candidates:
        code = hand[k]
        p = targets[k]
        ahead1 = proj[p + 1] - (own == p + 1) - (own == p)
        ahead2 = proj[p + 2] - (own == p + 2) - (own == p + 1)
        slip = slip_ok[p] and slip_ok[p + 1] and (ahead1 > 0 or (ahead2 > 0 and slip_ok[p + 2]))
        token = 0
        for square, top in stacks:
            if start < square <= p and top > token:
                token = top
        score = (
            (p - start)
            + w_slip * slip
            + w_token * token
            - w_exposed * (ahead1 <= 0)
            - w_value * values[code]
            + w_exhaustion * (code == EXHAUSTION_CODE)
        )
        if (
            best < 0
            or score > best_score
            or (score == best_score and values[code] < values[hand[best]])
        ):
            best, best_score = k, score
    return best


def _furthest(hand: Sequence[int], targets: Sequence[int], values: Sequence[int]) -> int:
    """The furthest projected square; ties to the lower card, then the earlier draw (step 6)."""
    best = 0
    for k in range(1, len(hand)):
        if targets[k] > targets[best] or (
            targets[k] == targets[best] and values[hand[k]] < values[hand[best]]
        ):
            best = k
    return best


def _keep_high(hand: Sequence[int], values: Sequence[int]) -> Sequence[int]:
    """Indexes of the cards a Sprinteur may play while he keeps his 9s (step 5): all of them if
    he holds nothing else."""
    kept = [k for k in range(len(hand)) if values[hand[k]] < HELD_VALUE]
    return kept or range(len(hand))


def _lowest(hand: Sequence[int], candidates: Sequence[int], values: Sequence[int]) -> int:
    """Step 5 on a D or S start: the floor makes low cards move as far; spend the lowest card,
    exhaustion first."""
    best = candidates[0]
    for k in candidates:
        if _lower(hand[k], hand[best], values):
            best = k
    return best


def _lower(code: int, other: int, values: Sequence[int]) -> bool:
    """Is ``code`` a lower card than ``other``? Exhaustion beats a plain card of equal value."""
    a, b = values[code], values[other]
    if a != b:
        return a < b
    return code == EXHAUSTION_CODE and other != EXHAUSTION_CODE


__all__ = ["HELD_VALUE", "PolicyView", "choose_card"]
