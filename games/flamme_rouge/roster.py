"""The riders of a stage as parallel lists, their decks, and the start grid (FR-16..FR-19, FR-60).

Canonical rider order (FR-66): player teams in entry order, Rouleur before Sprinteur; then the
Peloton's two riders (one shared deck); then the Muscle team, Rouleur before Sprinteur.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

from games.flamme_rouge.cards import (
    EXHAUSTION_CODE,
    MUSCLE_SPRINTEUR_DECK,
    PELOTON_DECK,
    ROULEUR,
    ROULEUR_DECK,
    SPRINTEUR,
    build_deck,
)
from games.flamme_rouge.setup import MUSCLE_TEAM_ID, PELOTON_TEAM_ID, StageSetup
from games.flamme_rouge.tables import Tables

PLAYER, PELOTON, MUSCLE = 0, 1, 2
PELOTON_TYPE = "peloton"
SIDES = ("sprint", "mountain")


@dataclass(slots=True)
class StackState:
    """A token stack during the stage (FR-52, FR-53): its tokens left, best first."""

    square: int
    tokens: list[int]
    id: str
    side: int  # index in SIDES


class TokenAward(NamedTuple):
    """FR-54: a token a rider took from a stack."""

    rider: int  # rider index
    stack_id: str
    value: int
    side: int  # index in SIDES


@dataclass(slots=True)
class Roster:
    """Mutable per-rider state of one stage; index = canonical rider index."""

    rider_id: list[int] = field(default_factory=list)
    team_id: list[int] = field(default_factory=list)
    rider_type: list[str] = field(default_factory=list)
    ctrl: list[int] = field(default_factory=list)
    deck: list[list[int]] = field(default_factory=list)  # face down, top = last element
    recycled: list[list[int]] = field(default_factory=list)
    aside: list[list[int]] = field(default_factory=list)  # played energy cards (FR-36)
    supply_type: list[int] = field(default_factory=list)  # 0 Rouleur supply, 1 Sprinteur
    pos: list[int] = field(default_factory=list)
    lane: list[int] = field(default_factory=list)
    occ: list[list[int]] = field(default_factory=list)  # occ[sq][lane - 1] = rider or -1
    cnt: list[int] = field(default_factory=list)  # riders per square
    supply: list[int] | None = None
    stacks: list[StackState] = field(default_factory=list)  # in input order
    placement_order: list[int] = field(default_factory=list)
    grid: list[list[int]] = field(default_factory=list)  # [rider id, square, lane], as placed
    crossing_round: list[int] = field(default_factory=list)  # 0 = not crossed (yet)
    squares_past: list[int] = field(default_factory=list)
    final_lane: list[int] = field(default_factory=list)
    minutes: list[int] = field(default_factory=list)
    seconds: list[int] = field(default_factory=list)
    tokens: list[list[TokenAward]] = field(default_factory=list)
    exhaustion_taken: list[int] = field(default_factory=list)
    exhaustion_played: list[int] = field(default_factory=list)
    exhaustion_end: list[int] = field(default_factory=list)

    def add(self, rider_id: int, team_id: int, rider_type: str, ctrl: int, deck: list[int]) -> int:
        """Append a rider; returns his index."""
        self.rider_id.append(rider_id)
        self.team_id.append(team_id)
        self.rider_type.append(rider_type)
        self.ctrl.append(ctrl)
        self.deck.append(deck)
        self.recycled.append([])
        self.aside.append([])
        self.supply_type.append(1 if rider_type == SPRINTEUR else 0)
        for column in (self.pos, self.lane, self.squares_past, self.final_lane, self.minutes):
            column.append(0)
        for column in (self.seconds, self.exhaustion_taken, self.exhaustion_played):
            column.append(0)
        self.exhaustion_end.append(0)
        self.crossing_round.append(0)
        self.tokens.append([])
        return len(self.rider_id) - 1

    def held_exhaustion(self, i: int) -> int:
        """Exhaustion cards in rider ``i``'s face-down deck and recycled pile (FR-70)."""
        return self.deck[i].count(EXHAUSTION_CODE) + self.recycled[i].count(EXHAUSTION_CODE)


