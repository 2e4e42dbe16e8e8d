"""The stage simulator: plays a Flamme Rouge stage round by round (FR-15..FR-60, FR-64..FR-73).

The hot loop works on parallel lists indexed by rider (canonical order, FR-66) and on one list of
lanes per square; cards are int codes (``cards.py``) and terrain effects are table lookups
(``tables.py``). Randomness comes from the one injected ``random.Random`` only.
"""

from __future__ import annotations

import random
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
from games.flamme_rouge.policy import HELD_VALUE, choose_card
from games.flamme_rouge.results import build_outcome
from games.flamme_rouge.roster import PELOTON, PLAYER, Roster, build_roster
from games.flamme_rouge.setup import StageSetup, validate_setup
from games.flamme_rouge.tables import Tables, tables_for
from scoring.rng import derive_rng

SIMULATOR_VERSION = "1.0"
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
_DRAWN, _PLAYED, _RECYCLED, _RESHUFFLED = 1, 2, 3, 4
_MOVE, _MODS, _TARGET, _TO, _TO_LANE, _BLOCKED, _SLIP = 7, 8, 9, 10, 11, 12, 13
_EXHAUSTED, _RECOVERED, _TOKENS, _CROSSED, _SECONDS, _MINUTE = 14, 15, 16, 17, 18, 19


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
    rounds, r1, log_rounds = _play(roster, setup, tables, stream, record_log)
    return build_outcome(
        roster, setup, tables, seed, SIMULATOR_VERSION, rounds, r1, log_rounds, LOG_COLUMNS
    )


