"""One car's turn: plan checking (RM-10 to RM-24), rolling (RM-25 to RM-30), end of turn and
LoC outcomes (RM-32 to RM-40).

The stage loop (``simulate.py``) owns a :class:`StageState`; :func:`play_turn` checks a
:class:`Plan`, rolls its dice through a :class:`~games.rallyman.dice.Chance` and updates the car.
Tests build a position with :meth:`StageState.place`, script the dice and call ``play_turn``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rallyman.dice import Chance
from games.rallyman.errors import PlanError
from games.rallyman.notation import LogTurn
from games.rallyman.rules import RallyRules
from games.rallyman.track import CORNER, FINISH, SHORTCUT, Track

ROLL, SECURE, STOP = "roll", "secure", "stop"


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

    @property
    def track(self) -> Track:
        """The stage's space graph."""
        return self.state.track

    @property
    def rules(self) -> RallyRules:
        """The rally's rules."""
        return self.state.rules

    def coast_faces(self) -> int:
        """RM-9: the leader rolls orange coast dice, the others white ones."""
        faces = self.rules.hazard_faces
        return faces.leader_coast if self.leader else faces.coast

    def limit(self, space: int) -> int:
        """RM-17: a corner space's limit less the mud others put on its tile (0 = none)."""
        base = self.state.track.corner_limit[space]
        if not base:
            return 0
        return max(base - self.mud[self.state.track.tile[space]], 0)

    def can_enter(self, src: int, dest: int, gear: int) -> str:
        """Why the car may not move from ``src`` onto ``dest`` with a die of ``gear`` ('' if it
        may): RM-24 obstacles and cars, RM-23 corner and drift methods, RM-22 overtaking."""
        track = self.state.track
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


def _fail(code: str, message: str, index: int) -> PlanError:
    return PlanError(code, f"Step {index + 1}: {message}", step=index)


