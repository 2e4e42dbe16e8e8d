"""Positions and plans: the stage state, a turn's context and plan checking (RM-10 to RM-24).

The stage loop (``simulate.py``) owns a :class:`StageState`; :func:`check_plan` tells what each
step of a :class:`Plan` does, and ``turn.play_turn`` rolls and carries it out. Tests build a
position with :meth:`StageState.place`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.rallyman.errors import PlanError
from games.rallyman.track import CORNER, DRIFTING, FINISH, SHORTCUT, Track
from scoring.rally.notation import LogTurn
from scoring.rally.rules import RallyRules


@dataclass(frozen=True, slots=True)
class Step:
    """One die laid on ``space`` (RM-10): a gear die of ``gear`` or a coast die (``gear`` 0).

    ``brakes`` red dice (RM-13) or one ``boost`` (RM-14) go with a gear die. A die that jumps
    (RM-20) names its ``landing`` space (-1 otherwise).
    """

    space: int
    gear: int = 0
    brakes: int = 0
    boost: bool = False
    landing: int = -1

    @property
    def coast(self) -> bool:
        """True for a coast die (white, or orange for the leader)."""
        return self.gear == 0


@dataclass(frozen=True, slots=True)
class Plan:
    """The dice laid for a turn, in order, and the roll mode (RM-25)."""

    steps: tuple[Step, ...] = ()
    big_attack: bool = False


@dataclass(slots=True)
class CarState:
    """A car during a stage. Mutable: only the engine and the stage loop change it."""

    car: int
    start_position: int
    tokens: int = 0
    space: int = -1  # -1 before it enters (RM-4)
    gear: int = 0
    on_track: bool = False  # False before entering, after a crash (RM-36), at the end
    finished: bool = False
    retired: bool = False
    retire_reason: str = ""
    turns: int = 0
    gear_damage: int = 0
    brake_damage: int = 0
    coast_damage: int = 0
    items: list[LogTurn] = field(default_factory=list)
    cards: int = 0

    @property
    def active(self) -> bool:
        """Still running the stage."""
        return not (self.finished or self.retired)


@dataclass(slots=True)
class StageState:
    """Everything a turn reads or changes besides its own car: other cars and mud (RM-19)."""

    track: Track
    rules: RallyRules
    cars: list[CarState]
    mud: list[tuple[int, int]] = field(default_factory=list)  # (tile, car that drew it)

    def place(
        self, car: int, space: int | str, *, gear: int = 0, tokens: int | None = None
    ) -> CarState:
        """Put ``car`` on the track (tests and the staggered start); ``space`` id or label."""
        state = self.car(car)
        state.space = space if isinstance(space, int) else self.track.labels.index(space)
        state.gear = gear
        state.on_track = True
        if tokens is not None:
            state.tokens = tokens
        return state

    def car(self, car: int) -> CarState:
        """The state of ``car`` (by id)."""
        for c in self.cars:
            if c.car == car:
                return c
        raise KeyError(car)

    def mud_for(self, car: int) -> list[int]:
        """RM-19: mud tokens per tile that lower ``car``'s corner limits (not its own)."""
        out = [0] * len(self.track.tile_names)
        for tile, by in self.mud:
            if by != car:
                out[tile] += 1
        return out


@dataclass(frozen=True, slots=True)
class Dice:
    """A car's dice for one turn (RM-3 less damage, RM-40; never below 0)."""

    gear: int
    coast: int
    brake: int
    boost: int


