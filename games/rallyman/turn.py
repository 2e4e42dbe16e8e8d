"""One car's turn: rolling (RM-25 to RM-30), end of turn, time cards and LoC outcomes
(RM-32 to RM-40), and a crashed car's return (RM-36).

:func:`play_turn` checks a :class:`~games.rallyman.engine.Plan`, rolls its dice through a
:class:`~games.rallyman.dice.Chance` and updates the car; tests script the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rallyman.dice import Chance
from games.rallyman.engine import (
    CarState,
    Plan,
    StageState,
    Step,
    StepEffect,
    TurnContext,
    check_plan,
    turn_dice,
)
from games.rallyman.errors import PlanError
from games.rallyman.track import FINISH, Track
from scoring.rally.notation import LogTurn

ROLL, SECURE, STOP = "roll", "secure", "stop"


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
class Throw:
    """RM-28: the dice of a Big Attack that lost control, as thrown, to be laid again.

    ``gear`` holds ``(value, hazard shown)`` per gear die; the other kinds a hazard flag per die.
    ``planned_loc`` is the step where the LoC happens in the planned order.
    """

    plan: Plan
    gear: tuple[tuple[int, bool], ...]
    coast: tuple[bool, ...]
    brake: tuple[bool, ...]
    boost: tuple[bool, ...]
    planned_loc: int


@dataclass(frozen=True, slots=True)
class Relay:
    """RM-28: a new layout of thrown dice after a failed Big Attack.

    ``hazards[i]`` says how many of step ``i``'s coast or brake dice are ones that showed a
    hazard (0 or 1 for a coast die, 0 to ``brakes`` for a gear die); a gear or boost die keeps
    its own face. The layout must end in a LoC on its last die (RM-28: it must still produce one).
    """

    steps: tuple[Step, ...]
    hazards: tuple[int, ...]


Relayer = Callable[[TurnContext, Throw], Relay | None]


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
    relaid: bool = False  # RM-28: the dice were laid again after a failed Big Attack
    ford_stop: bool = False  # RM-21: a wrong die on a ford ended the movement
    plan: tuple[Step, ...] = ()  # the dice as laid (RM-10), for replay checks
    relay: Relay | None = None  # RM-28: the new layout, when the dice were laid again

    def to_json(self, track: Track) -> dict[str, Any]:
        """JSON form for the replay (space labels instead of ids)."""
        return {
            "car": self.car,
            "from": track.labels[self.start],
            "to": track.labels[self.end],
            "gear_start": self.gear_start,
            "gear_end": self.gear_end,
            "mode": "big_attack" if self.big_attack else "one_at_a_time",
            "relaid": self.relaid,
            "plan": [_step_json(step, track) for step in self.plan],
            "relay": None
            if self.relay is None
            else {
                "steps": [_step_json(step, track) for step in self.relay.steps],
                "hazards": list(self.relay.hazards),
            },
            "steps": self.steps_done,
            "ford_stop": self.ford_stop,
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


def _step_json(step: Step, track: Track) -> dict[str, Any]:
    return {
        "space": track.labels[step.space],
        "gear": step.gear,
        "brakes": step.brakes,
        "boost": step.boost,
        "landing": None if step.landing < 0 else track.labels[step.landing],
    }


def _always_roll(ctx: TurnContext, roll: RollState) -> str:
    return ROLL


@dataclass(slots=True)
class _Rolling:
    """What rolling a turn's dice has given so far (RM-25 to RM-30)."""

    effects: list[StepEffect]
    rolls: list[DieRoll] = field(default_factory=list)
    hazards: int = 0
    secured: int = 0
    spent: int = 0
    earned: int = 0
    loc_step: int = -1
    stopped: bool = False
    done: int = 0
    shortcut_draws: list[str] = field(default_factory=list)
    relay: Relay | None = None
    ford_stop: bool = False