def check_plan(ctx: TurnContext, plan: Plan) -> list[StepEffect]:
    """Check ``plan`` against RM-10 to RM-24 and return each step's effect.

    Raises :class:`PlanError` (code, message, ``params["step"]``) at the first illegal step.
    Overspeed and jumps are not illegal: they are LoCs when the die is carried out.
    """
    track, rules, dice = ctx.track, ctx.rules, ctx.dice
    faces = rules.hazard_faces
    coast_faces = ctx.coast_faces()
    cur, gear = ctx.car.space, ctx.car.gear
    used = 0  # bit g set when the gear-g die is used (RM-15)
    gear_dice = coast_dice = brake_dice = boost_dice = 0
    effects: list[StepEffect] = []
    for i, step in enumerate(plan.steps):
        if effects and effects[-1].finished:
            raise _fail("after_finish", "the car has already crossed the finish line.", i)
        rolled: list[tuple[str, int]] = []
        is_coast = step.gear == 0
        if is_coast:
            if step.brakes or step.boost:
                raise _fail("brake_needs_gear", "brake and boost dice go with a gear die.", i)
            coast_dice += 1
            if coast_dice > dice.coast:
                raise _fail("no_coast_die", "no coast die left (RM-3, RM-40).", i)
            if gear == 0:  # RM-12 ruling
                raise _fail("coast_in_gear_0", "a coast die cannot be used in gear 0.", i)
            rolled.append(("coast", coast_faces))
            effective = gear
            gear_after = gear
        else:
            value = step.gear
            if not 1 <= value <= 6:
                raise _fail("bad_gear", "gear dice are 1 to 6.", i)
            if used & (1 << value):
                raise _fail("gear_used", f"the gear-{value} die is already used (RM-15).", i)
            gear_dice += 1
            if gear_dice > dice.gear:
                raise _fail("no_gear_die", "no gear die left (RM-3, RM-40).", i)
            if step.brakes < 0 or (step.brakes and step.boost):
                raise _fail("bad_brakes", "use brake dice or a boost die, not both.", i)
            brake_dice += step.brakes
            if brake_dice > dice.brake:
                raise _fail("no_brake_die", "no brake die left (RM-3, RM-40).", i)
            if step.boost:
                boost_dice += 1
                if boost_dice > dice.boost:
                    raise _fail("no_boost_die", "no boost die (RM-14).", i)
                expected: tuple[int, ...] = (gear + 2,)
            elif step.brakes:
                expected = (gear - 1 - step.brakes,)  # RM-13: n brakes drop n + 1 gears
            else:
                expected = (gear - 1, gear + 1)
                if i == 0 and rules.first_die_may_repeat_gear:
                    expected = (gear - 1, gear, gear + 1)
            if value not in expected:
                raise _fail(
                    "gear_step",
                    f"gear {value} cannot follow gear {gear} here (RM-11, RM-13).",
                    i,
                )
            used |= 1 << value
            rolled.extend(("brake", faces.brake) for _ in range(step.brakes))
            if step.boost:
                rolled.append(("boost", faces.boost))
            rolled.append(("gear", faces.gear[value - 1]))
            effective = value
            gear_after = value
        target = step.space
        if target not in track.succ[cur]:
            raise _fail("not_connected", "that space is not one forward move away (RM-10).", i)
        why = ctx.can_enter(cur, target, effective)
        if why:
            raise _fail(why, _ENTRY_MESSAGES[why], i)
        landing = target
        jump_risk = jump_auto = False
        jump = track.jump[target]
        if jump and effective >= jump and track.kind[target] != FINISH:
            landing = step.landing
            reach = track.succ[target]
            if effective > jump:  # RM-20: two extra spaces, flying over the middle one
                reach = tuple(s for m in track.succ[target] for s in track.succ[m]) + tuple(
                    m for m in track.succ[target] if track.kind[m] == FINISH
                )
            if landing not in reach:
                raise _fail("jump_landing", "the jump must land on a space it reaches (RM-20).", i)
            why = ctx.can_enter(target, landing, effective)
            if why:
                raise _fail("jump_" + why, "the landing space is not free (RM-20).", i)
            jump_risk = effective == jump + 1
            jump_auto = effective >= jump + 2
        elif step.landing != -1:
            raise _fail("no_jump", "only a die that jumps has a landing space.", i)
        for space in (target, landing) if landing != target else (target,):
            # RM-21: a ford takes a coast die or the gear-1 die without brakes.
            if track.ford[space] and not (is_coast or (step.gear == 1 and not step.brakes)):
                raise _fail("ford_die", "a ford takes a coast die or the gear-1 die (RM-21).", i)
        overspeed = False
        shortcut_entry = False
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
        effects.append(
            StepEffect(
                dice=tuple(rolled),
                gear_after=gear_after,
                die_gear=effective,
                end=landing,
                overspeed=overspeed,
                jump_risk=jump_risk,
                jump_auto=jump_auto,
                shortcut_entry=shortcut_entry,
                finished=track.kind[landing] == FINISH,
            )
        )
        cur, gear = landing, gear_after
    return effects


_ENTRY_MESSAGES = {
    "obstacle": "an obstacle is on that space (RM-24).",
    "occupied": "another car is on that space (RM-24).",
    "area_method": "another car is in this corner or drift area by the other way (RM-23).",
    "overtake_gear": "entering a space next to a car needs at least its gear (RM-22).",
}


@dataclass(frozen=True, slots=True)
class RollState:
    """What a driver knows before each die in one-at-a-time mode (RM-25, RM-30)."""

    step: int
    die: str
    faces: int
    first_of_step: bool
    hazards: int
    secured: int
    tokens: int