@dataclass(slots=True)
class TurnContext:
    """What a driver sees when it plans and rolls: the track, its car and the others."""

    state: StageState
    car: CarState
    leader: bool
    dice: Dice
    occupied: dict[int, CarState]
    mud: list[int]
    # The stage's space graph and the rally's rules, copied from ``state`` (read on every step
    # the driver and the engine look at, so a plain field rather than a property).
    track: Track = field(init=False)
    rules: RallyRules = field(init=False)

    def __post_init__(self) -> None:
        self.track = self.state.track
        self.rules = self.state.rules

    def coast_faces(self) -> int:
        """RM-9: the leader rolls orange coast dice, the others white ones."""
        faces = self.rules.hazard_faces
        return faces.leader_coast if self.leader else faces.coast

    def limit(self, space: int) -> int:
        """RM-17: a corner space's limit less the mud others put on its tile (0 = none)."""
        base = self.track.corner_limit[space]
        if not base:
            return 0
        return max(base - self.mud[self.track.tile[space]], 0)

    def can_enter(self, src: int, dest: int, gear: int) -> str:
        """Why the car may not move from ``src`` onto ``dest`` with a die of ``gear`` ('' if it
        may): RM-24 obstacles and cars, RM-23 corner and drift methods, RM-22 overtaking."""
        track = self.track
        if track.obstacle[dest]:
            return "obstacle"
        occupied = self.occupied
        if dest in occupied:
            return "occupied"
        area = track.area[dest]
        if area >= 0:
            method = track.method[dest]
            for space in occupied:
                if track.area[space] == area and track.method[space] != method:
                    return "area_method"
        src_adjacent = track.adjacent[src]
        for space in track.adjacent[dest]:
            other = occupied.get(space)
            # Once alongside a car, any gear will do (RM-22).
            if other is not None and gear < other.gear and space not in src_adjacent:
                return "overtake_gear"
        return ""

    def jump_passes(self, target: int, landing: int) -> bool:
        """RM-23: a jump from ``target`` flying over a space to ``landing`` may not pass a car
        that is in a corner, or drifting through a drift area, inside the stretch flown over.

        RM-20 lets a jump ignore cars on the spaces flown over; RM-23 forbids passing a car in
        a corner or a drift, so the specific rule wins: such a car may only be followed.
        """
        track = self.track
        areas = {track.area[m] for m in track.succ[target]} | {track.area[landing]}
        areas.discard(-1)
        if not areas:
            return False
        front = track.front
        low, high = front[target], front[landing]
        for space in self.occupied:
            area = track.area[space]
            if (
                area in areas
                and (track.kind[space] == CORNER or track.method[space] == DRIFTING)
                and low < front[space] < high
            ):
                return True
        return False


def jump_landings(track: Track, target: int, far: bool) -> tuple[int, ...]:
    """RM-20: where a die on jump space ``target`` may land: one extra space, or two (``far``,
    flying over one). A landing in a corner may be in either lane: the spaces of the other lane
    beside a reached corner space count too (project ruling on "la voie de votre choix")."""
    reach: list[int] = list(track.succ[target])
    if far:
        reach = [s for m in track.succ[target] for s in track.succ[m]] + [
            m for m in track.succ[target] if track.kind[m] == FINISH
        ]
    out: list[int] = []
    for s in reach:
        if s not in out:
            out.append(s)
        if track.kind[s] == CORNER:
            for beside in sorted(track.adjacent[s]):
                if track.area[beside] == track.area[s] and beside not in out:
                    out.append(beside)
    return tuple(out)


def turn_dice(rules: RallyRules, car: CarState) -> Dice:
    """RM-3 allowance less damage (RM-40), never below 0; boost only when enabled (RM-14)."""
    allowance = rules.allowance
    return Dice(
        gear=max(allowance.gear - car.gear_damage, 0),
        coast=max(allowance.coast - car.coast_damage, 0),
        brake=max(allowance.brake - car.brake_damage, 0),
        boost=1 if rules.boost_enabled else 0,
    )


def make_context(state: StageState, car: CarState, *, leader: bool) -> TurnContext:
    """The context of ``car``'s turn: other on-track cars block, crashed ones do not (RM-36)."""
    occupied = {c.space: c for c in state.cars if c is not car and c.on_track and c.active}
    return TurnContext(
        state, car, leader, turn_dice(state.rules, car), occupied, state.mud_for(car.car)
    )


@dataclass(frozen=True, slots=True)
class StepEffect:
    """What carrying out a checked step does (computed before any roll)."""

    dice: tuple[tuple[str, int], ...]  # (kind, hazard faces) in rolling order
    gear_after: int
    die_gear: int  # the gear a LoC on this step happens in (RM-27)
    end: int
    overspeed: bool  # RM-17, RM-19
    jump_risk: bool  # RM-20 g = N + 1: a hazard on the gear die is a LoC
    jump_auto: bool  # RM-20 g >= N + 2
    shortcut_entry: bool  # RM-19: draws a damage token
    finished: bool
    # RM-21: a die other than a coast die or the plain gear-1 die reached a ford; the movement
    # ends at once. With no ``dice`` the die was never carried out (its own space is the ford).
    ford_stop: bool = False