def play_turn(
    ctx: TurnContext,
    plan: Plan,
    chance: Chance,
    decide: Decide | None = None,
    relay: Relayer | None = None,
) -> TurnRecord:
    """Check and carry out ``plan`` for ``ctx.car``; update the car and the stage's mud.

    ``decide`` answers ``"roll"``, ``"secure"`` or ``"stop"`` before each die of a
    one-at-a-time turn (default: roll every die). With ``big_attack_loc_policy = "free"``,
    ``relay`` may lay the dice of a Big Attack that lost control again (RM-28; ``None`` keeps the
    planned order). Raises :class:`PlanError` for an illegal plan, decision or layout; the car is
    not changed then.
    """
    car = ctx.car
    start, gear_start = car.space, car.gear
    state = _Rolling(check_plan(ctx, plan))
    if plan.big_attack and state.effects:
        _roll_big_attack(ctx, plan, state, chance, relay)
    else:
        _roll_one_at_a_time(ctx, state, chance, decide or _always_roll)
    car.tokens += state.earned
    return _end_turn(ctx, state, start, gear_start, plan, chance)


def _roll_big_attack(
    ctx: TurnContext, plan: Plan, state: _Rolling, chance: Chance, relay: Relayer | None
) -> None:
    """RM-25: one throw of every planned die; RM-28: in the planned order, the LoC is on the
    first die that reaches the limit, overspeeds or jumps badly."""
    rules, limit = ctx.rules, ctx.rules.hazard_limit
    for i, effect in enumerate(state.effects):
        die_hazard = False
        for kind, faces in effect.dice:
            hit = chance.hazard(faces)
            state.rolls.append(DieRoll(i, kind, hit))
            if kind in _LAID:
                die_hazard = hit
            state.hazards += hit
        if state.loc_step < 0 and (state.hazards >= limit or _lost_control(effect, die_hazard)):
            state.loc_step = i
    # RM-29: one token per gear and coast die thrown; brake and boost dice earn none.
    thrown = sum(1 for r in state.rolls if r.kind in _LAID)
    if state.loc_step < 0 or rules.tokens_on_big_attack_loc:
        state.earned = thrown
    if state.loc_step >= 0 and relay is not None and rules.big_attack_loc_policy == "free":
        throw = _throw(plan, state.rolls, state.loc_step)
        chosen = relay(ctx, throw)
        if chosen is not None:
            state.effects = _check_relay(ctx, throw, chosen)
            state.loc_step, state.relay = len(state.effects) - 1, chosen
    last = state.loc_step if state.loc_step >= 0 else len(state.effects) - 1
    for effect in state.effects[: last + 1]:
        if effect.ford_stop and not effect.dice:
            state.ford_stop = True  # RM-21: the die on the ford is not carried out
            break
        _move(ctx, effect, state.shortcut_draws, chance)
        state.done += 1
        state.ford_stop = effect.ford_stop


def _roll_one_at_a_time(ctx: TurnContext, state: _Rolling, chance: Chance, decide: Decide) -> None:
    """RM-25: die by die, the driver choosing before each to roll, secure (RM-30) or stop."""
    limit = ctx.rules.hazard_limit
    for i, effect in enumerate(state.effects):
        if effect.ford_stop and not effect.dice:
            state.ford_stop = True  # RM-21: the movement ends before the ford
            return
        die_hazard = _roll_step(ctx, state, i, effect, chance, decide)
        if state.stopped:
            return
        _move(ctx, effect, state.shortcut_draws, chance)
        state.done += 1
        if state.hazards >= limit or _lost_control(effect, die_hazard):
            state.loc_step = i
            return
        if effect.ford_stop:
            state.ford_stop = True
            return
        if effect.finished:
            return


