"""The stage simulator: plays a Flamme Rouge stage round by round (FR-15..FR-60, FR-64..FR-73).

A :class:`_Stage` plays rounds until nobody is left on the track (Tour mode) or someone crosses
(base mode); each round is its energy phase, movement phase and end phase, one method per step.
Per-rider state lives in the :class:`Roster`'s parallel lists indexed by rider (canonical order,
FR-66) and on one list of lanes per square; cards are int codes (``cards.py``) and terrain
effects are table lookups (``tables.py``). Randomness comes from the one injected
``random.Random`` only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.flamme_rouge.cards import (
    ATTACK_CODE,
    EXHAUSTION_CODE,
    RECOVERY_CODES,
    SPRINTEUR,
    card_values,
)
from games.flamme_rouge.errors import SetupError, SimulationError
from games.flamme_rouge.movement import (
    award_tokens,
    find_packs,
    move_rider,
    pack_fronts,
    slipstream,
)
from games.flamme_rouge.outcome import StageOutcome
from games.flamme_rouge.policy import HELD_VALUE, PolicyView, choose_card
from games.flamme_rouge.results import build_outcome
from games.flamme_rouge.roster import PELOTON, PLAYER, Roster, build_roster
from games.flamme_rouge.setup import StageSetup, validate_setup
from games.flamme_rouge.tables import Tables, tables_for
from scoring.rng import derive_rng

# 1.1: FR-70 - every result field is an integer (a base-mode rider who never crosses has
# crossing_round 0) and the Peloton's shared deck is reported once, on its first rider.
SIMULATOR_VERSION = "1.1"
# FR-73 row of one rider in one round, in this column order (the log's legend repeats it).
LOG_COLUMNS = (
    "rider",
    "drawn",
    "played",
    "recycled",
    "reshuffled",
    "from",
    "from_lane",
    "move",
    "mods",
    "target",
    "to",
    "to_lane",
    "blocked",
    "slip",
    "exhausted",
    "recovered",
    "tokens",
    "crossed",
    "seconds",
    "minute",
)
NO_CARD = -1  # a dummy with an empty deck plays no card (FR-58)
_UNREVEALED = -2  # the Peloton's card of the round is not turned up yet


@dataclass(slots=True)
class _Round:
    """One round as it is played: per rider index, what was drawn, played and where he went.

    Every list is indexed by rider (``_Round.new`` sizes them); :meth:`_Stage._log_rows` turns them
    into the FR-73 rows.
    """

    number: int
    played: list[int]  # card code, NO_CARD for none
    value: list[int]  # move value before terrain (FR-29), after the Peloton's attack (FR-56)
    drawn: list[list[int] | None]  # in draw order (log only)
    recycled: list[list[int] | None]  # (log only)
    reshuffled: list[int]  # 1 when the deck was reshuffled (FR-22)
    recovered: list[int]  # 1 when a Recovery card returned an exhaustion card (FR-64)
    tokens: list[list[list[Any]] | None]  # [stack id, value] taken (FR-54)
    seconds: list[int | None]  # FR-48, in the crossing round
    minute: list[int]  # 1 for a minute token (FR-48)
    exhausted: list[int]  # 1 for an exhaustion card taken (FR-39)
    slip: list[int]  # squares gained in slipstream (FR-38)
    peloton_card: int = _UNREVEALED
    order: list[int] = field(default_factory=list)  # race order at the movement phase (FR-24)
    start: list[int] = field(default_factory=list)  # square before moving
    start_lane: list[int] = field(default_factory=list)
    target: list[int] = field(default_factory=list)  # square after FR-29 steps, before blocking
    after_move: list[int] = field(default_factory=list)  # square after moving (FR-27)
    lane_after_move: list[int] = field(default_factory=list)
    after: list[int] = field(default_factory=list)  # race order after slipstream
    packs: list[tuple[int, int]] = field(default_factory=list)
    crossed: list[int] = field(default_factory=list)  # in race order (FR-42)

    @classmethod
    def new(cls, number: int, size: int) -> _Round:
        """An empty round for ``size`` riders."""
        none: list[Any] = [None] * size
        zero = [0] * size
        return cls(
            number, [NO_CARD] * size, zero[:], none[:], none[:], zero[:], zero[:], none[:],
            none[:], zero[:], zero[:], zero[:],
        )  # fmt: skip


def simulate_stage(
    setup: StageSetup, rng: random.Random | int, *, record_log: bool = True
) -> StageOutcome:
    """Play one stage with automatic riders and return the results (FR-70..FR-73).

    ``rng`` is the stage's one random stream (FR-65); an int is taken as the tour's seed and turned
    into ``derive_rng(seed, "stage", setup.number)``, the service's convention. Raises
    :class:`CourseError` or :class:`SetupError` for bad input and :class:`SimulationError` when
    riders are still on the track after ``max_rounds`` (FR-45).
    """
    rules = setup.rules
    if rules.breakaway_variant:
        # FR-34 / open point 9: breakaway bidding is not modelled, so the variant cannot be played.
        raise SetupError(
            "The breakaway variant is not supported by the simulator.", "breakaway_unsupported"
        )
    text = setup.course if isinstance(setup.course, str) else setup.course.text
    tables = tables_for(text, rules)
    validate_setup(setup, tables.course)
    seed: int | None = None
    if isinstance(rng, random.Random):
        stream = rng
    else:
        seed = int(rng)
        stream = derive_rng(seed, "stage", setup.number)
    roster = build_roster(setup, tables, stream)
    stage = _Stage(roster, setup, tables, stream, record_log)
    stage.play()
    return build_outcome(
        roster,
        setup,
        tables,
        seed,
        SIMULATOR_VERSION,
        stage.rounds,
        stage.r1,
        stage.log_rounds,
        LOG_COLUMNS,
    )


class _Stage:
    """One stage being played: the roster, the course tables, the RNG and the round log."""

    def __init__(
        self, ro: Roster, setup: StageSetup, tables: Tables, rng: random.Random, record_log: bool
    ) -> None:
        rules = setup.rules
        self.ro, self.rules, self.tables, self.rng = ro, rules, tables, rng
        self.record_log = record_log
        self.values = card_values(rules.strong_descents_value)
        self.policy = PolicyView(
            values=self.values,
            last=tables.last,
            weights=rules.policy_weights,
            slip_ok=tables.slip_ok,
            sprint_cards=rules.policy_sprint_cards,
            # No sprint check is needed further out than the best cards could reach.
            sprint_reach=rules.policy_sprint_cards * max(self.values),
        )
        self.eligible = [c == PLAYER or rules.dummies_take_tokens for c in ro.ctrl]  # FR-55
        # FR-68 step 5: who keeps his 9s for the finish and the sprint.
        self.hold_high = [rules.policy_hold_nines and t == SPRINTEUR for t in ro.rider_type]
        self.expected = rules.policy_expected_move
        self.proj_size = tables.n + 2 * len(tables.dest[1]) + 4
        self.on = list(range(len(ro.pos)))  # riders on the track, canonical order
        # Race order of the riders on the track (FR-24); None before the first movement phase.
        # Nobody moves between two movement phases but in the end phase, which sorts them.
        self.race_order: list[int] | None = None
        self.rounds = 0
        self.r1: int | None = None
        self.log_rounds: list[dict[str, Any]] = []

    def play(self) -> None:
        """Play rounds until nobody is left on the track, or the first crossing in base mode."""
        ro = self.ro
        while self.on:
            self.rounds += 1
            if self.rounds > self.rules.max_rounds:
                raise SimulationError(
                    f"{len(self.on)} riders are still on the track after "
                    f"{self.rules.max_rounds} rounds.",
                    "max_rounds_exceeded",
                    max_rounds=self.rules.max_rounds,
                    riders=[ro.rider_id[i] for i in self.on],
                )
            rnd = self._energy_phase()
            self._movement_phase(rnd)
            self._end_phase(rnd)
            if rnd.crossed and not self.rules.tour_mode:
                break  # FR-41: base mode ends with the first round in which someone crosses
        for i in self.on:  # base mode: riders who never crossed keep their cards as they are
            ro.exhaustion_end[i] = ro.held_exhaustion(i)

    # --- energy phase (FR-20..FR-23, FR-56..FR-58) ---------------------------------------------

    def _energy_phase(self) -> _Round:
        """Draws in canonical order; every choice sees the state at the start of the round."""
        ro, on = self.ro, self.on
        size = len(ro.pos)
        rnd = _Round.new(self.rounds, size)
        proj = self._projection()
        live_stacks = [(s.square, s.tokens[0]) for s in ro.stacks if s.tokens]
        ctrl, deck, recycled, pos = ro.ctrl, ro.deck, ro.recycled, ro.pos
        values, policy, tables, hold_high = self.values, self.policy, self.tables, self.hold_high
        for i in on:
            if ctrl[i] != PLAYER:
                self._dummy_card(i, rnd)
                continue
            # FR-21: draw 4, keep one, put the other drawn cards face up on the recycled pile.
            hand = deck[i][-1:-5:-1]
            del deck[i][-4:]
            if len(hand) < 4 and recycled[i]:
                self._reshuffle(i, hand, rnd)
            if not hand:
                self._no_cards(i, rnd)
                continue
            start = pos[i]
            sprinting = policy.last + 1 - start <= policy.sprint_reach and self._sprinting(i, hand)
            k = choose_card(
                policy, hand, start, tables, sprinting, hold_high[i], proj, live_stacks,
                self.expected,
            )  # fmt: skip
            code = hand.pop(k)
            recycled[i].extend(hand)
            rnd.played[i] = code
            rnd.value[i] = values[code]
            if self.record_log:
                rnd.recycled[i] = hand[:]
                hand.insert(k, code)
                rnd.drawn[i] = hand
        return rnd

    def _projection(self) -> list[int]:
        """FR-68 step 4: riders projected at their square + E and + E + 1 (real moves scatter
        around E; a single mark makes whole packs crawl one behind it)."""
        proj = [0] * self.proj_size
        expected = self.rules.policy_expected_move
        pos = self.ro.pos
        for i in self.on:
            proj[pos[i] + expected] += 1
            proj[pos[i] + expected + 1] += 1
        return proj

    def _reshuffle(self, i: int, hand: list[int], rnd: _Round) -> None:
        """FR-22: a short deck - shuffle the recycled pile into a new deck, draw up to 4."""
        deck, recycled = self.ro.deck[i], self.ro.recycled[i]
        deck.extend(recycled)
        recycled.clear()
        self.rng.shuffle(deck)
        need = 4 - len(hand)
        hand += deck[-1 : -need - 1 : -1]
        del deck[len(deck) - min(need, len(deck)) :]
        rnd.reshuffled[i] = 1

    def _no_cards(self, i: int, rnd: _Round) -> None:
        """FR-22: no cards at all - an exhaustion card from the supply, value 2."""
        ro = self.ro
        if ro.supply is not None:
            ro.supply[ro.supply_type[i]] -= 1  # returned at step (a) like any played one
        rnd.played[i] = EXHAUSTION_CODE
        rnd.value[i] = self.values[EXHAUSTION_CODE]

    def _sprinting(self, i: int, hand: list[int]) -> bool:
        """FR-68 step 3: is the line within the sum of the rider's best remaining cards?

        Called only within ``sprint_reach`` of the line, where it can be true."""
        policy, ro, values = self.policy, self.ro, self.values
        remaining = sorted(values[c] for c in (*hand, *ro.deck[i], *ro.recycled[i]))
        return policy.last + 1 - ro.pos[i] <= sum(remaining[-policy.sprint_cards :])

    def _dummy_card(self, i: int, rnd: _Round) -> None:
        """FR-56..FR-58: a dummy turns up the top card of its deck; the Peloton one for both."""
        deck = self.ro.deck[i]
        if self.ro.ctrl[i] == PELOTON:
            if rnd.peloton_card == _UNREVEALED:  # FR-56: one revealed card for both riders
                rnd.peloton_card = deck.pop() if deck else NO_CARD
            code = rnd.peloton_card
        else:
            code = deck.pop() if deck else NO_CARD  # FR-57
        rnd.played[i] = code
        if code == NO_CARD:
            rnd.value[i] = self.rules.dummy_empty_value  # FR-58
        else:
            rnd.value[i] = self.values[code]

    # --- movement phase (FR-24..FR-32) ---------------------------------------------------------

    def _movement_phase(self, rnd: _Round) -> None:
        """Front to back in race order at the phase's start (FR-24), blocking on arrival."""
        ro, tables = self.ro, self.tables
        pos, lane, ctrl = ro.pos, ro.lane, ro.ctrl
        order = self.race_order
        if order is None:
            order = sorted(self.on, key=lambda r: lane[r] - 4 * pos[r])
        rnd.order = order
        value = rnd.value
        if rnd.peloton_card == ATTACK_CODE:
            # FR-56: the Peloton rider ahead moves 2, the other 9 (a lone one counts as ahead).
            first = True
            for i in order:
                if ctrl[i] == PELOTON:
                    value[i] = 2 if first else HELD_VALUE
                    first = False
        rnd.start, rnd.start_lane = pos[:], lane[:]
        rnd.target = target = pos[:]
        dest, occ, cnt = tables.dest, ro.occ, ro.cnt
        for i in order:
            t = dest[pos[i]][value[i]]  # FR-29..FR-32 and the clamp of FR-26, tabulated
            target[i] = t
            move_rider(i, t, pos, lane, occ, cnt)  # FR-27 blocking
        rnd.after_move, rnd.lane_after_move = pos[:], lane[:]

    # --- end phase (FR-35..FR-50, FR-54) -------------------------------------------------------

    def _end_phase(self, rnd: _Round) -> None:
        """FR-35, steps (a) to (f) in order."""
        self._played_cards_leave(rnd)
        self._slipstream(rnd)
        self._crossings(rnd)
        self._tokens(rnd)
        if self.rules.tour_mode and (rnd.crossed or self.r1 is not None):
            self._timing(rnd)
        self._exhaustion(rnd)
        if self.record_log:
            self.log_rounds.append(
                {
                    "round": rnd.number,
                    "riders": self._log_rows(rnd),
                    "packs": [list(p) for p in rnd.packs],
                }
            )
        if rnd.crossed:
            self._leave(rnd.crossed)

    def _played_cards_leave(self, rnd: _Round) -> None:
        """(a) FR-36: played cards leave; a Recovery card returns one exhaustion (FR-64)."""
        ro = self.ro
        recovery_on = self.rules.specialist_effects == "recovery_only"
        tour = self.rules.tour_mode
        supply = ro.supply
        peloton_done = False
        for i in self.on:
            code = rnd.played[i]
            if code < 0:
                continue
            if ro.ctrl[i] == PELOTON:
                if peloton_done:
                    continue  # FR-56: both riders moved with one card; it leaves once
                peloton_done = True
            if code == EXHAUSTION_CODE:
                ro.exhaustion_played[i] += 1
                if tour and supply is not None:
                    supply[ro.supply_type[i]] += 1
                continue
            ro.aside[i].append(code)  # an Attack card too: it is part of the Peloton's deck
            recycled = ro.recycled[i]
            if recovery_on and code in RECOVERY_CODES and EXHAUSTION_CODE in recycled:
                recycled.remove(EXHAUSTION_CODE)
                if supply is not None:
                    supply[ro.supply_type[i]] += 1
                rnd.recovered[i] = 1

    def _slipstream(self, rnd: _Round) -> None:
        """(b) FR-38, then the packs and the race order after it."""
        ro = self.ro
        pos, lane = ro.pos, ro.lane
        slipstream(self.on, pos, lane, ro.occ, ro.cnt, self.tables.slip_ok, rnd.slip)
        rnd.packs = find_packs(sorted({pos[i] for i in self.on}))
        rnd.after = sorted(self.on, key=lambda r: lane[r] - 4 * pos[r])
        self.race_order = rnd.after

    def _crossings(self, rnd: _Round) -> None:
        """FR-42: who stands past the line after slipstream crosses in this round."""
        ro, last = self.ro, self.tables.last
        rnd.crossed = [i for i in rnd.after if ro.pos[i] > last]
        for i in rnd.crossed:
            ro.crossing_round[i] = rnd.number
            ro.squares_past[i] = ro.pos[i] - last
            ro.final_lane[i] = ro.lane[i]

    def _tokens(self, rnd: _Round) -> None:
        """(c) FR-54: stacks reached from behind this round, best token to the foremost."""
        ro = self.ro
        reach = ro.pos if self.rules.slipstream_reaches_stacks else rnd.after_move
        for award in award_tokens(ro.stacks, rnd.after, rnd.start, reach, self.eligible):
            ro.tokens[award.rider].append(award)
            taken = rnd.tokens[award.rider] or []
            taken.append([award.stack_id, award.value])
            rnd.tokens[award.rider] = taken

    def _timing(self, rnd: _Round) -> None:
        """(d) FR-48 from r1 on (Tour mode): seconds of the pack front, or a minute token."""
        ro, tables = self.ro, self.tables
        if self.r1 is None:
            self.r1 = rnd.number
        front_of = pack_fronts(rnd.packs)
        last, timing, pos = tables.last, tables.timing, ro.pos
        for i in rnd.after:
            if pos[i] > last:
                seconds = timing[front_of[pos[i]] - last]
                ro.seconds[i] = rnd.seconds[i] = seconds
            else:
                ro.minutes[i] += 1
                rnd.minute[i] = 1

    def _exhaustion(self, rnd: _Round) -> None:
        """(e) FR-39: nobody in the next square; past the line exempt in Tour mode."""
        ro = self.ro
        tour, last = self.rules.tour_mode, self.tables.last
        dummy_exhaustion = self.rules.dummies_take_exhaustion
        pos, cnt, ctrl, supply = ro.pos, ro.cnt, ro.ctrl, ro.supply
        for i in rnd.after:
            if (tour and pos[i] > last) or cnt[pos[i] + 1]:
                continue
            if ctrl[i] != PLAYER and not dummy_exhaustion:
                continue
            if supply is not None:
                if supply[ro.supply_type[i]] <= 0:
                    continue  # FR-3: an empty supply hands out nothing
                supply[ro.supply_type[i]] -= 1
            if ctrl[i] == PLAYER:
                ro.recycled[i].append(EXHAUSTION_CODE)
            else:
                ro.deck[i].insert(0, EXHAUSTION_CODE)  # dummies recycle nothing: under the deck
            ro.exhaustion_taken[i] += 1
            rnd.exhausted[i] = 1

    def _log_rows(self, rnd: _Round) -> list[list[Any]]:
        """Every rider's FR-73 row of the round, in movement order and ``LOG_COLUMNS`` order."""
        rider_id, pos, mods, last = (
            self.ro.rider_id,
            self.ro.pos,
            self.tables.mods,
            self.tables.last,
        )
        start, target, after_move = rnd.start, rnd.target, rnd.after_move
        played, drawn, recycled, slip, tokens = (
            rnd.played, rnd.drawn, rnd.recycled, rnd.slip, rnd.tokens
        )  # fmt: skip
        rows: list[list[Any]] = []
        for i in rnd.order:
            s, t, to = start[i], target[i], after_move[i]
            code = played[i]
            rows.append(
                [
                    rider_id[i],
                    drawn[i] or [],
                    code if code >= 0 else None,
                    recycled[i] or [],
                    rnd.reshuffled[i],
                    s,
                    rnd.start_lane[i],
                    t - s,  # move
                    mods[s][rnd.value[i]],
                    t,
                    to,
                    rnd.lane_after_move[i],
                    1 if to != t else 0,  # blocked (FR-27)
                    slip[i],
                    rnd.exhausted[i],
                    rnd.recovered[i],
                    tokens[i] or [],
                    1 if pos[i] > last else 0,  # crossed this round (FR-42)
                    rnd.seconds[i],
                    rnd.minute[i],
                ]
            )
        return rows

    def _leave(self, crossed: list[int]) -> None:
        """(f) FR-44: riders past the line leave the track; their decks are frozen."""
        ro = self.ro
        for i in crossed:
            ro.occ[ro.pos[i]][ro.lane[i] - 1] = -1
            ro.cnt[ro.pos[i]] -= 1
            ro.exhaustion_end[i] = ro.held_exhaustion(i)
        gone = set(crossed)
        self.on = [i for i in self.on if i not in gone]
        if self.race_order is not None:
            self.race_order = [i for i in self.race_order if i not in gone]


__all__ = ["LOG_COLUMNS", "SIMULATOR_VERSION", "simulate_stage"]