@dataclass(slots=True)
class _Budget:
    """The dice a plan has used so far (RM-3 allowance after RM-40 damage, RM-15 once each)."""

    used: int = 0  # bit g set when the gear-g die is used
    gear: int = 0
    coast: int = 0
    brake: int = 0
    boost: int = 0


@dataclass(frozen=True, slots=True)
class _Die:
    """A checked die: what is rolled, the gear it moves at and the gear in effect after it."""

    rolled: tuple[tuple[str, int], ...]
    effective: int
    gear_after: int


def _fail(code: str, message: str, index: int) -> PlanError:
    return PlanError(f"Step {index + 1}: {message}", code, step=index)


def check_plan(ctx: TurnContext, plan: Plan) -> list[StepEffect]:
    """Check ``plan`` against RM-10 to RM-24 and return each step's effect.

    Raises :class:`PlanError` (code, message, ``params["step"]``) at the first illegal step.
    Overspeed and jumps are not illegal: they are LoCs when the die is carried out. A wrong die
    on a ford is not illegal either (RM-21): its effect ends the movement (``ford_stop``) and the
    steps after it are never carried out, so they are not checked.
    """
    cur, gear = ctx.car.space, ctx.car.gear
    budget = _Budget()
    effects: list[StepEffect] = []
    for i, step in enumerate(plan.steps):
        if effects and effects[-1].ford_stop:
            break
        if effects and effects[-1].finished:
            raise _fail("after_finish", "the car has already crossed the finish line.", i)
        die = _check_die(ctx, step, gear, budget, i)
        effect = _check_space(ctx, step, cur, gear, die, i)
        effects.append(effect)
        cur, gear = effect.end, effect.gear_after
    return effects


def _check_die(ctx: TurnContext, step: Step, gear: int, budget: _Budget, i: int) -> _Die:
    """RM-11 to RM-15 and RM-3: may this die follow ``gear`` with the dice left?"""
    if step.coast:
        if step.brakes or step.boost:
            raise _fail("brake_needs_gear", "brake and boost dice go with a gear die.", i)
        budget.coast += 1
        if budget.coast > ctx.dice.coast:
            raise _fail("no_coast_die", "no coast die left (RM-3, RM-40).", i)
        if gear == 0:  # RM-12 ruling
            raise _fail("coast_in_gear_0", "a coast die cannot be used in gear 0.", i)
        return _Die((("coast", ctx.coast_faces()),), gear, gear)
    value = step.gear
    if not 1 <= value <= 6:
        raise _fail("bad_gear", "gear dice are 1 to 6.", i)
    if budget.used & (1 << value):
        raise _fail("gear_used", f"the gear-{value} die is already used (RM-15).", i)
    budget.gear += 1
    if budget.gear > ctx.dice.gear:
        raise _fail("no_gear_die", "no gear die left (RM-3, RM-40).", i)
    _take_modifiers(ctx, step, budget, i)
    if value not in _gears_after(ctx.rules, step, gear, first=i == 0):
        raise _fail("gear_step", f"gear {value} cannot follow gear {gear} here (RM-11, RM-13).", i)
    budget.used |= 1 << value
    faces = ctx.rules.hazard_faces
    rolled = [("brake", faces.brake)] * step.brakes
    if step.boost:
        rolled.append(("boost", faces.boost))
    rolled.append(("gear", faces.gear[value - 1]))
    return _Die(tuple(rolled), value, value)


def _take_modifiers(ctx: TurnContext, step: Step, budget: _Budget, i: int) -> None:
    """RM-13 brake dice or one RM-14 boost die with a gear die, within the allowance."""
    if step.brakes < 0 or (step.brakes and step.boost):
        raise _fail("bad_brakes", "use brake dice or a boost die, not both.", i)
    budget.brake += step.brakes
    if budget.brake > ctx.dice.brake:
        raise _fail("no_brake_die", "no brake die left (RM-3, RM-40).", i)
    if step.boost:
        budget.boost += 1
        if budget.boost > ctx.dice.boost:
            raise _fail("no_boost_die", "no boost die (RM-14).", i)


