"""The automatic rider policy of FR-67..FR-69: which card a player-team rider keeps.

The policy sees the state at the start of the round only (FR-67) and never uses the RNG (FR-66),
so a stage is reproducible from its seed. It is written for speed: plain ints and lists.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.flamme_rouge.cards import EXHAUSTION_CODE
from games.flamme_rouge.track import DESCENT, SUPPLY

HELD_VALUE = 9  # FR-68 step 5: a Sprinteur keeps his 9s (and the Super Sprinteur's 10 and 11)


def choose_card(
    hand: Sequence[int],
    values: Sequence[int],
    start: int,
    dest_row: Sequence[int],
    last: int,
    sprinting: bool,
    hold_high: bool,
    start_terrain: str,
    proj: Sequence[int],
    own_mark: int,
    slip_ok: Sequence[bool],
    stacks: Sequence[tuple[int, int]],
    weights: Sequence[float],
) -> int:
    """Index in ``hand`` of the card to play (FR-68).

    ``proj[sq]`` counts riders projected on ``sq`` (round-start square plus the expected move);
    ``own_mark`` is this rider's own first projected square (he is marked on it and the next).
    ``stacks`` lists ``(square, top token value)`` of stacks with tokens left. ``sprinting`` is
    step 3's condition, computed by the caller only near the line.
    """
    count = len(hand)
    targets = [dest_row[values[c]] for c in hand]
    # Steps 2 and 3: cross the line as far as possible, or sprint with the biggest move. Both
    # maximise the projected square; ties go to the lower card, then the earlier draw (step 6).
    if sprinting or max(targets) > last:
        best = 0
        for k in range(1, count):
            if targets[k] > targets[best] or (
                targets[k] == targets[best] and values[hand[k]] < values[hand[best]]
            ):
                best = k
        return best
    candidates = range(count)
    if hold_high:
        kept = [k for k in candidates if values[hand[k]] < HELD_VALUE]
        if kept:
            candidates = kept  # type: ignore[assignment]
    if start_terrain in (DESCENT, SUPPLY):
        # Step 5: the floor makes low cards move as far; spend the lowest, exhaustion first.
        best = -1
        for k in candidates:
            if best < 0 or _lower(hand[k], hand[best], values):
                best = k
        return best
    w_slip, w_token, w_exposed, w_value, w_exhaustion = weights
    best, best_score = -1, 0.0
    for k in candidates:
        code = hand[k]
        p = targets[k]
        # Discount the rider's own marks (own_mark and own_mark + 1): nobody drafts himself.
        ahead1 = proj[p + 1] - (own_mark == p + 1) - (own_mark == p)
        ahead2 = proj[p + 2] - (own_mark == p + 2) - (own_mark == p + 1)
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


def _lower(code: int, other: int, values: Sequence[int]) -> bool:
    """Is ``code`` a lower card than ``other``? Exhaustion beats a plain card of equal value."""
    a, b = values[code], values[other]
    if a != b:
        return a < b
    return code == EXHAUSTION_CODE and other != EXHAUSTION_CODE


__all__ = ["choose_card"]