def _roll_step(
    ctx: TurnContext, state: _Rolling, i: int, effect: StepEffect, chance: Chance, decide: Decide
) -> bool:
    """Roll (or secure) the dice of one step; True when its laid die showed a hazard."""
    car, limit = ctx.car, ctx.rules.hazard_limit
    die_hazard = False
    for d, (kind, faces) in enumerate(effect.dice):
        roll = RollState(i, kind, faces, d == 0, state.hazards, state.secured, car.tokens)
        choice = decide(ctx, roll)
        if choice == STOP:
            if d:
                raise PlanError(
                    "A brake die must be followed by its gear die.", "stop_mid_step", step=i
                )
            state.stopped = True
            return False
        if choice == SECURE:
            _secure(car, state, i, kind)
            continue
        if choice != ROLL:
            raise PlanError(f"Unknown decision {choice!r}.", "bad_decision", step=i)
        hit = chance.hazard(faces)
        state.rolls.append(DieRoll(i, kind, hit))
        if kind in _LAID:
            die_hazard = hit
        if hit:
            state.hazards += 1
            if state.hazards >= limit:
                break  # RM-27: the LoC happens on this die's space
    return die_hazard


def _secure(car: CarState, state: _Rolling, i: int, kind: str) -> None:
    """RM-30: the k-th die secured in a turn costs k tokens."""
    cost = state.secured + 1
    if car.tokens < cost:
        raise PlanError(
            f"Securing this die costs {cost} tokens.", "not_enough_tokens", step=i, cost=cost
        )
    car.tokens -= cost
    state.spent += cost
    state.secured += 1
    state.rolls.append(DieRoll(i, kind, False, secured=True))


# The dice laid on a space: a gear or a coast die. RM-20's "if this die rolls a hazard" is about
# that die (a coast die jumps at the gear in effect); RM-29 pays one token for each of them.
_LAID = ("gear", "coast")


def _lost_control(effect: StepEffect, die_hazard: bool) -> bool:
    return effect.overspeed or effect.jump_auto or (effect.jump_risk and die_hazard)


def _throw(plan: Plan, rolls: Sequence[DieRoll], loc_step: int) -> Throw:
    gear: list[tuple[int, bool]] = []
    by_kind: dict[str, list[bool]] = {"coast": [], "brake": [], "boost": []}
    for r in rolls:
        if r.kind == "gear":
            gear.append((plan.steps[r.step].gear, r.hazard))
        else:
            by_kind[r.kind].append(r.hazard)
    return Throw(
        plan,
        tuple(gear),
        tuple(by_kind["coast"]),
        tuple(by_kind["brake"]),
        tuple(by_kind["boost"]),
        loc_step,
    )


def _relay_error(code: str, message: str, index: int) -> PlanError:
    return PlanError(f"Relaid step {index + 1}: {message}", code, step=index)


@dataclass(slots=True)
class _ThrownDice:
    """The thrown dice of a failed Big Attack still to lay again: [safe, hazard] counts."""

    gear_face: dict[int, bool]
    coast: list[int]
    brake: list[int]
    boost: list[bool]

    @classmethod
    def of(cls, throw: Throw) -> _ThrownDice:
        return cls(
            dict(throw.gear),
            [throw.coast.count(False), throw.coast.count(True)],
            [throw.brake.count(False), throw.brake.count(True)],
            list(throw.boost),
        )

    def take(self, step: Step, chosen: int, i: int) -> tuple[int, bool]:
        """Lay ``step`` with ``chosen`` hazard coast or brake dice: (hazards shown, die hazard)."""
        if step.coast:
            if chosen not in (0, 1):
                raise _relay_error("relay_hazards", "a coast die shows 0 or 1 hazard.", i)
            self.coast[chosen] -= 1
            shown, die_hazard = chosen, chosen == 1
        else:
            if step.gear not in self.gear_face:
                raise _relay_error(
                    "relay_not_thrown", f"the gear-{step.gear} die was not thrown.", i
                )
            die_hazard = self.gear_face[step.gear]
            if not 0 <= chosen <= step.brakes:
                raise _relay_error("relay_hazards", "more hazards than brake dice.", i)
            self.brake[1] -= chosen
            self.brake[0] -= step.brakes - chosen
            shown = chosen + die_hazard
            if step.boost:
                if not self.boost:
                    raise _relay_error("relay_not_thrown", "no boost die was thrown.", i)
                shown += self.boost.pop()
        if min(self.coast + self.brake) < 0:
            raise _relay_error("relay_not_thrown", "more dice of that face than were thrown.", i)
        return shown, die_hazard


