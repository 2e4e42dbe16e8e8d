"""Helpers for the Rallyman engine tests: a one-tile lab stage and scripted turns.

A plain module with a unique name (not a conftest) so that test files import it directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.rallyman.dice import ScriptedChance
from games.rallyman.engine import CarState, Plan, StageState, Step, TurnContext, make_context
from games.rallyman.layout import parse_layout
from games.rallyman.track import Track, build_track
from games.rallyman.turn import TurnRecord, play_turn
from scoring.rally.rules import RallyRules


def lab_track(*pieces: dict[str, Any], danger: str = "none") -> Track:
    """A one-tile stage "A": start, ``pieces``, finish (piece p is labelled ``A.p``)."""
    doc = {
        "format": 1,
        "name": "Lab",
        "tiles": [
            {
                "name": "A",
                "danger": danger,
                "pieces": [{"kind": "start"}, *pieces, {"kind": "finish"}],
            }
        ],
    }
    return build_track(parse_layout(doc))


class Lab:
    """A stage state on a lab track with cars 1..n, and shortcuts to play scripted turns."""

    def __init__(self, track: Track, cars: int = 1, rules: RallyRules | None = None) -> None:
        self.track = track
        self.rules = rules or RallyRules()
        self.state = StageState(track, self.rules, [CarState(c, c) for c in range(1, cars + 1)])

    def sid(self, label: str) -> int:
        """Space id of a label."""
        return self.track.labels.index(label)

    def place(self, car: int, label: str, gear: int = 0, tokens: int = 0) -> CarState:
        """Put a car on the track."""
        return self.state.place(car, label, gear=gear, tokens=tokens)

    def ctx(self, car: int = 1, leader: bool = False) -> TurnContext:
        """The turn context of ``car``."""
        return make_context(self.state, self.state.car(car), leader=leader)

    def step(self, label: str, gear: int = 0, brakes: int = 0, landing: str = "") -> Step:
        """A step onto ``label`` (``gear`` 0 = coast die)."""
        return Step(
            self.sid(label), gear, brakes=brakes, landing=self.sid(landing) if landing else -1
        )

    def play(
        self,
        steps: Sequence[Step],
        *,
        hazards: str = "",
        draws: Sequence[str] = (),
        big: bool = False,
        car: int = 1,
        leader: bool = False,
        decisions: Sequence[str] = (),
    ) -> tuple[TurnRecord, ScriptedChance]:
        """Play one turn with scripted dice (``x`` hazard, ``.`` safe) and decisions."""
        chance = ScriptedChance(hazards, draws)
        queue = list(decisions)

        def decide(ctx: TurnContext, roll: object) -> str:
            return queue.pop(0) if queue else "roll"

        record = play_turn(
            self.ctx(car, leader), Plan(tuple(steps), big_attack=big), chance, decide
        )
        assert chance.unused == (0, 0), "every scripted result must be used"
        return record, chance


STRAIGHT = {"kind": "straight", "rows": 8}


def straight_lab(**kwargs: Any) -> Lab:
    """Start, 8 straight rows (A.1.r0..r7), finish (A.2)."""
    return Lab(lab_track(STRAIGHT), **kwargs)