def _gears_after(rules: RallyRules, step: Step, gear: int, *, first: bool) -> tuple[int, ...]:
    """The gear values a gear die may show after ``gear`` (RM-11, RM-13, RM-14)."""
    if step.boost:
        return (gear + 2,)
    if step.brakes:
        return (gear - 1 - step.brakes,)  # RM-13: n brakes drop n + 1 gears
    if first and rules.first_die_may_repeat_gear:
        return (gear - 1, gear, gear + 1)
    return (gear - 1, gear + 1)


def _check_space(
    ctx: TurnContext, step: Step, cur: int, gear: int, die: _Die, i: int
) -> StepEffect:
    """RM-10 and RM-20 to RM-24 for the die's space (and landing), then its effect."""
    track = ctx.track
    target = step.space
    if target not in track.succ[cur]:
        raise _fail("not_connected", "that space is not one forward move away (RM-10).", i)
    why = ctx.can_enter(cur, target, die.effective)
    if why:
        raise _fail(why, _ENTRY_MESSAGES[why], i)
    fordable = step.coast or (step.gear == 1 and not step.brakes)
    if track.ford[target] and not fordable:
        # RM-21: the movement ends at once in the gear in effect; ruling: before the ford.
        return StepEffect((), gear, gear, cur, False, False, False, False, False, ford_stop=True)
    landing, jump_risk, jump_auto = _check_jump(ctx, step, target, die.effective, i)
    ford_stop = landing != target and track.ford[landing] and not fordable
    if ford_stop:
        # RM-21 on a jump's landing: the die is carried out on its own space, the flight not.
        landing, jump_risk, jump_auto = target, False, False
    overspeed, shortcut_entry = _speed(ctx, cur, target, landing, die.effective)
    return StepEffect(
        dice=die.rolled,
        gear_after=die.gear_after,
        die_gear=die.effective,
        end=landing,
        overspeed=overspeed,
        jump_risk=jump_risk,
        jump_auto=jump_auto,
        shortcut_entry=shortcut_entry,
        finished=track.kind[landing] == FINISH,
        ford_stop=ford_stop,
    )


def _check_jump(
    ctx: TurnContext, step: Step, target: int, effective: int, i: int
) -> tuple[int, bool, bool]:
    """RM-20: the landing space of a die that jumps, and whether the jump risks a LoC."""
    track = ctx.track
    jump = track.jump[target]
    if not (jump and effective >= jump and track.kind[target] != FINISH):
        if step.landing != -1:
            raise _fail("no_jump", "only a die that jumps has a landing space.", i)
        return target, False, False
    landing = step.landing
    # RM-20: g > N flies two extra spaces, over the middle one.
    if landing not in jump_landings(track, target, effective > jump):
        raise _fail("jump_landing", "the jump must land on a space it reaches (RM-20).", i)
    why = ctx.can_enter(target, landing, effective)
    if why:
        raise _fail("jump_" + why, "the landing space is not free (RM-20).", i)
    if effective > jump and ctx.jump_passes(target, landing):
        raise _fail("jump_passes", "a car in a corner or a drift may not be passed (RM-23).", i)
    return landing, effective == jump + 1, effective >= jump + 2


def _speed(
    ctx: TurnContext, cur: int, target: int, landing: int, effective: int
) -> tuple[bool, bool]:
    """RM-17 and RM-19: (overspeed on a corner or shortcut space, entering a shortcut)."""
    track = ctx.track
    overspeed = shortcut_entry = False
    walk = cur
    for space in (target, landing) if landing != target else (target,):
        kind = track.kind[space]
        if kind == CORNER and effective > ctx.limit(space):
            overspeed = True
        elif kind == SHORTCUT:
            if effective > track.shortcut_limit[space]:
                overspeed = True  # RM-19 ruling: as in corners
            if track.kind[walk] != SHORTCUT:
                shortcut_entry = True
        walk = space
    return overspeed, shortcut_entry


_ENTRY_MESSAGES = {
    "obstacle": "an obstacle is on that space (RM-24).",
    "occupied": "another car is on that space (RM-24).",
    "area_method": "another car is in this corner or drift area by the other way (RM-23).",
    "overtake_gear": "entering a space next to a car needs at least its gear (RM-22).",
}
