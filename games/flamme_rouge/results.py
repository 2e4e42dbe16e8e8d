"""The final roster as results (FR-70, FR-72), the stage header (FR-71) and the log (FR-73)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.flamme_rouge.cards import CARD_SPECS, EXHAUSTION_CODE, card
from games.flamme_rouge.outcome import RiderResult, StageOutcome
from games.flamme_rouge.roster import PELOTON, PLAYER, Roster
from games.flamme_rouge.setup import StageSetup
from games.flamme_rouge.tables import Tables
from scoring.params import rules_to_json


def finishing_order(ro: Roster) -> list[int]:
    """FR-72: crossing round, then squares past the line (more first), then lane (right first).

    In base mode riders who never crossed follow, in race order where they stand.
    """
    crossed = [i for i in range(len(ro.rider_id)) if ro.crossing_round[i]]
    crossed.sort(key=lambda i: (ro.crossing_round[i], -ro.squares_past[i], ro.final_lane[i]))
    rest = [i for i in range(len(ro.rider_id)) if not ro.crossing_round[i]]
    rest.sort(key=lambda i: (-ro.pos[i], ro.lane[i]))
    return crossed + rest


@dataclass(frozen=True, slots=True)
class _Deck:
    """FR-70's deck fields of one rider: the deck he carries forward and its exhaustion counts."""

    cards: list[int]
    exhaustion_end: int
    exhaustion_taken: int
    exhaustion_played: int


def _decks(ro: Roster) -> list[_Deck]:
    """Every rider's deck; the Peloton's shared deck (FR-56) is reported once, on its first rider.

    Its face-down cards and the cards either rider played belong to one deck, so listing them
    under both riders would count them twice; the second rider reports an empty deck.
    """
    decks = [
        _Deck(
            ro.deck[i] + ro.recycled[i] + ro.aside[i],
            ro.exhaustion_end[i],
            ro.exhaustion_taken[i],
            ro.exhaustion_played[i],
        )
        for i in range(len(ro.rider_id))
    ]
    peloton = [i for i, c in enumerate(ro.ctrl) if c == PELOTON]
    if peloton:
        owner = peloton[0]
        cards = list(ro.deck[owner])  # frozen since the last of them left the track
        for i in peloton:
            cards += ro.aside[i]
        decks[owner] = _Deck(
            cards,
            cards.count(EXHAUSTION_CODE),
            sum(ro.exhaustion_taken[i] for i in peloton),
            sum(ro.exhaustion_played[i] for i in peloton),
        )
        for i in peloton[1:]:
            decks[i] = _Deck([], 0, 0, 0)
    return decks


def _rider(ro: Roster, i: int, position: int, deck: _Deck, last: int, sd: int) -> RiderResult:
    """FR-70: one rider's result. A base-mode rider who never crossed has crossing_round 0
    and ``squares_past`` = his square - L (0 or less: squares short of the line)."""
    crossed = bool(ro.crossing_round[i])
    tokens = ro.tokens[i]
    return RiderResult(
        rider_id=ro.rider_id[i],
        team_id=ro.team_id[i],
        rider_type=ro.rider_type[i],
        is_dummy=ro.ctrl[i] != PLAYER,
        position=position,
        crossing_round=ro.crossing_round[i],
        squares_past=ro.squares_past[i] if crossed else ro.pos[i] - last,
        lane=ro.final_lane[i] if crossed else ro.lane[i],
        minutes=ro.minutes[i],
        seconds=ro.seconds[i],
        sprint_points=sum(t.value for t in tokens if t.side == 0),
        mountain_points=sum(t.value for t in tokens if t.side == 1),
        tokens=tuple((t.stack_id, t.value) for t in tokens),
        exhaustion_end=deck.exhaustion_end,
        exhaustion_taken=deck.exhaustion_taken,
        exhaustion_played=deck.exhaustion_played,
        deck_end=tuple(card(code, sd) for code in sorted(deck.cards)),
    )


def build_outcome(
    ro: Roster,
    setup: StageSetup,
    tables: Tables,
    seed: int | None,
    version: str,
    rounds: int,
    r1: int | None,
    log_rounds: list[dict[str, Any]],
    columns: tuple[str, ...],
) -> StageOutcome:
    """Assemble the :class:`StageOutcome` of a finished stage."""
    sd = setup.rules.strong_descents_value
    decks = _decks(ro)
    riders = [
        _rider(ro, i, position, decks[i], tables.last, sd)
        for position, i in enumerate(finishing_order(ro), start=1)
    ]
    course = tables.course
    header: dict[str, Any] = {
        "seed": seed,
        "stage": setup.number,
        "version": version,
        "rules": rules_to_json(setup.rules),
        "course": {
            "text": course.text,
            "profile": course.profile(),
            "length": course.length,
            "last_before_line": course.last_before_line,
            "finish": course.finish,
        },
        "dummy_teams": setup.dummy_teams,
        "placement_order": list(ro.placement_order),
        "r1": r1,
        "rounds": rounds,
        "winner": riders[0].rider_id,
    }
    log: dict[str, Any] = {
        "version": version,
        "columns": list(columns),
        "cards": [
            [kind, sd if value is None else value, list(sym)] for kind, value, sym in CARD_SPECS
        ],
        "riders": [
            [ro.rider_id[i], ro.team_id[i], ro.rider_type[i]] for i in range(len(ro.rider_id))
        ],
        "grid": ro.grid,
        "stacks": [[s.id, s.type, s.side, s.square] for s in setup.stacks],
        "rounds": log_rounds,
    }
    return StageOutcome(riders=tuple(riders), header=header, log=log)


__all__ = ["build_outcome", "finishing_order"]