def _play(
    ro: Roster, setup: StageSetup, tables: Tables, rng: random.Random, record_log: bool
) -> tuple[int, int | None, list[dict[str, Any]]]:
    """Play rounds until nobody is left on the track (Tour mode) or someone crosses (base)."""
    rules = setup.rules
    tour = rules.tour_mode
    values = card_values(rules.strong_descents_value)
    n, last = tables.n, tables.last
    dest, mods, slip_ok, terrain, timing = (
        tables.dest,
        tables.mods,
        tables.slip_ok,
        tables.terrain,
        tables.timing,
    )
    pos, lane, occ, cnt = ro.pos, ro.lane, ro.occ, ro.cnt
    deck, recycled, aside, ctrl = ro.deck, ro.recycled, ro.aside, ro.ctrl
    supply = ro.supply  # remaining exhaustion per supply type, None = unlimited (FR-3)
    stype = ro.supply_type
    expected = rules.policy_expected_move
    weights = rules.policy_weights
    hold = rules.policy_hold_nines
    sprint_cards = rules.policy_sprint_cards
    sprint_reach = sprint_cards * max(values)  # no sprint check needed further out
    recovery_on = rules.specialist_effects == "recovery_only"
    dummy_exhaustion = rules.dummies_take_exhaustion
    eligible = [c == PLAYER or rules.dummies_take_tokens for c in ctrl]  # FR-55
    empty_value = rules.dummy_empty_value
    stacks = ro.stacks  # [square, tokens left (best first), stack id, side index]
    proj_size = n + 2 * len(dest[1]) + 4
    on = list(range(len(pos)))  # riders on the track, canonical order
    rnd = 0
    r1: int | None = None
    log_rounds: list[dict[str, Any]] = []
    while on:
        rnd += 1
        if rnd > rules.max_rounds:
            raise SimulationError(
                f"{len(on)} riders are still on the track after {rules.max_rounds} rounds.",
                "max_rounds_exceeded",
                max_rounds=rules.max_rounds,
                riders=[ro.rider_id[i] for i in on],
            )
        # Energy phase (FR-20..FR-23): draws in canonical order; choices see round-start state.
        proj = [0] * proj_size
        for i in on:
            # FR-68 step 4, refined: a rider is projected on square + E and + E + 1, since real
            # moves scatter around E; a single mark makes whole packs crawl one behind it.
            proj[pos[i] + expected] += 1
            proj[pos[i] + expected + 1] += 1
        live_stacks = [(s[0], s[1][0]) for s in stacks if s[1]]
        played = [-1] * len(pos)
        move_value = [0] * len(pos)
        rows: dict[int, list[Any]] = {}
        peloton_card = -2
        for i in on:
            kind = ctrl[i]
            row: list[Any] = [ro.rider_id[i], [], None, [], 0, pos[i], lane[i], 0, "", 0]
            row += [0, 0, 0, 0, 0, 0, [], 0, None, 0]
            rows[i] = row
            if kind == PLAYER:
                d = deck[i]
                hand = d[-1:-5:-1]
                del d[-4:]
                if len(hand) < 4 and recycled[i]:
                    # FR-22: short deck - reshuffle the recycled pile, keep drawing up to 4.
                    d.extend(recycled[i])
                    recycled[i].clear()
                    rng.shuffle(d)
                    need = 4 - len(hand)
                    hand += d[-1 : -need - 1 : -1]
                    del d[len(d) - min(need, len(d)) :]
                    row[_RESHUFFLED] = 1
                if not hand:
                    # FR-22: no cards at all - an exhaustion card from the supply, value 2.
                    code = EXHAUSTION_CODE
                    if supply is not None:
                        supply[stype[i]] -= 1  # returned at step (a) like any played one
                    row[_PLAYED] = code
                    played[i] = code
                    move_value[i] = values[code]
                    continue
                s = pos[i]
                sprinting = False
                if last + 1 - s <= sprint_reach:
                    remaining = sorted(values[c] for c in (*hand, *d, *recycled[i]))
                    sprinting = last + 1 - s <= sum(remaining[-sprint_cards:])
                k = choose_card(
                    hand,
                    values,
                    s,
                    dest[s],
                    last,
                    sprinting,
                    hold and ro.rider_type[i] == SPRINTEUR,
                    terrain[s],
                    proj,
                    s + expected,
                    slip_ok,
                    live_stacks,
                    weights,
                )
                code = hand.pop(k)
                recycled[i].extend(hand)  # FR-21: the other drawn cards go face up
                played[i] = code
                move_value[i] = values[code]
                if record_log:
                    hand.insert(k, code)
                    row[_DRAWN] = hand
                    row[_RECYCLED] = hand[:k] + hand[k + 1 :]
                    row[_PLAYED] = code
            else:
                if kind == PELOTON:
                    if peloton_card == -2:  # FR-56: one revealed card for both riders
                        peloton_card = deck[i].pop() if deck[i] else -1
                    code = peloton_card
                else:
                    code = deck[i].pop() if deck[i] else -1  # FR-57
                played[i] = code
                row[_PLAYED] = code if code >= 0 else None
                move_value[i] = values[code] if code >= 0 else empty_value  # FR-58
        # Movement phase (FR-24..FR-28), front to back in race order at its start.
        order = sorted(on, key=lambda r: lane[r] - 4 * pos[r])
        if peloton_card == ATTACK_CODE:
            # FR-56: the Peloton rider ahead moves 2, the other 9 (a lone one counts as ahead).
            first = True
            for i in order:
                if ctrl[i] == PELOTON:
                    move_value[i] = 2 if first else HELD_VALUE
                    first = False
        start = pos[:]
        for i in order:
            s = pos[i]
            v = move_value[i]
            t = dest[s][v]
            row = rows[i]
            row[_MOVE] = t - s
            row[_MODS] = mods[s][v]
            row[_TARGET] = t
            move_rider(i, t, pos, lane, occ, cnt)
            row[_BLOCKED] = int(pos[i] != t)
            row[_TO], row[_TO_LANE] = pos[i], lane[i]
        after_move = pos[:]
        # End phase (FR-35). (a) played cards leave (FR-36), Recovery (FR-64).
        peloton_done = False
        for i in on:
            code = played[i]
            if code < 0 or code == ATTACK_CODE:
                continue
            if ctrl[i] == PELOTON:
                if peloton_done:
                    continue  # FR-56: both riders moved with one card; it leaves once
                peloton_done = True
            if code == EXHAUSTION_CODE:
                ro.exhaustion_played[i] += 1
                if tour and supply is not None:
                    supply[stype[i]] += 1
            else:
                aside[i].append(code)
                if recovery_on and code in RECOVERY_CODES and EXHAUSTION_CODE in recycled[i]:
                    recycled[i].remove(EXHAUSTION_CODE)
                    if supply is not None:
                        supply[stype[i]] += 1
                    rows[i][_RECOVERED] = 1
        # (b) slipstream (FR-38).
        moved = slipstream(on, pos, lane, occ, cnt, slip_ok)
        for i, gained in moved.items():
            rows[i][_SLIP] = gained
        occupied = sorted({pos[i] for i in on})
        packs = find_packs(occupied)
        front_of = pack_fronts(packs)
        after = sorted(on, key=lambda r: lane[r] - 4 * pos[r])
        crossed = [i for i in after if pos[i] > last]
        for i in crossed:  # FR-42
            ro.crossing_round[i] = rnd
            ro.squares_past[i] = pos[i] - last
            ro.final_lane[i] = lane[i]
            rows[i][_CROSSED] = 1
        # (c) token stacks (FR-54): reached from behind this round, best token to the foremost.
        reach = pos if rules.slipstream_reaches_stacks else after_move
        for i, stack_id, value, side in award_tokens(stacks, after, start, reach, eligible):
            ro.tokens[i].append((stack_id, value, side))
            rows[i][_TOKENS].append([stack_id, value])
        # (d) timing (FR-48) from r1 on, Tour mode only.
        if tour and (crossed or r1 is not None):
            if r1 is None:
                r1 = rnd
            for i in after:
                if pos[i] > last:
                    seconds = timing[front_of[pos[i]] - last]
                    ro.seconds[i] = seconds
                    rows[i][_SECONDS] = seconds
                else:
                    ro.minutes[i] += 1
                    rows[i][_MINUTE] = 1
        # (e) exhaustion (FR-39): nobody in the next square; past the line exempt in Tour mode.
        for i in after:
            if (tour and pos[i] > last) or cnt[pos[i] + 1]:
                continue
            if ctrl[i] != PLAYER and not dummy_exhaustion:
                continue
            if supply is not None:
                if supply[stype[i]] <= 0:
                    continue  # FR-3: an empty supply hands out nothing
                supply[stype[i]] -= 1
            if ctrl[i] == PLAYER:
                recycled[i].append(EXHAUSTION_CODE)
            else:
                deck[i].insert(0, EXHAUSTION_CODE)  # dummies recycle nothing: under the deck
            ro.exhaustion_taken[i] += 1
            rows[i][_EXHAUSTED] = 1
        if record_log:
            log_rounds.append(
                {
                    "round": rnd,
                    "riders": [rows[i] for i in order],
                    "packs": [list(p) for p in packs],
                }
            )
        # (f) riders past the line leave (FR-44); base mode ends with the first crossing (FR-41).
        if crossed:
            for i in crossed:
                occ[pos[i]][lane[i] - 1] = -1
                cnt[pos[i]] -= 1
                ro.exhaustion_end[i] = _held(deck[i], recycled[i])
            gone = set(crossed)
            on = [i for i in on if i not in gone]
            if not tour:
                break
    for i in on:  # base mode: riders who never crossed keep their cards as they are
        ro.exhaustion_end[i] = _held(deck[i], recycled[i])
    return rnd, r1, log_rounds


def _held(deck: list[int], recycled: list[int]) -> int:
    return deck.count(EXHAUSTION_CODE) + recycled.count(EXHAUSTION_CODE)


__all__ = ["LOG_COLUMNS", "SIMULATOR_VERSION", "simulate_stage"]
