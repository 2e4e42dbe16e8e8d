"""Formula D replay checker: every move of a replay against the numbered rules, from the log alone.

:func:`check_replay` reads a replay (``RaceOutcome.replay_json()``, as the replay endpoint
serves it) and the race's set-up (circuit, rules, rule set, entry order) and replays it on its
own board model (:mod:`games.formula_d.board`), never calling the engine: the grid rolls
(FD-6), start rolls (FD-7), turn order (FD-9), gears and dice faces (FD-1, FD-13, FD-14,
FD-46, FD-61), each step (FD-15, FD-16, FD-21, FD-23, FD-49), corners, stops and overshoots
(FD-18 to FD-24), braking (FD-26), WP (FD-5, FD-28, FD-34, FD-45; zones FD-59 to FD-63),
collision and engine tests (FD-29 to FD-33), the finish and the result (FD-38 to FD-42), pit
stops (FD-43 to FD-49, FD-68), nitro and checkpoints (FD-52, FD-56), and under the advanced rules
debris (FD-64), slipstreams (FD-65), tyre bonuses (FD-66) and the weather (FD-67).

Whether spaces given up were braked or blocked (FD-27) is decided by the checker's own path
search (:class:`_Reach`) on moves that gave spaces up. Not checked: the driver's choices among
legal moves; street tunnels (FD-55: none on the shipped board).

Each check adds one to ``Totals.checks``; each failure adds a line to ``Totals.violations``
naming the race, round, driver and rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from games.formula_d.board import PIT_SEGMENT, Board
from games.formula_d.circuit import Circuit, Pos
from scoring.formula_d.rules import ZONES, FormulaDRules

# FD-1: the gear dice's faces (values that can be rolled), and the black die (FD-3)
GEAR_VALUES = {1: range(1, 3), 2: range(2, 5), 3: range(4, 9), 4: range(7, 13)}
GEAR_VALUES |= {5: range(11, 21), 6: range(21, 31)}
BLACK_VALUES = range(1, 21)
ENGINE_TRIGGER = {5: 20, 6: 30}  # FD-32
FATAL_ZONES = ("body", "engine", "handling")  # FD-59
TEST_KINDS = ("collision", "engine", "debris", "danger", "noise")  # black-die tests


@dataclass(slots=True)
class Totals:
    """What the checker looked at and what it found."""

    races: int = 0
    moves: int = 0
    checks: int = 0
    violations: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Car:
    driver: int
    index: int  # entry order (FD-44 boxes)
    wp: int
    zones: dict[str, int] | None = None
    zone_start: dict[str, int] | None = None
    pos: Pos = (0, 0, 0)
    gear: int = 1
    started: bool = False
    stalled: bool = False
    spun: bool = False
    crossings: int = 0
    wraps: int = 0
    corner: int = -1
    stops: int = 0
    corner_spaces: int = 0
    pitted: set[int] = field(default_factory=set)
    in_box: bool = False
    pit_done: bool = False
    exit_max_gear: int = 6
    nitro_lap: int = -1
    status: str = "running"
    tyre: str = "hard"
    tyre_lap: int = 0
    eliminated_as: int = 0

    @property
    def laps_done(self) -> int:
        return max(0, self.crossings - 1)

    @property
    def in_pit(self) -> bool:
        return self.pos[0] == PIT_SEGMENT


@dataclass(slots=True)
class _Walk:
    """What a path did, step by step (see :meth:`ReplayChecker._walk`)."""

    steps: int = 0
    lane_changes: int = 0
    short: int = 0  # corners left with too few stops
    overshoot: int = 0  # FD-22: spaces beyond short corners' exit lines
    out: bool = False  # two or more stops short
    exited: int = -1  # the last corner left
    crossed: bool = False
    finished: bool = False
    into_box: bool = False
    corner_move: bool = False  # FD-66: a space inside a corner
    corner_entries: list[int] = field(default_factory=list)  # FD-65: corners entered
    slipstream_brakes: int = 0  # FD-65: brake WP due for a slipstream leg


class ReplayChecker:
    """Checks replays of races on one circuit under one set of rules; totals add up."""

    def __init__(
        self,
        circuit: Circuit,
        rules: FormulaDRules,
        *,
        rule_set: str = "basic",
        totals: Totals | None = None,
    ) -> None:
        self.board = Board(circuit)
        self.circuit = circuit
        self.rules = rules
        self.advanced = rule_set == "advanced"
        self.totals = totals if totals is not None else Totals()
        self.where = ""

    # -- bookkeeping -------------------------------------------------------------------------

    def expect(self, ok: bool, rule: str, what: str) -> bool:
        """One check: ``ok`` or a violation of ``rule`` described by ``what``."""
        self.totals.checks += 1
        if not ok:
            self.totals.violations.append(f"{self.where}: {rule}: {what}")
        return ok

    def check(self, replay: Mapping[str, Any], entrants: Sequence[int], label: str = "") -> None:
        """Check one replay; ``entrants`` are the driver ids in entry order (FD-44 boxes)."""
        self.label = label or "race"
        self.where = self.label
        self.laps = int(replay["laps"])
        self.cars = {d: self._new_car(d, i) for i, d in enumerate(entrants)}
        self.weather = "good"
        self.debris: set[Pos] = set()
        self.finishers: list[int] = []
        self.eliminated: list[int] = []
        self.round = 0
        self.moved: list[int] = []
        self.police: dict[int, list[tuple[int, int]]] = {}
        self._grid(replay)
        self._weather_start(replay)
        self._tyres_start(replay)
        for move in replay["moves"]:
            self.totals.moves += 1
            self._move(move)
        self.where = self.label
        self._results(replay)
        self.totals.races += 1

    def _new_car(self, driver: int, index: int) -> _Car:
        car = _Car(driver, index, self.rules.wp_start)
        if self.advanced:
            car.zones = self.rules.zone_defaults()
            car.zone_start = dict(car.zones)
            car.wp = sum(car.zones.values())
        return car

    # -- before the race ---------------------------------------------------------------------

    def _grid(self, replay: Mapping[str, Any]) -> None:
        """FD-6: highest roll on pole; equal rolls re-roll among themselves."""
        rolls = [(int(d), int(r)) for d, r in replay.get("grid_rolls", [])]
        for _, r in rolls:
            self.expect(r in BLACK_VALUES, "FD-3", f"grid roll {r} is not a black-die face")
        order, rest = self._grid_order(sorted(self.cars), rolls)
        self.expect(not rest, "FD-6", "grid rolls left over")
        grid = [int(d) for d in replay["grid"]]
        self.expect(order == grid, "FD-6", "grid order vs its rolls")
        for car, slot in zip(grid, self.circuit.grid, strict=False):
            self.cars[car].pos = slot

    def _grid_order(
        self, group: list[int], rolls: list[tuple[int, int]]
    ) -> tuple[list[int], list[tuple[int, int]]]:
        if len(group) <= 1:
            return group, rolls
        mine, rest = rolls[: len(group)], rolls[len(group) :]
        if not self.expect(sorted(d for d, _ in mine) == sorted(group), "FD-6", "grid roll set"):
            return group, rest
        value = dict(mine)
        out: list[int] = []
        for v in sorted(set(value.values()), reverse=True):
            tied = [d for d, _ in mine if value[d] == v]
            placed, rest = self._grid_order(tied, rest)
            out += placed
        return out, rest

    def _weather_start(self, replay: Mapping[str, Any]) -> None:
        """FD-67: a chart roll before the grid roll and one before the race; the last decides."""
        chart = self.circuit.weather
        rolls = [int(r) for r in replay.get("weather_rolls", [])]
        if not (self.advanced and self.rules.weather and chart is not None):
            self.expect(not rolls, "FD-67", "weather rolls without the weather rule")
            return
        if self.expect(len(rolls) == 2, "FD-67", "two weather chart rolls"):
            self.weather = self._band(rolls[-1])
            states = replay.get("weather", [])  # one state per chart roll, then the changes
            self.expect(states[1:2] == [self.weather], "FD-67", "start weather")

    def _band(self, value: int) -> str:
        chart = self.circuit.weather
        assert chart is not None
        if value <= chart.rain_max:
            return "rain"
        return "changeable" if value <= chart.changeable_max else "good"

    def _tyres_start(self, replay: Mapping[str, Any]) -> None:
        for driver, tyre in replay.get("tyres", []):
            self.expect(tyre in ("hard", "soft", "rain"), "FD-66", f"tyre {tyre!r}")
            self.cars[int(driver)].tyre = tyre

    # -- one move ----------------------------------------------------------------------------

    def _move(self, m: Mapping[str, Any]) -> None:
        car = self.cars[int(m["driver"])]
        if m["round"] != self.round:
            self._new_round(int(m["round"]))
        self.where = f"{self.label} round {m['round']} driver {car.driver}"
        self.expect(car.status == "running", "FD-35", "a car out of the race moves")
        self.expect(car.driver not in self.moved, "FD-9", "a second move in one round")
        self.moved.append(car.driver)
        events = list(m["events"])
        roll = self._announce(car, m, events)
        others = {c.pos: c for c in self.cars.values() if c is not car and c.status == "running"}
        if roll is not None:
            self._main_part(car, m, roll, others, events)
        self._after_events(car, m, events)

    def _new_round(self, number: int) -> None:
        """FD-9: every running car moved once in the round that ended."""
        if self.round:
            running = {d for d, c in self.cars.items() if c.status == "running"}
            self.expect(running <= set(self.moved), "FD-9", f"round {self.round}: a car missed")
        self.expect(number == self.round + 1, "FD-9", "rounds follow each other")
        self.round = number
        self.moved = []
        self.order = self._round_order()

    def _round_order(self) -> list[int]:
        """FD-9/FD-10: further along first (laps, distance), then higher gear, nearer inside;
        the cars in the pit lane after the track (FD-50)."""
        if self.round == 1:
            return [d for d in self.grid_order() if self.cars[d].status == "running"]
        running = [c for c in self.cars.values() if c.status == "running"]
        return [c.driver for c in sorted(running, key=self._order_key)]

    def grid_order(self) -> list[int]:
        return sorted(self.cars, key=lambda d: self.circuit.grid.index(self.cars[d].pos))

    def _order_key(self, car: _Car) -> tuple[Any, ...]:
        if car.in_pit:  # FD-50: after the cars on the track, further along first
            return (-car.wraps, 1, -car.pos[2], 0, 0, car.index)
        progress = self.board.progress(car.pos)
        return (-car.wraps, 0, -progress, -car.gear, self.board.inside_lanes(car.pos), car.index)

    def _check_order(self, car: _Car) -> None:
        # the cars that moved so far this round follow the order fixed at its start (a car
        # eliminated before its turn drops out)
        ranks = [self.order.index(d) for d in self.moved if d in self.order]
        ok = car.driver in self.order and ranks == sorted(ranks)
        self.expect(ok, "FD-9/FD-10", f"turn order {self.moved} vs {self.order}")

    # -- gear and roll -----------------------------------------------------------------------

    def _announce(self, car: _Car, m: Mapping[str, Any], events: list[Any]) -> int | None:
        """The start roll (FD-7) or the announced gear and its roll; the spaces to move."""
        self._check_order(car)
        if not car.started:
            return self._start(car, m, events)
        gear = int(m["gear"])
        self._gear_allowed(car, gear)
        self._downshift(car, gear, events)
        car.gear = gear
        car.in_box = car.stalled = car.spun = False
        car.exit_max_gear = 6
        roll = m["roll"]
        if roll is None:
            self.expect(car.wp <= 0 or self._lost(events), "FD-11", "no roll")
            return None
        self.expect(roll in GEAR_VALUES[gear], "FD-1", f"roll {roll} on the gear-{gear} die")
        return int(roll)

    def _lost(self, events: list[Any]) -> bool:
        return any(e["kind"] == "eliminated" for e in events)

    def _start(self, car: _Car, m: Mapping[str, Any], events: list[Any]) -> int | None:
        """FD-7: the black die: stall, normal start (1st-gear die) or great start."""
        car.started = True
        start = events.pop(0) if events and events[0]["kind"] == "start" else None
        if not self.expect(start is not None, "FD-7", "no start roll"):
            return None
        assert start is not None
        value = int(start["roll"])
        self.expect(value in BLACK_VALUES, "FD-3", f"start roll {value}")
        self.expect(m["gear"] == 1, "FD-12", "the first move is in 1st")
        rules = self.rules
        if value <= rules.start_stall_max:
            self.expect(m.get("start") == "stall" and not m["path"], "FD-7", "a stall moves")
            car.stalled = True
            return None
        if value >= rules.start_great_min:
            self.expect(m.get("start") == "great", "FD-7", "great start")
            self.expect(m["roll"] == rules.start_great_spaces, "FD-7", "great start spaces")
            return rules.start_great_spaces
        self.expect(m.get("start") == "normal", "FD-7", "normal start")
        self.expect(m["roll"] in GEAR_VALUES[1], "FD-1", "1st-gear roll")
        return int(m["roll"])

    def _gear_allowed(self, car: _Car, gear: int) -> None:
        rules = self.rules
        if car.in_box:
            top = min(rules.pit_exit_max_gear, car.exit_max_gear)
            self.expect(1 <= gear <= top, "FD-46", f"gear {gear} out of the box")
            return
        if car.stalled or car.spun:
            self.expect(gear == 1, "FD-7/FD-61", "1st after a stall or a spin")
            return
        self.expect(gear <= car.gear + rules.max_upshift, "FD-13", f"{car.gear} -> {gear}")
        self.expect(gear >= car.gear - rules.max_downshift, "FD-14", f"{car.gear} -> {gear}")
        self.expect(1 <= gear <= 6, "FD-12", f"gear {gear}")

    def _downshift(self, car: _Car, gear: int, events: list[Any]) -> None:
        """FD-14 (basic) or FD-63 (advanced): the cost of the gears skipped."""
        skipped = car.gear - gear - 1
        free = car.in_pit or car.in_box or car.spun or car.stalled
        lost = [e for e in events if e["kind"] == "downshift"]
        paid = -sum(int(e.get("wp", 0)) for e in lost)
        if not self.advanced:
            cost = 0 if car.in_pit else max(0, skipped) * self.rules.downshift_wp_per_skipped_gear
            self.expect(paid == cost, "FD-14", f"downshift cost {paid}, due {cost}")
            return
        due = {} if free else self.rules.downshift_table.cost(skipped)
        if not self.expect(due is not None, "FD-63", f"{skipped} gears skipped"):
            return
        assert due is not None
        for zone in ZONES:
            got = -sum(int(e.get("wp", 0)) for e in lost if e.get("detail") == zone)
            self.expect(got == due.get(zone, 0) or self._lost(events), "FD-63", f"{zone} {got}")

    # -- the path ----------------------------------------------------------------------------

    def _main_part(
        self,
        car: _Car,
        m: Mapping[str, Any],
        roll: int,
        others: dict[Pos, _Car],
        events: list[Any],
    ) -> None:
        path = [self.board.pos(p) for p in m["path"]]
        if not self.expect(bool(path) and path[0] == car.pos, "FD-15", "path starts elsewhere"):
            return
        nitro = bool(m.get("nitro"))
        walk = self._walk(car, path, others, self.rules.max_lane_changes)
        total = self._length(car, m, walk, roll, nitro, events)
        if int(m["braked"]) and not m.get("legs"):
            self._blocking(car, total, others, events)
        if m.get("start") == "great" and walk.lane_changes:
            self._great_start_lanes(car, others, walk.steps + int(m["braked"]))
        self._arrive(car, path, walk)
        walks = [walk]
        for leg in m.get("legs", []):
            walks.append(self._leg(car, leg, others, events))
        self._charge(car, walks, events)

    def _walk(
        self, car: _Car, path: list[Pos], others: Mapping[Pos, _Car], lane_limit: int
    ) -> _Walk:
        """Every step of ``path``: legal, free, within the lane and corner rules."""
        walk = _Walk()
        left: dict[int, Pos] = {}  # lane -> the space the car left it from (FD-16)
        locked = False
        inside = car.corner_spaces
        for a, b in pairwise(path):
            walk.steps += 1
            self.expect(b not in others, "FD-15", f"through or onto a car at {b}")
            changed = self._step(car, a, b, walk)
            if changed:
                self.expect(not locked, "FD-21/FD-23", "a lane change after the exit line")
                walk.lane_changes += 1
                self.expect(walk.lane_changes <= lane_limit, "FD-16", "too many lane changes")
                self._zigzag(left, a, b, others)
            locked = self._corner_exit(car, a, b, walk) or locked
            if self.board.is_corner(b) and a[0] != b[0]:
                walk.corner_entries.append(b[0])
            inside = self._corner_length(a, b, inside)
            walk.overshoot += walk.short
            if self.board.crosses_line(a, b):
                walk.crossed = True
                walk.finished = car.crossings == self.laps
            ended = walk.finished or walk.into_box or walk.out
            if ended and b != path[-1]:
                self.expect(False, "FD-39/FD-44/FD-22", "the move goes on after it ended")
        return walk

    def _step(self, car: _Car, a: Pos, b: Pos, walk: _Walk) -> bool:
        """One step is forward, diagonal, into the pit lane or along it; whether it changed lane."""
        board = self.board
        pit = self.circuit.pit
        if a[0] == PIT_SEGMENT:
            self.expect(b == board.forward(a), "FD-49", f"pit lane step {a} -> {b}")
            self._box(car, b, walk)
            return False
        if b[0] == PIT_SEGMENT:
            ok = pit is not None and board.forward(a) == pit.entry and b == (PIT_SEGMENT, 0, 0)
            self.expect(ok, "FD-44", f"into the pit lane from {a}")
            self._pit_allowed(car)
            self._box(car, b, walk)
            return False
        if b == board.forward(a):
            walk.corner_move = walk.corner_move or board.is_corner(b)
            return False
        ok = b in (board.diagonal(a, a[1] - 1), board.diagonal(a, a[1] + 1))
        self.expect(ok, "FD-15/FD-16", f"step {a} -> {b} is neither forward nor diagonal")
        walk.corner_move = walk.corner_move or board.is_corner(b)
        return True

    def _pit_allowed(self, car: _Car) -> None:
        """FD-43/FD-68: a stop at the end of any lap but the last, once a lap."""
        lap = car.laps_done
        ok = self.laps > 1 and car.crossings >= 1 and lap < self.laps - 1 and lap not in car.pitted
        self.expect(ok, "FD-43", f"pit entry on lap {lap + 1}")

    def _box(self, car: _Car, b: Pos, walk: _Walk) -> None:
        pit = self.circuit.pit
        assert pit is not None
        if b[0] == PIT_SEGMENT and not car.pit_done and b[2] == pit.boxes[car.index]:
            walk.into_box = True  # FD-44: a roll reaching the car's own box puts it there

    def _zigzag(self, left: dict[int, Pos], a: Pos, b: Pos, others: Mapping[Pos, _Car]) -> None:
        """FD-16: back into a lane left earlier in the move only to go round a car (or danger,
        FD-54, or debris, FD-64): something must stand in it between leaving and returning."""
        origin = left.get(b[1])
        left.setdefault(a[1], a)
        if origin is not None:
            ok = self.went_round(origin, b, others)
            self.expect(ok, "FD-16", f"zig-zag back into lane {b[1]} with nothing to go round")

    def went_round(self, origin: Pos, back: Pos, others: Mapping[Pos, Any]) -> bool:
        """Whether a car, danger or debris stands in the lane left at ``origin`` before ``back``,
        where the car comes back into it."""
        board = self.board
        target = board.far_edge(back)
        p = board.forward(origin)
        danger = self.circuit.street.danger if self.rules.street_rules else frozenset()
        for _ in range(64):
            if p[0] == target[0] and board.far_edge(p)[1] >= target[1]:
                return False
            if p in others or p in danger or p in self.debris:
                return True
            p = board.forward(p)
        return False

    def _corner_exit(self, car: _Car, a: Pos, b: Pos, walk: _Walk) -> bool:
        """FD-18/FD-22/FD-23: leaving a corner with too few stops; whether the lane is locked."""
        board = self.board
        if not board.is_corner(a) or a[0] == b[0]:
            return False
        corner = self.circuit.segments[a[0]]
        made = car.stops if a[0] == car.corner and walk.exited < 0 else 0
        walk.exited = a[0]
        missing = corner.stops - made
        if missing <= 0:
            return self.rules.exit_lane_lock == "always"  # FD-21
        walk.short += 1
        if missing > self.rules.overshoot_max_missing_stops:
            walk.out = True
        return True

    def _corner_length(self, a: Pos, b: Pos, inside: int) -> int:
        """FD-20: no passage through a corner longer than its longest path (over all moves),
        none shorter than its shortest."""
        board = self.board
        if board.is_corner(a) and a[0] != b[0] and inside:
            shortest = self.circuit.segments[a[0]].shortest
            self.expect(inside >= shortest, "FD-20", f"{inside} spaces through a corner")
        if not board.is_corner(b):
            return 0
        inside = inside + 1 if a[0] == b[0] else 1
        longest = self.circuit.segments[b[0]].longest
        self.expect(inside <= longest, "FD-20", f"{inside} spaces through a corner of {longest}")
        return inside

    def _great_start_lanes(self, car: _Car, others: Mapping[Pos, _Car], spaces: int) -> None:
        """FD-7: a great start changes lanes only to get round cars (decisions-formula-d.md):
        one of the spaces ahead in its lane (as many as it moves, nitro included) is taken."""
        p = car.pos
        blocked = False
        for _ in range(spaces):
            p = self.board.forward(p)
            blocked = blocked or p in others
        self.expect(blocked, "FD-7", "a great start changed lanes with its lane free")

    # -- spaces, braking and WP ---------------------------------------------------------------

    def _length(
        self,
        car: _Car,
        m: Mapping[str, Any],
        walk: _Walk,
        roll: int,
        nitro: bool,
        events: list[Any],
    ) -> int:
        """FD-15/FD-26: the spaces moved and braked add up to the roll (plus bonuses); the
        spaces the move had."""
        total = roll + (car.gear if nitro else 0)
        if nitro:
            self._nitro(car)
        total += self._tyre_bonus(car, walk, m, roll)
        self.expect(m["moved"] == walk.steps, "FD-15", "moved vs path")
        self.expect(walk.steps <= total, "FD-15", f"{walk.steps} spaces for {total}")
        terminal = walk.finished or walk.into_box or walk.out or ends_in_pit(m)
        braked = 0 if terminal else total - walk.steps
        self.expect(m["braked"] == braked, "FD-26", f"braked {m['braked']}, due {braked}")
        if nitro and braked:
            blocked = any(e["kind"] == "blocked" for e in events)
            self.expect(blocked, "FD-52", "a nitro move braked")
        self._brake_cost(car, braked, events)
        return total

    def _blocking(
        self, car: _Car, total: int, others: Mapping[Pos, _Car], events: list[Any]
    ) -> None:
        """FD-27: spaces given up are "blocked" exactly when no legal path uses the whole roll
        (and none finishes, boxes or is out): the checker's own path search decides."""
        gone = [e for e in events if e["kind"] == "eliminated" and e["driver"] == car.driver]
        if gone and gone[0].get("detail") == "overshoot":
            return  # out before the braking is charged: nothing says blocked or braked
        forced = _Reach(self, car, others).forced(total)
        notes = [e for e in events if e["kind"] == "blocked" and e["driver"] == car.driver]
        if self.advanced:
            claimed = [int(str(e["detail"]).split()[0]) for e in notes if "wp" not in e]
            self.expect(
                claimed in ([], [forced]) and bool(claimed) == bool(forced),
                "FD-27",
                f"blocked {claimed}, the board gives {forced}",
            )
            return
        self.expect(
            bool(notes) == bool(forced),
            "FD-27",
            f"blocked: {bool(notes)}, the board gives {forced}",
        )

    def _nitro(self, car: _Car) -> None:
        """FD-52: once a lap, never in the pit lane, with the street rules."""
        self.expect(self.rules.street_rules, "FD-51", "nitro without the street rules")
        self.expect(car.nitro_lap != car.laps_done, "FD-52", "a second nitro in a lap")
        self.expect(not car.in_pit, "FD-52", "nitro in the pit lane")
        car.nitro_lap = car.laps_done

    def _tyre_bonus(self, car: _Car, walk: _Walk, m: Mapping[str, Any], roll: int) -> int:
        """FD-66: the compulsory wet corner bonus; the dry soft tyres' optional +1 on lap 1."""
        if not (self.advanced and self.rules.tyres):
            return 0
        wet = self.weather in ("rain-changeable", "rain")
        lap = car.laps_done + 1
        if wet and walk.corner_move:
            bonus = {"hard": 3, "soft": 3 if lap <= 2 else 0, "rain": 1}[car.tyre]
            return bonus
        soft = not wet and car.tyre == "soft" and car.laps_done == 0 and not car.in_pit
        if soft and not car.in_box and walk.steps + int(m["braked"]) == roll + 1:
            return 1
        return 0

    def _brake_cost(self, car: _Car, braked: int, events: list[Any]) -> None:
        paid = [e for e in events if e["kind"] in ("brake", "blocked") and "wp" in e]
        if self.advanced:
            self._zone_brakes(braked, events)
            return
        due = braked * self.rules.brake_wp_per_space
        got = -sum(int(e["wp"]) for e in paid)
        self.expect(got == due or (got < due and self._lost(events)), "FD-26", "brake WP")

    def _zone_brakes(self, braked: int, events: list[Any]) -> None:
        """FD-60/FD-62: voluntary braking costs brake WP per space; blocked spaces the table."""
        rules = self.rules
        notes = [e for e in events if e["kind"] == "blocked" and "wp" not in e]
        forced = int(str(notes[0]["detail"]).split()[0]) if notes else 0
        self.expect(forced <= braked, "FD-62", f"{forced} blocked of {braked} braked")
        table = rules.blocking_table.cost(forced)
        lost = self._lost(events)
        if table is None:
            self.expect(lost, "FD-62", f"blocked {forced} spaces and not eliminated")
            return
        blocked: dict[str, int] = {}
        for e in notes_paid(events):
            blocked[str(e.get("detail"))] = blocked.get(str(e.get("detail")), 0) - int(e["wp"])
        for zone, due in zip(("brakes", "tyres"), table, strict=True):
            self.expect(blocked.get(zone, 0) == due or lost, "FD-62", f"blocked {zone} WP")
        brake = -sum(int(e["wp"]) for e in events if e["kind"] == "brake")
        due = (braked - forced) * rules.brake_wp_per_space
        self.expect(brake == due or lost, "FD-60", f"brake WP {brake}, due {due}")

    def _charge(self, car: _Car, walks: list[_Walk], events: list[Any]) -> None:
        """FD-22: the overshoot of each part of the move (main path, slipstreams): WP per space
        beyond the exit line, or out at two stops short (advanced: tyre WP times the tyre
        multiplier, FD-61 and FD-66, never more than the tyres have)."""
        due_brakes = sum(w.slipstream_brakes for w in walks)
        paid = [e for e in events if e["kind"] == "slipstream" and "wp" in e]
        got_brakes = -sum(int(e["wp"]) for e in paid)
        ok = got_brakes == due_brakes or self._lost(events)
        self.expect(ok, "FD-65", f"slipstream brake WP {got_brakes}, due {due_brakes}")
        over = [e for e in events if e["kind"] == "overshoot" and e["driver"] == car.driver]
        if any(w.out for w in walks):
            self.expect(bool(over), "FD-22", "no overshoot event")
            out = [e for e in events if e["kind"] == "eliminated" and e["driver"] == car.driver]
            self.expect(bool(out), "FD-22", "two stops short and not eliminated")
            return
        due = [w.overshoot * self.rules.overshoot_wp_per_space for w in walks if w.overshoot]
        self.expect(len(over) == len(due), "FD-22", f"{len(over)} overshoots, {len(due)} due")
        tyres = (car.zones or {}).get("tyres", 0)
        for event, wp in zip(over, due, strict=False):
            got = -int(event.get("wp", 0))
            if self.advanced:
                wp = min(wp * self._multiplier(car), tyres)
                tyres -= wp
            self.expect(got == wp, "FD-22", f"overshoot WP {got}, due {wp}")

    def _multiplier(self, car: _Car) -> int:
        """FD-66: overshoot multiplier of the tyres on the lap driven."""
        if not self.rules.tyres:
            return 1
        lap, age = car.laps_done + 1, car.laps_done - car.tyre_lap
        if self.weather in ("rain-changeable", "rain"):
            return 3 if car.tyre == "soft" and lap >= 3 and age >= 2 else 1
        if car.tyre == "soft":
            return 2 if lap == 1 else (3 if age >= 2 else 1)
        if car.tyre == "rain":
            return 3 if lap >= 3 and age >= 2 else 2
        return 1

    # -- where the car ends up ---------------------------------------------------------------

    def _arrive(self, car: _Car, path: list[Pos], walk: _Walk) -> None:
        """The car's position, laps, stops (FD-18, FD-24), corner spaces and pit visit."""
        board = self.board
        for a, b in pairwise(path):
            if a[0] != b[0] and a[0] != PIT_SEGMENT and b[0] in (0, PIT_SEGMENT):
                car.wraps += 1
            if board.is_corner(b):
                car.corner_spaces = car.corner_spaces + 1 if a[0] == b[0] else 1
            else:
                car.corner_spaces = 0
        car.pos = path[-1]
        if walk.crossed:
            car.crossings += 1
        if walk.finished or walk.out:
            return
        if not car.in_pit:
            car.pit_done = False
        self._stops(car, walk)
        if walk.into_box:
            car.pitted.add(car.laps_done)
            car.crossings += 1  # FD-47
            car.in_box = car.pit_done = True

    def _stops(self, car: _Car, walk: _Walk) -> None:
        seg = car.pos[0]
        if not self.board.is_corner(car.pos):
            car.corner, car.stops = -1, 0
        elif seg == car.corner and walk.exited < 0:
            car.stops += 1
        else:
            voids = walk.short > 0
            if self.rules.overshoot_stop_voids != "overshoot_only":
                voids = walk.exited >= 0
            car.corner, car.stops = seg, 0 if voids else 1

    # -- legs: slipstream and quick pit exit --------------------------------------------------

    def _leg(
        self, car: _Car, leg: Mapping[str, Any], others: dict[Pos, _Car], events: list[Any]
    ) -> _Walk:
        path = [self.board.pos(p) for p in leg["path"]]
        self.expect(bool(path) and path[0] == car.pos, "FD-65/FD-68", "leg starts elsewhere")
        if leg["kind"] == "slipstream":
            self._slipstream(car, leg, others)
            lane_limit = 2
        else:
            self._quick_stop(car, leg, events)
            car.gear = 4
            car.in_box = False
            lane_limit = self.rules.max_lane_changes
        if car.stops and car.corner >= 0 and leg["kind"] == "slipstream":
            car.stops -= 1  # the move has not ended: no stop yet
        walk = self._walk(car, path, others, lane_limit)
        self.expect(leg["moved"] == walk.steps <= leg["spaces"], "FD-65/FD-68", "leg length")
        self._charge_leg(car, leg, walk, events)
        self._arrive(car, path, walk)
        return walk

    def _quick_stop(self, car: _Car, leg: Mapping[str, Any], events: list[Any]) -> None:
        """FD-68: a quick stop (the black die up to ``pit_quick_max``) leaves at once in 4th,
        moving half the roll rounded up."""
        self.expect(self.advanced and car.in_box, "FD-68", "a quick exit from no box")
        self.expect(leg["gear"] == 4, "FD-68", "a quick exit in 4th")
        stops = [e for e in events if e["kind"] == "pit_stop" and e.get("detail") == "quick"]
        if self.expect(len(stops) == 1, "FD-68", "a quick exit without its quick stop roll"):
            value = int(stops[0]["roll"])
            self.expect(value <= self.rules.pit_quick_max, "FD-68", f"quick stop on {value}")
            self.expect(leg["spaces"] == (value + 1) // 2, "FD-68", "half the roll, rounded up")

    def _slipstream(self, car: _Car, leg: Mapping[str, Any], others: Mapping[Pos, _Car]) -> None:
        """FD-65: both in 4th or higher, the follower's gear at least the leader's, directly
        behind it, exactly ``slipstream_spaces`` offered."""
        rules = self.rules
        leader = others.get(self.board.forward(car.pos))
        ok = leader is not None and not leader.in_pit and rules.slipstream
        if self.expect(ok, "FD-65", "a slipstream with no car directly ahead"):
            assert leader is not None
            self.expect(car.gear >= rules.slipstream_min_gear, "FD-65", "follower's gear")
            self.expect(leader.gear >= rules.slipstream_min_gear, "FD-65", "leader's gear")
            self.expect(car.gear >= leader.gear, "FD-65", "follower slower than the leader")
        self.expect(leg["spaces"] == rules.slipstream_spaces, "FD-65", "slipstream spaces")
        self.expect(leg["gear"] == car.gear, "FD-65", "gear during the slipstream")

    def _charge_leg(
        self, car: _Car, leg: Mapping[str, Any], walk: _Walk, events: list[Any]
    ) -> None:
        """FD-65: brake WP for the slipstream spaces given up and each corner entered (checked
        for all the move's slipstreams together in :meth:`_charge`)."""
        if leg["kind"] == "pit_exit" or not walk.steps:
            return
        rules = self.rules
        due = (int(leg["spaces"]) - walk.steps) * rules.brake_wp_per_space
        due += len(walk.corner_entries) * rules.slipstream_corner_brake_wp
        walk.slipstream_brakes = due

    # -- events after the path ---------------------------------------------------------------

    def _after_events(self, car: _Car, m: Mapping[str, Any], events: list[Any]) -> None:
        """The tests and WP changes of the move's events, then the record's WP and zones."""
        self._tests(car, m, events)
        for e in events:
            self._event(e)
        if car.status == "running":
            self._wp_matches(car, m)

    def _tests(self, car: _Car, m: Mapping[str, Any], events: list[Any]) -> None:
        """FD-29 to FD-33: collision and engine tests have rolls, mover or trigger first."""
        rolls = [e for e in events if e["kind"] in TEST_KINDS and "roll" in e]
        missing = [e for e in events if e["kind"] in TEST_KINDS and "roll" not in e]
        self.expect(not missing, "FD-30/FD-33", "a test without its roll")
        rules = self.rules
        for e in rolls:
            self.expect(e["roll"] in BLACK_VALUES, "FD-3", f"{e['kind']} roll {e['roll']}")
            self._test_outcome(e, rules)
        collisions = [e for e in rolls if e["kind"] == "collision"]
        if collisions:
            self.expect(collisions[0]["driver"] == car.driver, "FD-30", "the mover rolls first")
            self.expect(not car.in_pit, "FD-31", "a collision test in the pit lane")
        engines = [e for e in rolls if e["kind"] == "engine"]
        trigger = m["roll"] == ENGINE_TRIGGER.get(int(m["gear"])) and m.get("start") is None
        self.expect(bool(engines) <= trigger, "FD-32", "an engine test with no trigger")
        gone = any(
            e["kind"] in ("finish", "eliminated") and e["driver"] == car.driver for e in events
        )
        if engines and not car.in_pit and not gone:
            self.expect(engines[0]["driver"] == car.driver, "FD-33", "the trigger rolls first")

    def _test_outcome(self, e: Mapping[str, Any], rules: FormulaDRules) -> None:
        wet = self.weather in ("rain-changeable", "rain")
        limit = {
            "collision": rules.collision_fail_max_rain if wet else rules.collision_fail_max,
            "engine": rules.engine_fail_max_rain if wet else rules.engine_fail_max,
            "debris": rules.debris_fail_max_rain if wet else rules.debris_fail_max,
            "danger": rules.danger_fail_max,
        }
        if not self.advanced:
            limit["collision"], limit["engine"] = rules.collision_fail_max, rules.engine_fail_max
        kind, roll = e["kind"], int(e["roll"])
        failed = roll >= rules.noise_fail_min if kind == "noise" else roll <= limit[kind]
        self.expect(failed == ("wp" in e), f"test {kind}", f"roll {roll} and loss {e.get('wp')}")

    def _event(self, e: Mapping[str, Any]) -> None:
        kind = e["kind"]
        if kind == "weather":
            self.weather = str(e["detail"])
            return
        car = self.cars.get(int(e["driver"]))
        if car is None:
            return
        if kind == "eliminated":
            self._eliminated(car, e)
        elif kind == "finish":
            self.finishers.append(car.driver)
            self.expect(int(e["detail"]) == len(self.finishers), "FD-40", "finishing order")
            car.status = "finished"
        elif kind == "tyres":
            car.tyre, car.tyre_lap = str(e["detail"]), car.laps_done
        elif kind == "spin":
            car.spun = True
        elif kind == "technical stop":
            car.exit_max_gear = 4
        if "wp" in e and car.status == "running":
            self._wp_change(car, e)

    def _drop_debris(self, car: _Car) -> None:
        # FD-64: body and engine losses and eliminations leave debris where the car stands
        if car.pos[0] != PIT_SEGMENT:
            self.debris.add(car.pos)

    def _wp_change(self, car: _Car, e: Mapping[str, Any]) -> None:
        wp = int(e["wp"])
        if wp < 0 and e.get("detail") in ("body", "engine"):
            self._drop_debris(car)
        if car.zones is None:
            car.wp = min(self.rules.wp_start, car.wp + wp)  # FD-5
            return
        zone = str(e.get("detail"))
        if self.expect(zone in car.zones, "FD-60", f"a loss to no zone ({zone})"):
            assert car.zone_start is not None
            car.zones[zone] = min(car.zone_start[zone], max(0, car.zones[zone] + wp))
            car.wp = sum(car.zones.values())

    def _eliminated(self, car: _Car, e: Mapping[str, Any]) -> None:
        """FD-34/FD-36: out at 0 WP (a fatal zone at 0, a loss it cannot pay) or two stops
        short; an eliminating test's roll is on the test's event."""
        self.expect(car.status == "running", "FD-35", "eliminated twice")
        car.status = "eliminated"
        self.eliminated.append(car.driver)
        car.eliminated_as = len(self.eliminated)
        cause = e.get("detail")
        if self.advanced:
            self._drop_debris(car)
        elif cause in TEST_KINDS or cause in ("brake", "downshift", "blocked"):
            self.expect(car.wp <= 0, "FD-34", f"eliminated by {cause} with {car.wp} WP")

    def _wp_matches(self, car: _Car, m: Mapping[str, Any]) -> None:
        """The record's WP (and zones) after the move are those the events add up to."""
        if car.zones is not None:
            zones = m.get("zones", {})
            self.expect(dict(zones) == car.zones, "FD-59/FD-60", f"zones {zones} vs {car.zones}")
            self._fatal_zones(car)
        self.expect(m["wp"] == car.wp, "FD-5/FD-28", f"WP {m['wp']}, the events give {car.wp}")
        self.expect(car.wp > 0, "FD-34", "running at 0 WP")

    def _fatal_zones(self, car: _Car) -> None:
        assert car.zones is not None
        for zone in FATAL_ZONES:
            self.expect(car.zones[zone] > 0, "FD-59", f"running with {zone} at 0")

    # -- the result --------------------------------------------------------------------------

    def _results(self, replay: Mapping[str, Any]) -> None:
        """FD-40 to FD-42: finishers in crossing order, then the eliminated by laps completed
        and, with equal laps, the later elimination first."""
        running = [d for d, c in self.cars.items() if c.status == "running"]
        self.expect(not running, "FD-39", f"cars {running} never finished")
        out = sorted(
            self.eliminated,
            key=lambda d: (-self.cars[d].laps_done, -self.cars[d].eliminated_as),
        )
        expected = self.finishers + out
        got = [r["driver"] for r in sorted(replay["results"], key=lambda r: r["position"])]
        self.expect(got == expected, "FD-40/FD-41", f"result order {got}, expected {expected}")
        for r in replay["results"]:
            car = self.cars[int(r["driver"])]
            status = "finished" if car.status == "finished" else "eliminated"
            self.expect(r["status"] == status, "FD-42", f"status of {car.driver}")
            laps = self.laps if status == "finished" else min(car.laps_done, self.laps - 1)
            self.expect(r["laps"] == laps, "FD-42", f"laps of {car.driver}")


@dataclass(frozen=True, slots=True)
class _State:
    """A partial path of :class:`_Reach`: what its future steps depend on."""

    pos: Pos
    changes: int = 0
    locked: bool = False
    left: tuple[tuple[int, Pos], ...] = ()  # (lane, where the car left it), first time each
    exited: bool = False  # left some corner already in this move
    short: int = 0
    inside: int = 0  # FD-20: spaces moved through the current corner


class _Reach:
    """The checker's own path search (FD-15 to FD-23, FD-44, FD-49): how far a legal path from
    the car's space can go, to tell braking from blocking (FD-27)."""

    def __init__(self, checker: ReplayChecker, car: _Car, others: Mapping[Pos, _Car]) -> None:
        self.checker = checker
        self.board = checker.board
        self.car = car
        self.others = others

    def forced(self, total: int) -> int:
        """The spaces of ``total`` no legal path can move (0 when one can, or ends the move)."""
        car = self.car
        start = _State(car.pos, inside=car.corner_spaces if self.board.is_corner(car.pos) else 0)
        layer = {start}
        deepest = 0
        for depth in range(1, total + 1):
            nxt: set[_State] = set()
            for state in layer:
                for new, terminal in self.successors(state):
                    if terminal:
                        return 0  # a finish, box or elimination ends the move: nothing forced
                    nxt.add(new)
            if not nxt:
                break
            deepest, layer = depth, nxt
        return total - deepest

    def successors(self, state: _State) -> list[tuple[_State, bool]]:
        a = state.pos
        board = self.board
        if a[0] == PIT_SEGMENT:
            return self._onto(state, board.forward(a), changed=False)
        out = self._pit_entry(state)
        out += self._onto(state, board.forward(a), changed=False)
        if not state.locked and state.changes < self.checker.rules.max_lane_changes:
            for lane in (a[1] - 1, a[1] + 1):
                b = board.diagonal(a, lane)
                if b is not None:
                    out += self._onto(state, b, changed=True)
        return out

    def _pit_entry(self, state: _State) -> list[tuple[_State, bool]]:
        pit, car = self.checker.circuit.pit, self.car
        if pit is None or self.board.forward(state.pos) != pit.entry or car.pit_done:
            return []
        lap = car.laps_done
        laps = self.checker.laps
        if not (laps > 1 and car.crossings >= 1 and lap < laps - 1 and lap not in car.pitted):
            return []
        return self._onto(state, (PIT_SEGMENT, 0, 0), changed=False, via=pit.entry)

    def _onto(
        self, state: _State, b: Pos, *, changed: bool, via: Pos | None = None
    ) -> list[tuple[_State, bool]]:
        """The state after the step onto ``b`` (``via``: the track space it stands for)."""
        if b in self.others:
            return []
        a = state.pos
        left = state.left
        if changed:
            origin = dict(left).get(b[1])
            if origin is not None and not self.checker.went_round(origin, b, self.others):
                return []
            if a[1] not in dict(left):
                left = (*left, (a[1], a))
        inside = self._inside(a, b, state.inside)
        if inside < 0:
            return []
        locked, exited, short, out = self._exit(state, a, via or b)
        new = _State(b, state.changes + changed, locked, left, exited, short, inside)
        return [(new, out or self._terminal(a, b))]

    def _inside(self, a: Pos, b: Pos, inside: int) -> int:
        board = self.board
        if not board.is_corner(b):
            return 0
        inside = inside + 1 if a[0] == b[0] else 1
        return -1 if inside > self.checker.circuit.segments[b[0]].longest else inside

    def _exit(self, state: _State, a: Pos, b: Pos) -> tuple[bool, bool, int, bool]:
        """(locked, exited a corner, short corners, eliminated) after the step ``a`` -> ``b``."""
        if not self.board.is_corner(a) or a[0] == b[0]:
            return state.locked, state.exited, state.short, False
        rules, car = self.checker.rules, self.car
        made = car.stops if a[0] == car.corner and not state.exited else 0
        missing = self.checker.circuit.segments[a[0]].stops - made
        if missing > 0:
            return True, True, state.short + 1, missing > rules.overshoot_max_missing_stops
        return state.locked or rules.exit_lane_lock == "always", True, state.short, False

    def _terminal(self, a: Pos, b: Pos) -> bool:
        """A finish (FD-38) or the car's own box (FD-44) ends the move."""
        car = self.car
        if self.board.crosses_line(a, b) and car.crossings == self.checker.laps:
            return True
        pit = self.checker.circuit.pit
        return (
            pit is not None
            and b[0] == PIT_SEGMENT
            and not car.pit_done
            and b[2] == pit.boxes[car.index]
        )


def notes_paid(events: list[Any]) -> list[Any]:
    """The "blocked" events that take WP (the other one says how many spaces were blocked)."""
    return [e for e in events if e["kind"] == "blocked" and "wp" in e]


def ends_in_pit(m: Mapping[str, Any]) -> bool:
    """Whether the move ended in the pit lane (no braking there, FD-48)."""
    path = m["path"]
    return bool(path) and path[-1]["segment"] == "PIT"


def check_replay(
    replay: Mapping[str, Any],
    *,
    circuit: Circuit,
    rules: FormulaDRules,
    entrants: Sequence[int],
    rule_set: str = "basic",
    totals: Totals | None = None,
    label: str = "",
) -> Totals:
    """Check one replay against the rules; returns the (given or new) running totals."""
    checker = ReplayChecker(circuit, rules, rule_set=rule_set, totals=totals)
    checker.check(replay, entrants, label)
    return checker.totals
