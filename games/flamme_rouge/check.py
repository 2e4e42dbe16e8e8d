"""A replay checker: verifies a simulated stage move by move from its log and set-up alone.

:func:`check_stage` reads the :class:`StageSetup` and the stage's replay (``outcome.to_json()``:
header, riders, FR-73 log) and re-reads every round against the rules of
``rules/flamme_rouge_stage.md``: the grid (FR-16, FR-17, FR-60, FR-69), the cards drawn from the
right decks with the reshuffle of FR-22, movement with the terrain modifiers (FR-29..FR-32), the
clamp (FR-26) and blocking (FR-27), slipstream (FR-38), packs, crossings (FR-42), tokens (FR-54),
timing (FR-48), exhaustion and the supply (FR-3, FR-39), Recovery (FR-64), the end of the stage
(FR-41) and every result field (FR-70, FR-72).

It shares the course and card data with the engine (tile profiles, decks) but none of its
movement code: squares, lanes and decks are tracked here on their own, from the rule text. Hidden
information is checked as far as the log allows: the order of a face-down deck is secret, so a
draw is checked against the deck's contents, not its order.

``python -m games.flamme_rouge.check --stages N`` simulates N seeded, varied stages
(:func:`seeded_stages`) and checks each one; the test suite runs a few hundred.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.checking import CheckReport, check_command
from games.flamme_rouge.cards import (
    MUSCLE_SPRINTEUR_DECK,
    PELOTON_DECK,
    ROULEUR,
    ROULEUR_DECK,
    SPECIALISTS,
    SPRINTEUR,
    build_deck,
)
from games.flamme_rouge.engine import simulate_stage
from games.flamme_rouge.rules import StageRules
from games.flamme_rouge.setup import (
    DUMMY_TEAMS,
    STACK_SIDES,
    STACK_TYPES,
    RiderEntry,
    Stack,
    StageSetup,
    TeamEntry,
)
from games.flamme_rouge.track import (
    ASCENT,
    COBBLES,
    DESCENT,
    FINISH_AREA,
    OFFICIAL_COURSES,
    SUPPLY,
    official_course,
    parse_course,
)
from scoring.grand_tour.timing import tile_seconds
from scoring.params import build_rules, rules_to_json

EXHAUSTION, ATTACK = 0, 1  # card codes of the log's "cards" legend (checked below)
PELOTON_IDS, MUSCLE_IDS = (-1, -2), (-3, -4)


@dataclass
class _Rider:
    """A rider as the checker tracks him: place, decks, and what the results must show."""

    id: int
    team: int
    kind: str  # "player", "peloton" or "muscle"
    supply_type: int  # 0 Rouleur supply, 1 Sprinteur (FR-3)
    deck: Counter[int]  # face-down cards (shared by the two Peloton riders)
    recycled: Counter[int] = field(default_factory=Counter)
    aside: Counter[int] = field(default_factory=Counter)
    square: int = 0
    lane: int = 0
    on: bool = True
    crossing_round: int = 0
    squares_past: int = 0
    final_lane: int = 0
    minutes: int = 0
    seconds: int = 0
    tokens: list[tuple[str, int, int]] = field(default_factory=list)  # (stack, value, side)
    taken: int = 0
    played_exhaustion: int = 0
    exhaustion_end: int = 0


@dataclass
class _Stack:
    """A token stack (FR-52) and its tokens left, best first (FR-53)."""

    square: int
    tokens: list[int]
    id: str
    side: str


class _StageCheck:
    """The state of one stage being checked, and the check of each round."""

    def __init__(self, setup: StageSetup, replay: dict[str, Any]) -> None:
        self.report = CheckReport()
        self.setup, self.rules = setup, setup.rules
        self.header, self.log, self.results = replay["header"], replay["log"], replay["riders"]
        text = self.header["course"]["text"]
        self.course = parse_course(text, rules=self.rules)
        squares = self.course.squares
        self.n = len(squares)
        self.last = self.course.last_before_line
        self.terrain = ["", *(sq.terrain for sq in squares)]
        self.role = ["", *(sq.role for sq in squares)]
        self.lanes = [0, *(sq.lanes for sq in squares)]
        self.values: list[int] = [int(spec[1]) for spec in self.log["cards"]]
        self.symbols = [spec[2] for spec in self.log["cards"]]
        self.supply: list[int] | None = None
        # FR-66 canonical order (the log lists the riders in it): draws, cards leaving.
        self._canonical = {row[0]: k for k, row in enumerate(self.log["riders"])}
        self.riders: dict[int, _Rider] = {}
        self.r1: int | None = None
        self.stacks = [
            _Stack(s.square, sorted(self._stack_values(s.type), reverse=True), s.id, s.side)
            for s in setup.stacks
        ]

    # --- helpers ------------------------------------------------------------------------------

    def ok(self, condition: bool, where: str, message: str) -> bool:
        """Count one check; record a violation when ``condition`` is false."""
        self.report.checks += 1
        if not condition:
            self.report.violations.append(f"stage {self.setup.number} {where}: {message}")
        return condition

    def _stack_values(self, kind: str) -> tuple[int, ...]:
        return self.rules.major_tokens if kind == "major" else self.rules.minor_tokens

    def slip_allowed(self, square: int) -> bool:
        """FR-37: not on U or C; past the line only in Tour mode with the switch on."""
        if not 1 <= square <= self.n or self.terrain[square] in (ASCENT, COBBLES):
            return False
        if self.role[square] == FINISH_AREA:
            return self.rules.tour_mode and self.rules.slipstream_past_line
        return True

    def board(self) -> dict[int, dict[int, int]]:
        """square -> lane -> rider id, for the riders on the track."""
        out: dict[int, dict[int, int]] = {}
        for r in self.riders.values():
            if r.on:
                out.setdefault(r.square, {})[r.lane] = r.id
        return out

    def race_order(self) -> list[_Rider]:
        """Further square first; within a square, lane 1 first."""
        return sorted((r for r in self.riders.values() if r.on), key=lambda r: (-r.square, r.lane))

    # --- set-up -------------------------------------------------------------------------------

    def check_setup(self) -> None:
        """The header against the set-up, the decks of FR-5, and the grid."""
        header, rules = self.header, self.rules
        self.ok(header["rules"] == rules_to_json(rules), "header", "rules differ from the set-up")
        self.ok(header["course"]["profile"] == self.course.profile(), "header", "course profile")
        self.ok(self.log["cards"][EXHAUSTION][0] == "exhaustion", "log", "card code 0")
        self.ok(self.log["cards"][ATTACK][0] == "attack", "log", "card code 1")
        self._make_riders()
        self._check_grid()

    def _make_riders(self) -> None:
        teams = {t.id: t for t in self.setup.teams}
        peloton: Counter[int] = Counter(PELOTON_DECK)  # FR-56: one deck for both riders
        carried = [0, 0]
        for rid, team, rider_type in self.log["riders"]:
            if rid in PELOTON_IDS:
                rider = _Rider(rid, team, "peloton", 0, peloton)
            elif rid in MUSCLE_IDS:
                cards = MUSCLE_SPRINTEUR_DECK if rider_type == SPRINTEUR else ROULEUR_DECK
                rider = _Rider(rid, team, "muscle", int(rider_type == SPRINTEUR), Counter(cards))
            else:
                entry = next(r for r in teams[team].riders if r.id == rid)
                self.ok(entry.role == rider_type, f"rider {rid}", "role differs from the set-up")
                deck = build_deck(entry.role, entry.specialist, entry.exhaustion)
                rider = _Rider(rid, team, "player", int(rider_type == SPRINTEUR), Counter(deck))
                carried[rider.supply_type] += entry.exhaustion
            self.riders[rid] = rider
        expected = 2 * len(teams) + {"none": 0, "both": 4}.get(self.setup.dummy_teams, 2)
        self.ok(len(self.riders) == expected, "log", "number of riders")
        limit = self.rules.exhaustion_limit
        if limit is not None:
            self.supply = [max(0, limit - carried[0]), max(0, limit - carried[1])]

    def _check_grid(self) -> None:
        """FR-16/17/60/69: dummies first, then one rider per team per turn in placement order,
        each in the rightmost free lane of the foremost free start square."""
        order = self.header["placement_order"]
        teams = {t.id: t for t in self.setup.teams}
        if self.setup.placement_order is not None:
            self.ok(list(self.setup.placement_order) == order, "grid", "placement order")
        self.ok(sorted(order) == sorted(teams), "grid", "placement order is not the teams")
        first = self.rules.policy_first_placed
        second = ROULEUR if first == SPRINTEUR else SPRINTEUR
        placing = [rid for rid in (*PELOTON_IDS, -3, -4) if rid in self.riders]
        for role in (first, second):
            placing += [next(r.id for r in teams[t].riders if r.role == role) for t in order]
        starts = [sq.number for sq in self.course.squares if sq.role == "s"]
        slots = [(sq, lane) for sq in reversed(starts) for lane in range(1, self.lanes[sq] + 1)]
        expected = [[rid, *slot] for rid, slot in zip(placing, slots, strict=False)]
        self.ok(self.log["grid"] == expected, "grid", f"{self.log['grid']} != {expected}")
        for rid, square, lane in self.log["grid"]:
            self.riders[rid].square, self.riders[rid].lane = square, lane

    # --- rounds -------------------------------------------------------------------------------

    def check_rounds(self) -> None:
        """Every round in turn, then the end of the stage (FR-41, FR-45)."""
        rounds = self.log["rounds"]
        for number, entry in enumerate(rounds, start=1):
            self.ok(entry["round"] == number, f"round {number}", "round number")
            self.ok(number <= self.rules.max_rounds, f"round {number}", "past max_rounds (FR-45)")
            crossed = self._round(number, entry)
            if crossed and not self.rules.tour_mode:
                self.ok(number == len(rounds), f"round {number}", "base mode goes on (FR-41)")
                break
        left = [r.id for r in self.riders.values() if r.on]
        if self.rules.tour_mode:
            self.ok(not left, "end", f"riders {left} never crossed (FR-41)")
        self.report.rounds += len(rounds)
        self.ok(self.header["rounds"] == len(rounds), "header", "rounds played")
        self.ok(self.header["r1"] == self.r1, "header", f"r1 {self.header['r1']} != {self.r1}")

    def _round(self, number: int, entry: dict[str, Any]) -> bool:
        where = f"round {number}"
        columns = self.log["columns"]
        rows = [dict(zip(columns, row, strict=True)) for row in entry["riders"]]
        order = self.race_order()
        self.ok(
            [row["rider"] for row in rows] == [r.id for r in order], where, "race order (FR-24)"
        )
        if len(rows) != len(order):
            return False
        by_id = {row["rider"]: row for row in rows}
        for rider, row in zip(order, rows, strict=True):
            self.ok(
                (row["from"], row["from_lane"]) == (rider.square, rider.lane),
                where,
                f"rider {rider.id} starts elsewhere",
            )
        values = self._energy(where, order, by_id)
        start = {r.id: r.square for r in order}
        self._movement(where, order, by_id, values)
        after_move = {r.id: r.square for r in order}
        self._played_cards_leave(where, order, by_id)
        self._slipstream(where, order, by_id)
        self._packs(where, entry["packs"])
        after = self.race_order()
        crossed = [r for r in after if r.square > self.last]
        for r in after:
            self.ok(
                by_id[r.id]["crossed"] == int(r.square > self.last),
                where,
                f"rider {r.id} crossed flag (FR-42)",
            )
        for r in crossed:
            r.crossing_round, r.squares_past, r.final_lane = number, r.square - self.last, r.lane
        self._tokens(where, after, by_id, start, after_move)
        self._timing(where, number, after, crossed, by_id)
        self._exhaustion(where, after, by_id)
        for r in crossed:  # (f) FR-44: they leave; their decks are frozen
            r.on = False
            r.exhaustion_end = self._held(r)
        self.report.moves += len(rows)
        return bool(crossed)

    # --- energy phase -------------------------------------------------------------------------

    def _energy(
        self, where: str, order: list[_Rider], rows: dict[int, dict[str, Any]]
    ) -> dict[int, int]:
        """FR-20..FR-23, FR-56..FR-58; returns each rider's move value before terrain."""
        values: dict[int, int] = {}
        peloton_seen, peloton_card = False, None
        for rider in sorted(order, key=lambda r: self._canonical[r.id]):
            row = rows[rider.id]
            if rider.kind == "player":
                values[rider.id] = self._player_draw(where, rider, row)
                continue
            self.ok(row["drawn"] == [] and row["recycled"] == [], where, "a dummy draws nothing")
            played = row["played"]
            if rider.kind == "peloton" and peloton_seen:
                self.ok(played == peloton_card, where, "Peloton riders play one card (FR-56)")
            elif played is None:
                self.ok(not _count(rider.deck), where, f"rider {rider.id} played no card")
            else:
                self.ok(rider.deck[played] > 0, where, f"rider {rider.id} card not in deck")
                rider.deck[played] -= 1  # FR-57: his top card (the order is hidden)
            if rider.kind == "peloton":
                peloton_seen, peloton_card = True, played
            values[rider.id] = (
                self.rules.dummy_empty_value if played is None else self.values[played]
            )
        if peloton_card == ATTACK:
            # FR-56: the Peloton rider ahead in race order moves 2, the other 9.
            ahead = [r.id for r in order if r.kind == "peloton"]
            for k, rid in enumerate(ahead):
                values[rid] = 2 if k == 0 else 9
        return values

    def _player_draw(self, where: str, rider: _Rider, row: dict[str, Any]) -> int:
        """FR-21/FR-22: four cards from the face-down deck (a short deck reshuffles)."""
        drawn: list[int] = row["drawn"]
        played: int = row["played"]
        recycled: list[int] = row["recycled"]
        face_down = _count(rider.deck)
        who = f"{where} rider {rider.id}"
        if face_down == 0 and not _count(rider.recycled):
            self.ok(drawn == [] and played == EXHAUSTION, who, "no cards: plays exhaustion")
            if self.supply is not None:
                self.supply[rider.supply_type] -= 1
            return self.values[EXHAUSTION]
        reshuffle = face_down < 4 and _count(rider.recycled) > 0
        self.ok(row["reshuffled"] == int(reshuffle), who, "reshuffle flag (FR-22)")
        total = face_down + (_count(rider.recycled) if reshuffle else 0)
        self.ok(len(drawn) == min(4, total), who, f"drew {len(drawn)} cards")
        first, rest = drawn[:face_down], drawn[face_down:]
        self.ok(_within(first, rider.deck), who, f"drew {first} not in his deck")
        rider.deck -= Counter(first)
        if reshuffle:
            self.ok(not _count(rider.deck), who, "reshuffled before drawing his deck (FR-22)")
            rider.deck, rider.recycled = rider.deck + rider.recycled, Counter()
            self.ok(_within(rest, rider.deck), who, f"drew {rest} not in the reshuffled deck")
            rider.deck -= Counter(rest)
        self.ok(played in drawn, who, "played a card he did not draw")
        self.ok(Counter(recycled) + Counter([played]) == Counter(drawn), who, "recycled cards")
        rider.recycled += Counter(recycled)
        return self.values[played]

    # --- movement phase -----------------------------------------------------------------------

    def _movement(
        self,
        where: str,
        order: list[_Rider],
        rows: dict[int, dict[str, Any]],
        values: dict[int, int],
    ) -> None:
        """FR-24..FR-32: front to back, modified value, clamp, then blocking on arrival."""
        board = self.board()
        for rider in order:
            row = rows[rider.id]
            move, mods = self._modified(rider.square, values[rider.id])
            who = f"{where} rider {rider.id}"
            self.ok(
                row["move"] == move and row["mods"] == mods,
                who,
                f"move {row['move']}{row['mods']!r} != {move}{mods!r} (FR-29..FR-32)",
            )
            target = rider.square + move
            self.ok(row["target"] == target, who, "target square")
            board[rider.square].pop(rider.lane)
            square, lane = self._landing(board, rider, target)
            board.setdefault(square, {})[lane] = rider.id
            self.ok(
                (row["to"], row["to_lane"]) == (square, lane),
                who,
                f"lands on {row['to']}/{row['to_lane']}, not {square}/{lane} (FR-27)",
            )
            self.ok(row["blocked"] == int(square != target), who, "blocked flag")
            rider.square, rider.lane = square, lane
            self.ok(rider.square >= row["from"], who, "moved backwards")

    def _modified(self, start: int, value: int) -> tuple[int, str]:
        """FR-29: descent floor, supply floor, ascent cap, clamp; the letters of those that
        changed the value."""
        v, mods = value, ""
        if self.terrain[start] == DESCENT and v < 5:  # FR-30
            v, mods = 5, mods + "d"
        if self.terrain[start] == SUPPLY and v < 4:  # FR-31
            v, mods = 4, mods + "s"
        cap = self.rules.ascent_cap
        climb = next(
            (k for k in range(v + 1) if start + k <= self.n and self.terrain[start + k] == ASCENT),
            None,
        )
        if climb is not None:  # FR-32
            capped = min(v, cap) if climb <= cap else climb - 1
            if capped != v:
                v, mods = capped, mods + "u"
        if start + v > self.n:  # FR-26
            v, mods = self.n - start, mods + "c"
        return v, mods

    def _landing(
        self, board: dict[int, dict[int, int]], rider: _Rider, target: int
    ) -> tuple[int, int]:
        """FR-27: the rightmost free lane of the target, else of the square behind, down to the
        square ahead of the start; else his own place."""
        for square in range(target, rider.square, -1):
            taken = board.get(square, {})
            free = [lane for lane in range(1, self.lanes[square] + 1) if lane not in taken]
            if free:
                return square, free[0]
        return rider.square, rider.lane

    # --- end phase ----------------------------------------------------------------------------

    def _played_cards_leave(
        self, where: str, order: list[_Rider], rows: dict[int, dict[str, Any]]
    ) -> None:
        """(a) FR-36 and FR-64: played cards leave; Recovery returns one exhaustion card."""
        peloton_done = False
        for rider in sorted(order, key=lambda r: self._canonical[r.id]):
            row = rows[rider.id]
            code = row["played"]
            if code is None or (rider.kind == "peloton" and peloton_done):
                self.ok(row["recovered"] == 0, where, "recovery without a card")
                continue
            peloton_done = peloton_done or rider.kind == "peloton"
            recovery = (
                self.rules.specialist_effects == "recovery_only"
                and "recovery" in self.symbols[code]
                and rider.recycled[EXHAUSTION] > 0
            )
            self.ok(
                row["recovered"] == int(recovery),
                f"{where} rider {rider.id}",
                "Recovery flag (FR-64)",
            )
            if code == EXHAUSTION:
                rider.played_exhaustion += 1
                if self.rules.tour_mode and self.supply is not None:
                    self.supply[rider.supply_type] += 1
                continue
            rider.aside[code] += 1
            if recovery:
                rider.recycled[EXHAUSTION] -= 1
                if self.supply is not None:
                    self.supply[rider.supply_type] += 1

    def _slipstream(self, where: str, order: list[_Rider], rows: dict[int, dict[str, Any]]) -> None:
        """(b) FR-38, literally: scan i = 1..N-2 from the rear, move the first match, restart."""
        board = self.board()
        gained = dict.fromkeys((r.id for r in order), 0)
        moved = True
        while moved:
            moved = False
            for i in range(1, self.n - 1):
                if not (board.get(i) and not board.get(i + 1) and board.get(i + 2)):
                    continue
                if not all(self.slip_allowed(s) for s in (i, i + 1, i + 2)):
                    continue
                here = board.pop(i)
                there: dict[int, int] = {}
                for lane in sorted(here):
                    free = [x for x in range(1, self.lanes[i + 1] + 1) if x not in there]
                    if not free:
                        board.setdefault(i, {})[lane] = here[lane]  # he does not fit: stays
                        continue
                    there[free[0]] = here[lane]
                    gained[here[lane]] += 1
                board[i + 1] = there
                moved = True
                break
        for square, lanes in board.items():
            for lane, rid in lanes.items():
                self.riders[rid].square, self.riders[rid].lane = square, lane
        for rider in order:
            self.ok(
                rows[rider.id]["slip"] == gained[rider.id],
                f"{where} rider {rider.id}",
                f"slipstream {rows[rider.id]['slip']} != {gained[rider.id]} (FR-38)",
            )

    def _packs(self, where: str, packs: list[list[int]]) -> None:
        """Packs after slipstream: maximal runs of occupied squares, front first."""
        occupied = sorted({r.square for r in self.riders.values() if r.on}, reverse=True)
        expected: list[list[int]] = []
        for square in occupied:
            if expected and expected[-1][1] == square + 1:
                expected[-1][1] = square
            else:
                expected.append([square, square])
        self.ok(packs == expected, where, f"packs {packs} != {expected}")

    def _tokens(
        self,
        where: str,
        after: list[_Rider],
        rows: dict[int, dict[str, Any]],
        start: dict[int, int],
        after_move: dict[int, int],
    ) -> None:
        """(c) FR-54: riders who reached a stack from behind take its best tokens, foremost
        first; FR-55 dummies only with ``dummies_take_tokens``."""
        taken: dict[int, list[list[Any]]] = {r.id: [] for r in after}
        for stack in self.stacks:
            square, tokens = stack.square, stack.tokens
            for rider in after:
                reach = (
                    rider.square if self.rules.slipstream_reaches_stacks else after_move[rider.id]
                )
                eligible = rider.kind == "player" or self.rules.dummies_take_tokens
                if tokens and eligible and start[rider.id] < square <= reach:
                    value = tokens.pop(0)
                    taken[rider.id].append([stack.id, value])
                    rider.tokens.append((stack.id, value, 0 if stack.side == "sprint" else 1))
        for rider in after:
            self.ok(
                rows[rider.id]["tokens"] == taken[rider.id],
                f"{where} rider {rider.id}",
                f"tokens {rows[rider.id]['tokens']} != {taken[rider.id]} (FR-54)",
            )

    def _timing(
        self,
        where: str,
        number: int,
        after: list[_Rider],
        crossed: list[_Rider],
        rows: dict[int, dict[str, Any]],
    ) -> None:
        """(d) FR-48, Tour mode: from r1 on, crossers read the seconds beside their pack's
        front; everyone else still on the track takes a minute."""
        timed = self.rules.tour_mode and (bool(crossed) or self.r1 is not None)
        if timed and self.r1 is None:
            self.r1 = number
        fronts = self._pack_fronts()
        flat = self.course.finish != "ascent"
        table = self.rules.timing_flat if flat else self.rules.timing_ascent
        for rider in after:
            row = rows[rider.id]
            seconds, minute = None, 0
            if timed and rider.square > self.last:
                k = fronts[rider.square] - self.last
                seconds = tile_seconds(table, k)
                rider.seconds = seconds
            elif timed:
                minute = 1
                rider.minutes += 1
            self.ok(
                (row["seconds"], row["minute"]) == (seconds, minute),
                f"{where} rider {rider.id}",
                f"time {row['seconds']}/{row['minute']} != {seconds}/{minute} (FR-48)",
            )

    def _pack_fronts(self) -> dict[int, int]:
        occupied = {r.square for r in self.riders.values() if r.on}
        fronts: dict[int, int] = {}
        for square in sorted(occupied, reverse=True):
            fronts[square] = fronts.get(square + 1, square) if square + 1 in occupied else square
        return fronts

    def _exhaustion(self, where: str, after: list[_Rider], rows: dict[int, dict[str, Any]]) -> None:
        """(e) FR-39: nobody on the next square means an exhaustion card, from the supply."""
        occupied = {r.square for r in after}
        for rider in after:
            due = rider.square + 1 not in occupied
            if self.rules.tour_mode and rider.square > self.last:
                due = False  # past the line: exempt
            if rider.kind != "player" and not self.rules.dummies_take_exhaustion:
                due = False  # FR-59
            if due and self.supply is not None:
                due = self.supply[rider.supply_type] > 0  # FR-3: an empty supply gives none
                self.supply[rider.supply_type] -= due
            self.ok(
                rows[rider.id]["exhausted"] == int(due),
                f"{where} rider {rider.id}",
                "exhaustion flag (FR-39)",
            )
            if due:
                rider.taken += 1
                (rider.recycled if rider.kind == "player" else rider.deck)[EXHAUSTION] += 1

    @staticmethod
    def _held(rider: _Rider) -> int:
        return rider.deck[EXHAUSTION] + rider.recycled[EXHAUSTION]

    # --- results ------------------------------------------------------------------------------

    def check_results(self) -> None:
        """FR-70 fields and the FR-72 order of every rider, from the tracked state."""
        for rider in self.riders.values():
            if rider.on:  # base mode: never crossed, keeps his cards as they are
                rider.exhaustion_end = self._held(rider)
        crossers = sorted(
            (r for r in self.riders.values() if r.crossing_round),
            key=lambda r: (r.crossing_round, -r.squares_past, r.final_lane),
        )
        others = sorted(
            (r for r in self.riders.values() if not r.crossing_round),
            key=lambda r: (-r.square, r.lane),
        )
        order = crossers + others
        self.ok(
            [r["rider_id"] for r in self.results] == [r.id for r in order],
            "results",
            "finishing order (FR-72)",
        )
        if order:
            self.ok(self.header["winner"] == order[0].id, "header", "stage winner")
        for position, (rider, result) in enumerate(zip(order, self.results, strict=False), 1):
            self._check_result(rider, result, position)

    def _check_result(self, rider: _Rider, result: dict[str, Any], position: int) -> None:
        crossed = bool(rider.crossing_round)
        deck, taken, played, held = self._deck_end(rider)
        expected = {
            "rider_id": rider.id,
            "team_id": rider.team,
            "is_dummy": rider.kind != "player",
            "position": position,
            "crossing_round": rider.crossing_round,
            "squares_past": rider.squares_past if crossed else rider.square - self.last,
            "lane": rider.final_lane if crossed else rider.lane,
            "minutes": rider.minutes,
            "seconds": rider.seconds,
            "time_s": 60 * rider.minutes + rider.seconds,
            "sprint_points": sum(v for _, v, side in rider.tokens if side == 0),
            "mountain_points": sum(v for _, v, side in rider.tokens if side == 1),
            "tokens": [[s, v] for s, v, _ in rider.tokens],
            "exhaustion_end": held,
            "exhaustion_taken": taken,
            "exhaustion_played": played,
            "deck_end": deck,
        }
        result = {**result, "deck_end": sorted(result["deck_end"])}
        for key, value in expected.items():
            self.ok(
                result[key] == value,
                f"result of rider {rider.id}",
                f"{key} {result[key]!r} != {value!r} (FR-70)",
            )
        if self.rules.tour_mode and self.r1 is not None:
            self.ok(
                rider.minutes == rider.crossing_round - self.r1,
                f"rider {rider.id}",
                "minutes = crossing round - r1 (FR-49)",
            )

    def _deck_end(self, rider: _Rider) -> tuple[list[str], int, int, int]:
        """The deck carried forward (energy cards + held exhaustion) as labels, and the counts;
        the Peloton's shared deck goes once, on its first rider."""
        group = [rider]
        if rider.kind == "peloton":
            if rider.id != PELOTON_IDS[0]:
                return [], 0, 0, 0
            group = [r for r in self.riders.values() if r.kind == "peloton"]
        cards = Counter(rider.deck)
        for r in group:
            cards += r.aside
        cards += rider.recycled  # a dummy's is empty: it recycles nothing (FR-58)
        cards = +cards
        labels = sorted(self._label(code) for code in cards.elements())
        taken = sum(r.taken for r in group)
        played = sum(r.played_exhaustion for r in group)
        held = cards[EXHAUSTION] if rider.kind == "peloton" else rider.exhaustion_end
        self.ok(cards[EXHAUSTION] == held, f"rider {rider.id}", "exhaustion held vs deck")
        return labels, taken, played, held

    def _label(self, code: int) -> str:
        kind, value, symbols = self.log["cards"][code]
        if kind == "exhaustion":
            return "X"
        if kind == "attack":
            return "A"
        return f"{value}*" if symbols else str(value)