Decide = Callable[[TurnContext, RollState], str]


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die of the turn as rolled (or secured with tokens)."""

    step: int
    kind: str
    hazard: bool
    secured: bool = False


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """The outcome of one turn, for the replay and the tests."""

    car: int
    start: int
    end: int
    gear_start: int
    gear_end: int
    big_attack: bool
    steps_done: int
    rolls: tuple[DieRoll, ...]
    hazards: int
    stopped: bool
    loc_space: int
    loc_gear: int
    outcome: str  # "", "sisu", "spin", "crash"
    damage: tuple[str, ...]
    shortcut_draws: tuple[str, ...]
    card: int
    item: str
    earned: int
    spent: int
    tokens: int
    finished: bool
    retired: bool

    def to_json(self, track: Track) -> dict[str, Any]:
        """JSON form for the replay (space labels instead of ids)."""
        return {
            "car": self.car,
            "from": track.labels[self.start],
            "to": track.labels[self.end],
            "gear_start": self.gear_start,
            "gear_end": self.gear_end,
            "mode": "big_attack" if self.big_attack else "one_at_a_time",
            "steps": self.steps_done,
            "dice": [
                {"step": r.step + 1, "kind": r.kind, "hazard": r.hazard, "secured": r.secured}
                for r in self.rolls
            ],
            "hazards": self.hazards,
            "stopped": self.stopped,
            "loc": None
            if not self.outcome
            else {
                "space": track.labels[self.loc_space],
                "gear": self.loc_gear,
                "outcome": self.outcome,
                "damage": list(self.damage),
            },
            "shortcut_draws": list(self.shortcut_draws),
            "card": self.card,
            "item": self.item,
            "tokens_earned": self.earned,
            "tokens_spent": self.spent,
            "tokens": self.tokens,
            "finished": self.finished,
            "retired": self.retired,
        }


def _always_roll(ctx: TurnContext, roll: RollState) -> str:
    return ROLL


def play_turn(
    ctx: TurnContext, plan: Plan, chance: Chance, decide: Decide | None = None
) -> TurnRecord:
    """Check and carry out ``plan`` for ``ctx.car``; update the car and the stage's mud.

    ``decide`` answers ``"roll"``, ``"secure"`` or ``"stop"`` before each die of a
    one-at-a-time turn (default: roll every die). Raises :class:`PlanError` for an illegal plan
    or decision; nothing is changed then.
    """
    effects = check_plan(ctx, plan)
    car, rules = ctx.car, ctx.rules
    decide = decide or _always_roll
    start, gear_start, limit = car.space, car.gear, rules.hazard_limit
    rolls: list[DieRoll] = []
    hazards = secured = spent = earned = 0
    loc_step = -1
    stopped = False
    done = 0
    shortcut_draws: list[str] = []
    if plan.big_attack and effects:
        # RM-25: one throw of every planned die; RM-28 ruling: LoC on the die reaching the limit.
        for i, effect in enumerate(effects):
            gear_hazard = False
            for kind, faces in effect.dice:
                hit = chance.hazard(faces)
                rolls.append(DieRoll(i, kind, hit))
                if kind == "gear":
                    gear_hazard = hit
                if hit:
                    hazards += 1
            if loc_step < 0 and (hazards >= limit or _lost_control(effect, gear_hazard)):
                loc_step = i
        # RM-29: one token per gear and coast die thrown; brake and boost dice earn none.
        thrown = sum(1 for r in rolls if r.kind in ("gear", "coast"))
        if loc_step < 0 or rules.tokens_on_big_attack_loc:
            earned = thrown
        last = loc_step if loc_step >= 0 else len(effects) - 1
        for i in range(last + 1):
            _move(ctx, effects[i], shortcut_draws, chance)
            done += 1
    else:
        for i, effect in enumerate(effects):
            gear_hazard = False
            for d, (kind, faces) in enumerate(effect.dice):
                roll = RollState(i, kind, faces, d == 0, hazards, secured, car.tokens)
                choice = decide(ctx, roll)
                if choice == STOP:
                    if d:
                        raise PlanError(
                            "stop_mid_step", "A brake die must be followed by its gear die.", step=i
                        )
                    stopped = True
                    break
                if choice == SECURE:
                    # RM-30: the k-th die secured in a turn costs k tokens.
                    cost = secured + 1
                    if car.tokens < cost:
                        raise PlanError(
                            "not_enough_tokens",
                            f"Securing this die costs {cost} tokens.",
                            step=i,
                            cost=cost,
                        )
                    car.tokens -= cost
                    spent += cost
                    secured += 1
                    rolls.append(DieRoll(i, kind, False, secured=True))
                    continue
                if choice != ROLL:
                    raise PlanError("bad_decision", f"Unknown decision {choice!r}.", step=i)
                hit = chance.hazard(faces)
                rolls.append(DieRoll(i, kind, hit))
                if kind == "gear":
                    gear_hazard = hit
                if hit:
                    hazards += 1
                    if hazards >= limit:
                        break  # RM-27: the LoC happens on this die's space
            if stopped:
                break
            _move(ctx, effect, shortcut_draws, chance)
            done += 1
            if hazards >= limit or _lost_control(effect, gear_hazard):
                loc_step = i
                break
            if effect.finished:
                break
    car.tokens += earned
    return _end_turn(
        ctx,
        effects,
        done,
        loc_step,
        start,
        gear_start,
        plan.big_attack,
        rolls,
        hazards,
        stopped,
        shortcut_draws,
        earned,
        spent,
        chance,
    )


def _lost_control(effect: StepEffect, gear_hazard: bool) -> bool:
    return effect.overspeed or effect.jump_auto or (effect.jump_risk and gear_hazard)


def _move(ctx: TurnContext, effect: StepEffect, draws: list[str], chance: Chance) -> None:
    car = ctx.car
    car.space = effect.end
    car.gear = effect.gear_after
    if effect.shortcut_entry:
        # RM-19: each entry into a shortcut draws one token, read on its shortcut side.
        token = chance.draw(ctx.rules.shortcut_draw, "shortcut")
        draws.append(token)
        if token == "coast":
            car.coast_damage += 1
        elif token == "mud":
            ctx.state.mud.append((ctx.track.tile[effect.end], car.car))


def _end_turn(
    ctx: TurnContext,
    effects: Sequence[StepEffect],
    done: int,
    loc_step: int,
    start: int,
    gear_start: int,
    big_attack: bool,
    rolls: list[DieRoll],
    hazards: int,
    stopped: bool,
    shortcut_draws: list[str],
    earned: int,
    spent: int,
    chance: Chance,
) -> TurnRecord:
    car, rules, track = ctx.car, ctx.rules, ctx.track
    outcome = ""
    damage: list[str] = []
    loc_gear = 0
    if loc_step >= 0:
        # RM-36: draw the card of the gear at the LoC, read its gear-0 side.
        loc_gear = effects[loc_step].die_gear
        outcome = chance.draw(rules.loc_outcome_weights.for_gear(loc_gear), "loc")
        if outcome == "sisu":
            card, item = rules.card_seconds(loc_gear), f"{loc_gear}s"
        else:
            card, item = rules.loc_card_s, "0"
        if outcome == "crash":
            # RM-38: tokens by gear at the LoC and the tile's danger level; RM-39 their effect.
            draws = rules.crash_draws[loc_gear - 1][track.danger[car.space]]
            for _ in range(draws):
                token = chance.draw(rules.crash_token_weights, "crash")
                damage.append(token)
                if token == "gear":
                    car.gear_damage += 1
                elif token == "brake":
                    car.brake_damage += 1
                elif token == "coast":
                    car.coast_damage += 1
            car.on_track = False  # off the track, blocks nobody (RM-36)
        car.gear = 0  # RM-35: the next turn starts in gear 0 after any LoC
    else:
        # RM-33: the card of the gear in effect; a gear-0 turn costs the LoC card (ruling).
        card = rules.card_seconds(car.gear)
        item = str(car.gear)
    car.turns += 1
    car.items.append(LogTurn(int(item[0]), sisu=item.endswith("s")))
    car.cards += card
    if track.kind[car.space] == FINISH:
        car.finished = True  # RM-41: the card of the final turn counts in full
        car.on_track = False
    elif turn_dice(rules, car).gear == 0:
        car.retired, car.retire_reason, car.on_track = True, "no_gear_dice", False  # RM-40
    return TurnRecord(
        car=car.car,
        start=start,
        end=car.space,
        gear_start=gear_start,
        gear_end=car.gear,
        big_attack=big_attack,
        steps_done=done,
        rolls=tuple(rolls),
        hazards=hazards,
        stopped=stopped,
        loc_space=car.space if outcome else -1,
        loc_gear=loc_gear,
        outcome=outcome,
        damage=tuple(damage),
        shortcut_draws=tuple(shortcut_draws),
        card=card,
        item=item,
        earned=earned,
        spent=spent,
        tokens=car.tokens,
        finished=car.finished,
        retired=car.retired,
    )


def return_after_crash(state: StageState, car: CarState) -> None:
    """RM-36 ruling: a crashed car comes back on its LoC space, or the nearest free one behind."""
    track = state.track
    taken = {c.space for c in state.cars if c is not car and c.on_track and c.active}
    frontier = [car.space]
    seen = {car.space}
    while frontier:
        for space in frontier:
            if space not in taken and not track.obstacle[space]:
                car.space = space
                car.on_track = True
                return
        nxt: list[int] = []
        for space in frontier:
            for p in track.preds[space]:
                if p not in seen:
                    seen.add(p)
                    nxt.append(p)
        frontier = nxt
    car.on_track = True  # nowhere free behind (not reachable on a valid layout): stay put