def build_roster(setup: StageSetup, tables: Tables, rng: random.Random) -> Roster:
    """Riders, decks, grid and stacks; uses the RNG in the order of FR-66 (order draw, shuffles)."""
    rules = setup.rules
    ro = Roster()
    order = list(setup.placement_order) if setup.placement_order is not None else []
    if not order:
        order = [team.id for team in setup.teams]
        rng.shuffle(order)  # FR-18: standalone runs draw their own placement order
    ro.placement_order = order
    by_team: dict[int, dict[str, int]] = {}
    for team in setup.teams:
        for rider in sorted(team.riders, key=lambda r: r.role != ROULEUR):
            deck = build_deck(rider.role, rider.specialist, rider.exhaustion)
            index = ro.add(rider.id, team.id, rider.role, PLAYER, deck)
            by_team.setdefault(team.id, {})[rider.role] = index
    shuffles: list[list[int]] = [ro.deck[i] for i in range(len(ro.rider_id))]
    placing = _add_dummies(ro, setup.dummy_teams, shuffles)
    first = rules.policy_first_placed  # FR-69
    second = ROULEUR if first == SPRINTEUR else SPRINTEUR
    placing += [by_team[team][first] for team in order]  # FR-17: one rider per turn, cycling
    placing += [by_team[team][second] for team in order]
    _place(ro, tables, placing)
    for deck in shuffles:  # FR-19, canonical order
        rng.shuffle(deck)
    limit = rules.exhaustion_limit
    if limit is not None:
        # FR-3: carried exhaustion cards are out of the supply already.
        carried = [0, 0]
        for i, deck in enumerate(ro.deck):
            if ro.ctrl[i] == PLAYER:
                carried[ro.supply_type[i]] += deck.count(EXHAUSTION_CODE)
        ro.supply = [max(0, limit - carried[0]), max(0, limit - carried[1])]
    for stack in setup.stacks:
        values = rules.major_tokens if stack.type == "major" else rules.minor_tokens
        # FR-53: riders always take the best token left, so keep them sorted best first.
        tokens = sorted(values, reverse=True)
        ro.stacks.append(StackState(stack.square, tokens, stack.id, SIDES.index(stack.side)))
    return ro


def _add_dummies(ro: Roster, dummy_teams: str, shuffles: list[list[int]]) -> list[int]:
    """FR-56/FR-57 dummy riders and decks; returns them in FR-60 placing order."""
    placing: list[int] = []
    if dummy_teams in ("peloton", "both"):
        shared = list(PELOTON_DECK)  # FR-56: one deck for both riders
        placing += [ro.add(rid, PELOTON_TEAM_ID, PELOTON_TYPE, PELOTON, shared) for rid in (-1, -2)]
        shuffles.append(shared)
    if dummy_teams in ("muscle", "both"):
        rouleur = ro.add(-4, MUSCLE_TEAM_ID, ROULEUR, MUSCLE, list(ROULEUR_DECK))
        sprinteur = ro.add(-3, MUSCLE_TEAM_ID, SPRINTEUR, MUSCLE, list(MUSCLE_SPRINTEUR_DECK))
        placing += [sprinteur, rouleur]  # FR-60: Sprinteur ahead of Rouleur
        shuffles += [ro.deck[rouleur], ro.deck[sprinteur]]
    return placing


def _place(ro: Roster, tables: Tables, placing: list[int]) -> None:
    """FR-16: each rider takes the rightmost free lane of the foremost free start square."""
    size = tables.n + 2 + 20
    ro.occ = [[-1] * tables.lanes[sq] if sq < len(tables.lanes) else [] for sq in range(size)]
    ro.cnt = [0] * size
    slots = [
        (sq, lane)
        for sq in sorted(tables.course.start_squares, reverse=True)
        for lane in range(1, tables.lanes[sq] + 1)
    ]
    for i, (sq, lane) in zip(placing, slots, strict=False):
        ro.pos[i], ro.lane[i] = sq, lane
        ro.occ[sq][lane - 1] = i
        ro.cnt[sq] += 1
        ro.grid.append([ro.rider_id[i], sq, lane])


__all__ = ["MUSCLE", "PELOTON", "PLAYER", "Roster", "StackState", "TokenAward", "build_roster"]