def _count(cards: Counter[int]) -> int:
    return sum(cards.values())


def _within(cards: list[int], deck: Counter[int]) -> bool:
    """Are ``cards`` (with repeats) all in ``deck``?"""
    need = Counter(cards)
    return all(deck[c] >= k for c, k in need.items())


def check_stage(setup: StageSetup, replay: dict[str, Any]) -> CheckReport:
    """Check one simulated stage (``outcome.to_json()``) against its set-up; see the module."""
    stage = _StageCheck(setup, replay)
    stage.check_setup()
    stage.check_rounds()
    stage.check_results()
    return stage.report


# Rule variations the seeded runs cycle through (each with every course and dummy option).
_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"tour_mode": False},
    {"exhaustion_supply": 6, "dummies_take_exhaustion": True},
    {"slipstream_past_line": False, "slipstream_reaches_stacks": False},
    {"strong_descents_value": 7, "policy_first_placed": "rouleur", "dummies_take_tokens": False},
    {"specialist_effects": "none", "exhaustion_supply": 0, "ascent_cap": 4},
)


def seeded_stages(count: int, start: int = 0) -> Iterator[tuple[StageSetup, int]]:
    """``count`` varied stages and their seeds: every course (FR-11) and dummy option, the rule
    variations above, specialists, carried exhaustion and token stacks, drawn from the index."""
    for index in range(start, start + count):
        pick = random.Random(index)
        rules, errors = build_rules(StageRules, _VARIANTS[index % len(_VARIANTS)])
        assert not errors, errors
        official = official_course(1 + index % len(OFFICIAL_COURSES))
        dummies = DUMMY_TEAMS[(index // len(_VARIANTS)) % len(DUMMY_TEAMS)]
        extra = {"none": 0, "both": 4}.get(dummies, 2)
        fits = [
            teams
            for teams in range(2, 7)
            if 2 * teams + extra
            <= parse_course(official.for_players(teams), rules=rules).start_capacity
        ]
        count_teams = pick.choice(fits)
        course = official.for_players(count_teams)
        teams = tuple(_team(t, pick) for t in range(1, count_teams + 1))
        length = parse_course(course, rules=rules).length
        stacks = tuple(
            Stack(
                f"s{k}", pick.choice(STACK_TYPES), pick.choice(STACK_SIDES), pick.randint(8, length)
            )
            for k in range(pick.randint(0, 3))
        )
        order = (
            None
            if pick.random() < 0.3
            else tuple(pick.sample(range(1, count_teams + 1), count_teams))
        )
        setup = StageSetup(course, teams, stacks, order, dummies, rules, number=1 + index % 9)
        yield setup, index


def _team(team: int, pick: random.Random) -> TeamEntry:
    riders = []
    for offset, role in ((1, ROULEUR), (2, SPRINTEUR)):
        options = [name for name, spec in SPECIALISTS.items() if spec[0] == role]
        specialist = pick.choice(options) if pick.random() < 0.3 else None
        riders.append(RiderEntry(10 * team + offset, role, specialist, pick.choice((0, 0, 1, 3))))
    return TeamEntry(team, tuple(riders))


def run(count: int, start: int = 0) -> tuple[int, CheckReport]:
    """Simulate and check ``count`` seeded stages; returns (stages, the summed report)."""
    total = CheckReport()
    stages = 0
    for setup, seed in seeded_stages(count, start):
        outcome = simulate_stage(setup, seed)
        total.add(check_stage(setup, json.loads(json.dumps(outcome.to_json()))))
        stages += 1
    return stages, total


def main(argv: list[str] | None = None) -> int:
    """``python -m games.flamme_rouge.check --stages 5000``: check seeded stages, print totals."""
    return check_command(
        argv, game="Flamme Rouge", moves_word="moves", default_stages=2000, run=run
    )


__all__ = ["CheckReport", "check_stage", "run", "seeded_stages"]

if __name__ == "__main__":
    sys.exit(main())
