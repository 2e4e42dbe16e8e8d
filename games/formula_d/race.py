"""The Formula D race engine: grid, start, rounds, moves and their consequences.

One :class:`Race` owns the mutable state of a race. It asks a :class:`DriverPolicy` for decisions
(gear, path) and a :class:`~games.formula_d.dice.DiceSource` for rolls, so a test can script both.
Street-racing rules (§12) are applied by :mod:`games.formula_d.street`, the advanced rule set
(§13) by :mod:`games.formula_d.advanced`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from games.formula_d import advanced, contact, results, street
from games.formula_d.circuit import Pos
from games.formula_d.dice import BLACK, ENGINE_TRIGGER, DiceSource
from games.formula_d.errors import FormulaDError
from games.formula_d.model import (
    CarSetup,
    Entrant,
    Event,
    Leg,
    MoveRecord,
    RaceOutcome,
    Status,
)
from games.formula_d.moves import MoveContext, MoveOption, OptionList, Params, options_for
from games.formula_d.track import PIT, Track
from scoring.formula_d.rules import FormulaDRules

_NO_SPACES: frozenset[Pos] = frozenset()
# _GEARS_FROM[low][high]: the gears low..high (one tuple per range, not one per move)
_GEARS_FROM = tuple(tuple(tuple(range(low, high + 1)) for high in range(7)) for low in range(7))
MAX_ROUNDS = 2000  # a guard against a bug looping forever; real races end in ~60 rounds


@dataclass(slots=True, eq=False)
class Car:
    """The mutable state of one car during a race."""

    entrant: Entrant
    index: int  # entry order (FD-44 boxes, last tie-break)
    pos: Pos
    wp: int
    gear: int = 1
    wraps: int = 0  # times the car entered segment 0 (turn order across laps)
    crossings: int = 0  # finish-line crossings; laps completed = crossings - 1
    corner: int = -1
    stops: int = 0
    corner_spaces: int = 0  # FD-20: spaces moved through ``corner`` so far, over all moves
    started: bool = False
    pitted_laps: set[int] = field(default_factory=set)
    in_box: bool = False
    pit_done: bool = False  # stopped in its box on this visit of the pit lane
    stalled: bool = False
    # advanced (§13): WP per zone (``wp`` is then their sum), spin, tyres (FD-66)
    zones: dict[str, int] | None = None
    zone_start: dict[str, int] | None = None
    spun: bool = False
    tyre: str = "hard"
    tyre_lap: int = 0  # laps completed when this set was fitted
    reservoir: int = 0  # FD-69 pit reservoir WP left
    exit_max_gear: int = 6  # FD-69: 4 after a technical stop
    nitro_lap: int = -1
    status: Status = "running"
    elimination_order: int | None = None
    finish_position: int | None = None

    @property
    def driver(self) -> int:
        return self.entrant.driver

    @property
    def laps_done(self) -> int:
        return max(0, self.crossings - 1)

    @property
    def in_pit(self) -> bool:
        return self.pos[0] == PIT

    @property
    def running(self) -> bool:
        return self.status == "running"


def _offered(options: Sequence[MoveOption], choice: MoveOption) -> bool:
    if isinstance(options, OptionList):
        return options.offered(choice)
    return any(o is choice for o in options) or choice in options


class DriverPolicy(Protocol):
    """Decisions of a driver. Options come from the engine; the policy only picks."""

    def choose_gear(self, race: Race, car: Car, allowed: Sequence[int]) -> int: ...

    def choose_move(self, race: Race, car: Car, options: Sequence[MoveOption]) -> MoveOption: ...


def _check_setup(
    track: Track, entrants: Sequence[Entrant], laps: int, rules: FormulaDRules, rule_set: str
) -> None:
    """A race the engine can play: rule set, laps, distinct drivers, cars (FD-4) and boxes."""
    if rule_set not in ("basic", "advanced"):
        raise FormulaDError("Unknown rule set.", "rule_set_unsupported", rule_set=rule_set)
    if not 1 <= laps <= 3:
        raise FormulaDError("A race has 1 to 3 laps.", "bad_laps", laps=laps)
    ids = [e.driver for e in entrants]
    if len(set(ids)) != len(ids):
        raise FormulaDError("A driver is entered twice.", "duplicate_driver")
    limit = min(rules.max_cars, len(track.circuit.grid))
    if not 1 <= len(entrants) <= limit:
        raise FormulaDError(f"A race takes 1 to {limit} cars (FD-4).", "too_many_cars", limit=limit)
    pit = track.circuit.pit
    if laps > 1 and pit is not None and len(entrants) > len(pit.boxes):
        raise FormulaDError("The pit lane has fewer boxes than cars.", "not_enough_boxes")


class Race:
    """A race on ``track`` between ``entrants`` (entry order) for ``laps`` laps."""

    def __init__(
        self,
        track: Track,
        entrants: Sequence[Entrant],
        *,
        laps: int,
        rules: FormulaDRules,
        dice: DiceSource,
        policy: DriverPolicy,
        setups: Sequence[CarSetup] | None = None,
        rule_set: str = "basic",
    ) -> None:
        _check_setup(track, entrants, laps, rules, rule_set)
        self.track = track
        self.laps = laps
        self.rules = rules
        self.dice = dice
        self.policy = policy
        self.cars = [Car(e, i, (0, 0, 0), rules.wp_start) for i, e in enumerate(entrants)]
        self.occupied: dict[Pos, Car] = {}
        self.round = 0
        self.order: list[Car] = []
        self.finishers: list[Car] = []
        self.eliminated: list[Car] = []
        self.moves: list[MoveRecord] = []
        self.events: list[Event] = []  # the current move's events
        self.legs: list[Leg] = []  # the current move's slipstreams and quick pit exit
        self.grid: list[Car] = []
        self.grid_rolls: list[tuple[int, int]] = []  # FD-6: (driver, roll), in rolling order
        self.start_tyres: list[tuple[int, str]] = []  # FD-66: (driver, tyre) once chosen
        # the bit mask of every car's space (Track.node_id), or -1 when it must be recomputed;
        # ``occupied`` changes only in _place, roll_grid, apply and eliminate, which keep it
        self._occupancy = -1
        self.street = street.StreetState() if rules.street_rules else None
        self.rule_set = rule_set
        self.adv = advanced.AdvancedState() if rule_set == "advanced" else None
        if self.adv is not None:
            self._zones()
        if setups is not None:
            self._place(setups)

    def _zones(self) -> None:
        """FD-59/FD-69 (advanced): each car's WP per zone and its pit reservoir."""
        rules = self.rules
        for c in self.cars:
            c.zone_start = advanced.start_zones(rules, c.entrant)
            c.zones = dict(c.zone_start)
            c.wp = sum(c.zones.values())
            c.reservoir = rules.pit_reservoir_wp if rules.pit_reservoir else 0

    # -- set-up ----------------------------------------------------------------------------

    def _place(self, setups: Sequence[CarSetup]) -> None:
        by_driver = {c.driver: c for c in self.cars}
        for s in setups:
            car = by_driver[s.entrant.driver]
            car.pos = s.pos
            car.gear = s.gear
            car.wp = self.rules.wp_start if s.wp is None else s.wp
            if car.zones is not None:
                car.zones.update(s.zones or {})
                car.wp = sum(car.zones.values())
                car.spun = s.spun
            car.crossings = s.crossings
            car.started = s.started
            car.wraps = s.lap_wraps
            if s.pos[0] != PIT and self.track.segments[s.pos[0]].is_corner:
                car.corner, car.stops = s.pos[0], s.corner_stops
                car.corner_spaces = s.pos[2] + 1 if s.corner_spaces is None else s.corner_spaces
            if s.pitted:
                car.pitted_laps.add(car.laps_done - 1 if s.pos[0] == PIT else car.laps_done)
                car.in_box = car.pit_done = s.pos[0] == PIT
            if s.nitro_used:
                car.nitro_lap = car.laps_done
            self.occupied[s.pos] = car
            self._occupancy = -1
        self.grid = list(self.cars)

    def roll_grid(self) -> list[Car]:
        """FD-6: black die for everyone, highest on pole; ties re-roll among themselves."""
        order = self._grid_order(list(self.cars))
        for car, slot in zip(order, self.track.circuit.grid, strict=False):
            car.pos = slot
            self.occupied[slot] = car
            self._occupancy = -1
        self.grid = order
        return order

    def _grid_order(self, group: list[Car]) -> list[Car]:
        if len(group) == 1:
            return group
        rolls = {car.driver: self.dice.roll(BLACK) for car in group}
        self.grid_rolls.extend((c.driver, rolls[c.driver]) for c in group)
        out: list[Car] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [c for c in group if rolls[c.driver] == value]
            out.extend(self._grid_order(tied))
        return out

    # -- running ---------------------------------------------------------------------------

    def run(self) -> RaceOutcome:
        """Play rounds until every car has finished or is out (FD-39), then classify."""
        if not self.grid:
            if self.adv is not None:
                advanced.roll_weather(self)  # FD-67: before the grid roll ...
            self.roll_grid()
            if self.adv is not None:
                advanced.roll_weather(self)  # ... and again before the race
                self.policy_tyres()
        while any(c.running for c in self.cars):
            if self.round >= MAX_ROUNDS:
                raise FormulaDError("The race did not finish.", "race_stuck", rounds=self.round)
            self.play_round()
        return self.outcome()

    def play_round(self) -> None:
        """FD-9: the order is fixed at the start of the round; round 1 uses the grid."""
        self.round += 1
        if self.round == 1 and all(not c.started for c in self.cars):
            self.order = [c for c in self.grid if c.running]
        else:
            self.order = sorted((c for c in self.cars if c.running), key=self.order_key)
        for car in list(self.order):
            if car.running:
                self.play_move(car)

    def order_key(self, car: Car) -> tuple[int, int, int, int, int]:
        """FD-9/FD-10: further along first, then higher gear, then nearer the inside."""
        if car.in_pit:
            # FD-50: cars in the pit lane move after the cars on the track alongside it.
            progress, sub, inside = car.wraps * self.track.lap_units, 1 + car.pos[2], 0
        else:
            coord, inside = self.track.order_place[car.pos]
            progress, sub = car.wraps * self.track.lap_units + coord, 0
        return (-progress, -sub, -car.gear, inside, car.index)

    def allowed_gears(self, car: Car) -> list[int]:
        """FD-13/FD-14/FD-46: the gears the car may announce."""
        return list(self._allowed_gears(car))

    def _allowed_gears(self, car: Car) -> tuple[int, ...]:
        if car.in_box:
            top = min(self.rules.pit_exit_max_gear, car.exit_max_gear)
            return _GEARS_FROM[1][top]
        if car.stalled or car.spun:
            return (1,)  # FD-7 / FD-61: after a stall or a spin, an ordinary 1st-gear roll
        low = max(1, car.gear - self.rules.max_downshift)
        high = min(6, car.gear + self.rules.max_upshift)
        if self.adv is not None:  # FD-60/FD-63: only downshifts the car can pay for
            return tuple(g for g in range(low, high + 1) if advanced.gear_allowed(self, car, g))
        return _GEARS_FROM[low][high]

    def downshift_cost(self, car: Car, gear: int) -> int:
        """FD-14: the first gear dropped is free; FD-48: nothing is charged in the pit lane."""
        if car.in_pit:
            return 0
        return max(0, car.gear - gear - 1) * self.rules.downshift_wp_per_skipped_gear

    def context(self, car: Car) -> MoveContext:
        """What the path search needs to know about ``car``."""
        circuit = self.track.circuit
        lap = car.laps_done
        may_pit = (
            circuit.pit is not None
            and self.laps > 1
            and lap < self.laps - 1
            and car.crossings >= 1
            and lap not in car.pitted_laps
        )
        box = -1
        if circuit.pit is not None and not car.pit_done:
            box = circuit.pit.boxes[car.index]
        st = self.street
        return MoveContext(
            start=car.pos,
            corner=car.corner,
            stops=car.stops,
            final_crossing=car.crossings == self.laps,
            may_pit=may_pit,
            box=box,
            max_lane_changes=self.rules.max_lane_changes,
            lock_always=self.rules.exit_lane_lock == "always",
            max_missing=self.rules.overshoot_max_missing_stops,
            danger=circuit.street.danger if st is not None else (),
            tunnels=st.tunnels(circuit) if st is not None else None,
            police_line=circuit.street.police_line if st is not None else None,
            corner_spaces=car.corner_spaces if car.corner >= 0 else -1,
        )

    def options(self, car: Car, roll: int) -> OptionList:
        """Every legal end of ``car``'s move for ``roll`` (others' spaces are blocked).

        Advanced: without the voluntary braking the car's brakes cannot pay (FD-60).
        """
        options = options_for(self.track, self.params(car), roll, self.occupancy(car))
        if car.zones is not None and not car.in_pit:
            options = options.within_braking(
                car.zones["brakes"] // self.rules.brake_wp_per_space
                if self.rules.brake_wp_per_space
                else roll
            )
        return options

    def occupancy(self, car: Car) -> int:
        """The bit mask of the spaces of the other cars (``Track.node_id``)."""
        occupied = self._occupancy
        if occupied < 0:
            occupied = self.track.occupancy(self.occupied)
        bit = self.track.node_bit[self.track.node_id[car.pos]]
        return occupied ^ bit if occupied & bit else occupied

    def params(self, car: Car) -> Params:
        """:meth:`context` as the path search's hashable parameters (the hot path).

        Already in the search's normal form: finishing and pitting matter only near the line,
        and the box only when the car may pit or is in the pit lane (``search._normalised``).
        """
        track = self.track
        circuit = track.circuit
        node = track.node_id[car.pos]
        final = may_pit = False
        box = -1
        if track.near_line[node]:
            pit = circuit.pit
            lap = car.laps_done
            final = car.crossings == self.laps
            may_pit = (
                pit is not None
                and self.laps > 1
                and lap < self.laps - 1
                and car.crossings >= 1
                and lap not in car.pitted_laps
            )
            if pit is not None and not car.pit_done and (may_pit or track.is_pit[node]):
                box = pit.boxes[car.index]
        street_on = self.street is not None
        return Params(
            node,
            car.corner,
            car.stops,
            final,
            may_pit,
            box,
            self.rules.max_lane_changes,
            self.rules.exit_lane_lock == "always",
            self.rules.overshoot_max_missing_stops,
            circuit.street.danger if street_on else _NO_SPACES,
            circuit.street.tunnels if street_on else (),
            circuit.street.police_line if street_on else None,
            self.adv.debris_key if self.adv is not None else _NO_SPACES,
            car.corner_spaces if car.corner >= 0 else -1,
        )

    def play_move(self, car: Car) -> None:
        """FD-11: announce a gear, roll, move, then the end-of-move tests."""
        events: list[Event] = []
        self.events = events
        if self.legs:
            self.legs = []
        roll: int | None
        if not car.started:
            start_kind, roll = self._start(car)
            announced = 1
        else:
            start_kind, announced = None, self._announce(car)
            roll = self.dice.roll(announced) if car.running else None
        if roll is None:
            self._log(car, None, start_kind, None, events, announced)
            return
        choice = self.choose(car, self._move_options(car, roll, start_kind))
        choice = self._move(car, choice, roll, start_kind)
        self._log(car, roll, start_kind, choice, events, announced)

    def _start(self, car: Car) -> tuple[str, int | None]:
        """FD-7: the start roll on the car's first move: the spaces to move, none on a stall."""
        car.started = True
        start = self.dice.roll(BLACK)
        self.events.append(Event("start", car.driver, start))
        if start <= self.rules.start_stall_max:
            car.stalled = True  # no move this round, no new start roll
            return "stall", None
        if start >= self.rules.start_great_min:
            roll = self.rules.start_great_spaces
            car.gear = 1
            return "great", roll
        roll = self.dice.roll(1)
        car.gear = 1
        return "normal", roll

    def _announce(self, car: Car) -> int:
        """FD-13/FD-14: the policy's gear, checked, and its downshift cost (FD-63 advanced)."""
        if self._occupancy < 0:
            self._occupancy = self.track.occupancy(self.occupied)  # kept by apply, not eliminate
        allowed = self._allowed_gears(car)  # a tuple: the policy cannot change it
        gear = self.policy.choose_gear(self, car, allowed)
        if gear not in allowed:
            raise FormulaDError(f"Gear {gear} is not allowed.", "illegal_gear", gear=gear)
        cost = 0
        if self.adv is not None:
            advanced.pay_downshift(self, car, gear)
        else:
            cost = self.downshift_cost(car, gear)
        car.gear = gear
        car.in_box = car.stalled = car.spun = False
        car.exit_max_gear = 6
        if cost:
            self.lose(car, cost, "downshift")
        return gear

    def _move_options(self, car: Car, roll: int, start_kind: str | None) -> Sequence[MoveOption]:
        """The legal moves for ``roll``: tyre bonuses (FD-66), great start (FD-7), nitro (FD-52)."""
        options: Sequence[MoveOption]
        if self.adv is not None:
            options = advanced.tyre_options(self, car, roll)
        else:
            options = self.options(car, roll)
        if start_kind == "great":
            options = self.great_start(car, options, roll)
        if self.street is not None and street.nitro_available(self, car):
            boosted: Sequence[MoveOption] = street.nitro_options(self.options(car, roll + car.gear))
            if start_kind == "great":
                boosted = self.great_start(car, boosted, roll + car.gear)
            options = [*options, *boosted]
        return options

    def _move(self, car: Car, choice: MoveOption, roll: int, start_kind: str | None) -> MoveOption:
        """Make the move and its tests (FD-29 to FD-33, FD-53 to FD-57, FD-64 to FD-68)."""
        self.apply(car, choice, roll)
        st = self.street
        if st is not None and car.running:
            street.danger_tests(self, car, choice)  # FD-54: spaces moved over, during the move
        if self.adv is not None:
            choice = advanced.after_move(self, car, choice, roll)
        if car.status == "running":
            self.end_of_move_tests(car)
        if start_kind is None and ENGINE_TRIGGER.get(car.gear) == roll:
            self.engine_test(car)
            advanced.weather_change(self)  # FD-67
        if st is not None:
            street.end_of_move(self, car)
        return choice

    def great_start(
        self, car: Car, options: Sequence[MoveOption], spaces: int
    ) -> Sequence[MoveOption]:
        """FD-7: with its lane free for ``spaces`` spaces a great start goes straight on."""
        if not self.lane_ahead_free(car, spaces):
            return options
        return [o for o in options if all(p[1] == car.pos[1] for p in o.path)]

    def lane_ahead_free(self, car: Car, spaces: int) -> bool:
        """Whether the next ``spaces`` spaces of the car's lane are free of cars.

        FD-7: a great start may change lanes "to get round cars" (es: "para evitar a otros
        automóviles", pt: "para se esquivar de outro carro"); with its lane free it goes
        straight on (decisions-formula-d.md).
        """
        pos = car.pos
        for _ in range(spaces):
            pos = self.track.forward(pos)
            if pos in self.occupied:
                return False
        return True

    def choose(self, car: Car, options: Sequence[MoveOption]) -> MoveOption:
        """The policy's choice among ``options``, checked."""
        choice = self.policy.choose_move(self, car, options)
        if not _offered(options, choice):
            raise FormulaDError("The policy chose a move the engine did not offer.", "illegal_move")
        return choice

    def policy_tyres(self) -> None:
        """FD-66: each car's tyres, chosen once the weather is known (default hard)."""
        if not self.rules.tyres:
            return
        pick = getattr(self.policy, "choose_tyres", None)
        for car in self.cars:
            tyre = pick(self, car) if pick is not None else "hard"
            if tyre not in advanced.TYRES:
                raise FormulaDError(f"Unknown tyre {tyre!r}.", "illegal_tyre", tyre=tyre)
            car.tyre = tyre
        self.start_tyres = [(car.driver, car.tyre) for car in self.cars]

    def apply(self, car: Car, option: MoveOption, roll: int) -> None:
        """Move the car and charge brake and overshoot WP (FD-22, FD-26, FD-27)."""
        occupancy, self._occupancy = self._occupancy, -1
        del self.occupied[car.pos]
        old = car.pos
        car.pos = option.end
        if option.nitro:
            car.nitro_lap = car.laps_done
        self._follow_path(car, option.path)
        if self.street is not None and option.police:
            street.police_crossing(self, car, roll)
        if option.crossed_line:
            car.crossings += 1
            if self.street is not None and not option.finished:
                street.checkpoint(self, car)
        if option.finished:
            self._finish(car)
            return  # FD-39: it leaves the board and takes no further tests
        if option.overshoot_out:
            self.events.append(Event("overshoot", car.driver, detail="two or more stops short"))
            self.eliminate(car, "overshoot")
            return
        self._arrive(car, old, option, occupancy)

    def _finish(self, car: Car) -> None:
        car.status = "finished"
        car.finish_position = len(self.finishers) + 1
        self.finishers.append(car)
        self.events.append(Event("finish", car.driver, detail=str(car.finish_position)))

    def _arrive(self, car: Car, old: Pos, option: MoveOption, occupancy: int) -> None:
        """The car on its new space: occupancy, stops, costs and the box (FD-45, FD-47)."""
        self.occupied[car.pos] = car
        if occupancy >= 0:  # the same spaces but the car's old one, and its new one
            ids, bits = self.track.node_id, self.track.node_bit
            self._occupancy = occupancy & ~bits[ids[old]] | bits[ids[car.pos]]
        if not car.in_pit:
            car.pit_done = False
        self._update_stops(car, old, option)
        self._charge(car, option)
        if option.into_box and car.running:
            # FD-45/FD-47: full WP and lap 1 counted as completed (after the overshoot on the
            # way in, FD-22: a car it eliminates never reaches its box).
            car.pitted_laps.add(car.laps_done)
            car.crossings += 1
            car.in_box = car.pit_done = True
            if self.adv is None:
                self.gain(car, self.rules.wp_start, "pit stop")

    def _charge(self, car: Car, option: MoveOption) -> None:
        """The move's overshoot and brake WP (FD-22, FD-26, FD-27; advanced FD-60 to FD-62)."""
        if self.adv is not None:
            if option.overshoot_spaces:
                advanced.overshoot(self, car, option.overshoot_spaces)
            if car.running:
                advanced.brake_costs(self, car, option)
            return
        cost = option.braked * self.rules.brake_wp_per_space
        if option.overshoot_spaces:
            over = option.overshoot_spaces * self.rules.overshoot_wp_per_space
            self.events.append(Event("overshoot", car.driver, wp=-over))
            self.lose(car, over, "overshoot", log=False)
        if cost and car.running:
            self.events.append(Event("blocked" if option.forced else "brake", car.driver, wp=-cost))
            self.lose(car, cost, "brake", log=False)

    def _follow_path(self, car: Car, path: tuple[Pos, ...]) -> None:
        # Laps of the turn order (a wrap: into segment 0 from another track segment, or into
        # the pit lane) and FD-20's count of the spaces moved through the current corner.
        segments = self.track.segments
        previous = path[0][0]
        inside = car.corner_spaces
        for p in path[1:]:
            seg = p[0]
            if seg != previous:
                if previous != PIT and (seg == 0 or seg == PIT):
                    car.wraps += 1
                inside = 1 if seg != PIT and segments[seg].is_corner else 0
                previous = seg
            elif inside:
                inside += 1
        car.corner_spaces = inside

    def _update_stops(self, car: Car, old: Pos, option: MoveOption) -> None:
        # FD-18/FD-24: a move that ends in a corner is a stop there, unless it overshot into it.
        seg = car.pos[0]
        if seg == PIT or not self.track.segments[seg].is_corner:
            car.corner, car.stops = -1, 0
            return
        if seg == car.corner and not option.exited_corner:
            car.stops += 1
            return
        voids = (
            option.short
            if self.rules.overshoot_stop_voids == "overshoot_only"
            else (option.exited_corner)
        )
        car.corner, car.stops = seg, 0 if voids else 1

    def end_of_move_tests(self, car: Car) -> None:
        """FD-29/FD-30: collision tests (none in the pit lane, FD-31)."""
        contact.collision_tests(self, car)

    def engine_test(self, trigger: Car) -> None:
        """FD-32/FD-33: the triggering car, then every car in 5th or 6th, in turn order."""
        contact.engine_tests(self, trigger)

    # -- WP --------------------------------------------------------------------------------

    def lose(self, car: Car, amount: int, cause: str, *, log: bool = True) -> None:
        """Take WP; at 0 or below the car is out (FD-28, FD-34)."""
        if amount <= 0 or not car.running:
            return
        car.wp -= amount
        if log:
            self.events.append(Event(cause, car.driver, wp=-amount))
        if car.wp <= 0:
            self.eliminate(car, cause)

    def gain(self, car: Car, amount: int, cause: str) -> None:
        """Add WP, never above the start value (FD-5)."""
        new = min(self.rules.wp_start, car.wp + amount)
        if new > car.wp:
            self.events.append(Event(cause, car.driver, wp=new - car.wp))
            car.wp = new

    def eliminate(self, car: Car, cause: str) -> None:
        """FD-35/FD-36: the car leaves the board; the race records its elimination order."""
        self._occupancy = -1  # recomputed when next needed
        car.status = "eliminated"
        car.wp = 0
        if self.adv is not None:
            self.adv.drop_debris(car.pos)  # FD-64: each elimination leaves debris
        self.eliminated.append(car)
        car.elimination_order = len(self.eliminated)
        if self.occupied.get(car.pos) is car:
            del self.occupied[car.pos]
        self.events.append(Event("eliminated", car.driver, detail=cause))

    def _log(
        self,
        car: Car,
        roll: int | None,
        start_kind: str | None,
        option: MoveOption | None,
        events: list[Event],
        gear: int,
    ) -> None:
        record = results.move_record(self, car, roll, start_kind, option, events, gear)
        self.moves.append(record)

    def log_leg(
        self, kind: Literal["slipstream", "pit_exit"], car: Car, option: MoveOption
    ) -> None:
        """A slipstream or quick pit exit of the current move, for the replay (FD-65, FD-68)."""
        labels = self.track.pos_label
        path = tuple([labels[p] for p in option.path])
        self.legs.append(Leg(kind, car.gear, option.roll, path, option.steps, option.braked))

    # -- result ----------------------------------------------------------------------------

    def outcome(self) -> RaceOutcome:
        """FD-40 to FD-42: finishers in crossing order, then the eliminated (FD-41)."""
        return results.outcome(self)
