"""Builders shared by the Flamme Rouge engine tests."""

from __future__ import annotations

from typing import Any

from games.flamme_rouge import RiderEntry, StageRules, StageSetup, TeamEntry, official_course
from games.flamme_rouge.engine import LOG_COLUMNS
from games.flamme_rouge.setup import Stack

COL = {name: index for index, name in enumerate(LOG_COLUMNS)}


def teams(count: int, **riders: Any) -> tuple[TeamEntry, ...]:
    """``count`` teams with ids 1..count; riders 10t+1 (rouleur) and 10t+2 (sprinteur).

    ``riders`` maps a rider id (as ``r11``) to RiderEntry overrides (specialist, exhaustion).
    """
    out = []
    for t in range(1, count + 1):
        entries = []
        for offset, role in ((1, "rouleur"), (2, "sprinteur")):
            rid = 10 * t + offset
            entries.append(RiderEntry(rid, role, **riders.get(f"r{rid}", {})))
        out.append(TeamEntry(t, tuple(entries)))
    return tuple(out)


def setup(
    course: str | int = 1,
    count: int = 4,
    *,
    stacks: tuple[Stack, ...] = (),
    dummies: str = "none",
    rules: StageRules | None = None,
    order: tuple[int, ...] | None = None,
    **riders: Any,
) -> StageSetup:
    text = official_course(course).small if isinstance(course, int) else course
    return StageSetup(
        course=text,
        teams=teams(count, **riders),
        stacks=stacks,
        placement_order=order,
        dummy_teams=dummies,
        rules=rules or StageRules(),
    )
