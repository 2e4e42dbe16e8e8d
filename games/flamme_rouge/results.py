"""The final roster as results (FR-70, FR-72), the stage header (FR-71) and the log (FR-73)."""

from __future__ import annotations

from typing import Any

from games.flamme_rouge.cards import CARD_SPECS, card
from games.flamme_rouge.outcome import RiderResult, StageOutcome
from games.flamme_rouge.roster import PLAYER, Roster
from games.flamme_rouge.setup import StageSetup
from games.flamme_rouge.tables import Tables
from scoring.params import rules_to_json


def finishing_order(ro: Roster) -> list[int]:
    """FR-72: crossing round, then squares past the line (more first), then lane (right first).

    In base mode riders who never crossed follow, in race order where they stand.
    """
    crossed = [i for i in range(len(ro.rider_id)) if ro.crossing_round[i] is not None]
    crossed.sort(key=lambda i: (ro.crossing_round[i], -ro.squares_past[i], ro.final_lane[i]))
    rest = [i for i in range(len(ro.rider_id)) if ro.crossing_round[i] is None]
    rest.sort(key=lambda i: (-ro.pos[i], ro.lane[i]))
    return crossed + rest


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
    riders: list[RiderResult] = []
    for position, i in enumerate(finishing_order(ro), start=1):
        tokens = ro.tokens[i]
        deck = sorted(ro.deck[i] + ro.recycled[i] + ro.aside[i])
        riders.append(
            RiderResult(
                rider_id=ro.rider_id[i],
                team_id=ro.team_id[i],
                rider_type=ro.rider_type[i],
                is_dummy=ro.ctrl[i] != PLAYER,
                position=position,
                crossing_round=ro.crossing_round[i],
                squares_past=ro.squares_past[i],
                lane=ro.final_lane[i] if ro.crossing_round[i] is not None else ro.lane[i],
                minutes=ro.minutes[i],
                seconds=ro.seconds[i],
                sprint_points=sum(v for _, v, side in tokens if side == 0),
                mountain_points=sum(v for _, v, side in tokens if side == 1),
                tokens=tuple((stack, value) for stack, value, _ in tokens),
                exhaustion_end=ro.exhaustion_end[i],
                exhaustion_taken=ro.exhaustion_taken[i],
                exhaustion_played=ro.exhaustion_played[i],
                deck_end=tuple(card(code, sd) for code in deck),
            )
        )
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