def _check_relay(ctx: TurnContext, throw: Throw, relay: Relay) -> list[StepEffect]:
    """RM-28: the new layout uses thrown dice only, each once with its face, obeys the planning
    rules (RM-10 to RM-24) and produces a LoC on its last die."""
    if not relay.steps:
        raise PlanError("Lay at least one die: the LoC must still happen (RM-28).", "relay_empty")
    if len(relay.hazards) != len(relay.steps):
        raise PlanError("Give the hazards of every relaid step.", "relay_hazards")
    effects = check_plan(ctx, Plan(relay.steps))
    if len(effects) != len(relay.steps) or effects[-1].ford_stop:
        # RM-21: a ford would end the movement before the LoC the layout must produce.
        raise _relay_error("relay_ford", "a ford ends the movement (RM-21).", len(effects) - 1)
    dice = _ThrownDice.of(throw)
    hazards, limit = 0, ctx.rules.hazard_limit
    last = len(relay.steps) - 1
    for i, (step, effect, chosen) in enumerate(
        zip(relay.steps, effects, relay.hazards, strict=True)
    ):
        shown, die_hazard = dice.take(step, chosen, i)
        hazards += shown
        lost = hazards >= limit or _lost_control(effect, die_hazard)
        if lost and i < last:
            raise _relay_error("relay_after_loc", "no die may follow the LoC (RM-28).", i)
        if not lost and i == last:
            raise _relay_error("relay_no_loc", "the layout must still produce a LoC (RM-28).", i)
    return effects


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
    state: _Rolling,
    start: int,
    gear_start: int,
    plan: Plan,
    chance: Chance,
) -> TurnRecord:
    car, rules, track = ctx.car, ctx.rules, ctx.track
    outcome = ""
    damage: list[str] = []
    loc_gear = 0
    if state.loc_step >= 0:
        # RM-36: draw the card of the gear at the LoC, read its gear-0 side.
        loc_gear = state.effects[state.loc_step].die_gear
        outcome = chance.draw(rules.loc_outcome_weights.for_gear(loc_gear), "loc")
        if outcome == "sisu":
            card, item = rules.card_seconds(loc_gear), f"{loc_gear}s"
        else:
            card, item = rules.loc_card_s, "0"
        if outcome == "crash":
            damage = _crash(ctx, loc_gear, chance)
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
        big_attack=plan.big_attack,
        steps_done=state.done,
        rolls=tuple(state.rolls),
        hazards=state.hazards,
        stopped=state.stopped,
        loc_space=car.space if outcome else -1,
        loc_gear=loc_gear,
        outcome=outcome,
        damage=tuple(damage),
        shortcut_draws=tuple(state.shortcut_draws),
        card=card,
        item=item,
        earned=state.earned,
        spent=state.spent,
        tokens=car.tokens,
        finished=car.finished,
        retired=car.retired,
        relaid=state.relay is not None,
        ford_stop=state.ford_stop,
        plan=plan.steps,
        relay=state.relay,
    )


def _crash(ctx: TurnContext, loc_gear: int, chance: Chance) -> list[str]:
    """RM-38: tokens by gear at the LoC and the tile's danger level; RM-39 their effect."""
    car, rules = ctx.car, ctx.rules
    damage: list[str] = []
    for _ in range(rules.crash_draws[loc_gear - 1][ctx.track.danger[car.space]]):
        token = chance.draw(rules.crash_token_weights, "crash")
        damage.append(token)
        if token == "gear":
            car.gear_damage += 1
        elif token == "brake":
            car.brake_damage += 1
        elif token == "coast":
            car.coast_damage += 1
    car.on_track = False  # off the track, blocks nobody (RM-36)
    return damage


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
