"""One car's turn: rolling (RM-25 to RM-30), end of turn, time cards and LoC outcomes
(RM-32 to RM-40), and a crashed car's return (RM-36).

:func:`play_turn` checks a :class:`~games.rallyman.engine.Plan`, rolls its dice through a
:class:`~games.rallyman.dice.Chance` and updates the car; tests script the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
from games.rallyman.notation import LogTurn
from games.rallyman.track import FINISH, Track

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
    relaid = False
    if plan.big_attack and effects:
        # RM-25: one throw of every planned die; RM-28: in the planned order, the LoC is on the
        # first die that reaches the limit, overspeeds or jumps badly.
        for i, effect in enumerate(effects):
            die_hazard = False
            for kind, faces in effect.dice:
                hit = chance.hazard(faces)
                rolls.append(DieRoll(i, kind, hit))
                if kind in _LAID:
                    die_hazard = hit
                if hit:
                    hazards += 1
            if loc_step < 0 and (hazards >= limit or _lost_control(effect, die_hazard)):
                loc_step = i
        # RM-29: one token per gear and coast die thrown; brake and boost dice earn none.
        thrown = sum(1 for r in rolls if r.kind in _LAID)
        if loc_step < 0 or rules.tokens_on_big_attack_loc:
            earned = thrown
        if loc_step >= 0 and relay is not None and rules.big_attack_loc_policy == "free":
            throw = _throw(plan, rolls, loc_step)
            chosen = relay(ctx, throw)
            if chosen is not None:
                effects = _check_relay(ctx, throw, chosen)
                loc_step, relaid = len(effects) - 1, True
        last = loc_step if loc_step >= 0 else len(effects) - 1
        for i in range(last + 1):
            _move(ctx, effects[i], shortcut_draws, chance)
            done += 1
    else:
        for i, effect in enumerate(effects):
            die_hazard = False
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
                if kind in _LAID:
                    die_hazard = hit
                if hit:
                    hazards += 1
                    if hazards >= limit:
                        break  # RM-27: the LoC happens on this die's space
            if stopped:
                break
            _move(ctx, effect, shortcut_draws, chance)
            done += 1
            if hazards >= limit or _lost_control(effect, die_hazard):
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
        relaid,
    )


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
    return PlanError(code, f"Relaid step {index + 1}: {message}", step=index)


def _check_relay(ctx: TurnContext, throw: Throw, relay: Relay) -> list[StepEffect]:
    """RM-28: the new layout uses thrown dice only, each once with its face, obeys the planning
    rules (RM-10 to RM-24) and produces a LoC on its last die."""
    if not relay.steps:
        raise PlanError("relay_empty", "Lay at least one die: the LoC must still happen (RM-28).")
    if len(relay.hazards) != len(relay.steps):
        raise PlanError("relay_hazards", "Give the hazards of every relaid step.")
    effects = check_plan(ctx, Plan(relay.steps))
    gear_face = dict(throw.gear)
    # [safe, hazard] dice of each kind still to lay
    coast = [throw.coast.count(False), throw.coast.count(True)]
    brake = [throw.brake.count(False), throw.brake.count(True)]
    boost = list(throw.boost)
    hazards, limit = 0, ctx.rules.hazard_limit
    last = len(relay.steps) - 1
    for i, (step, effect, chosen) in enumerate(
        zip(relay.steps, effects, relay.hazards, strict=True)
    ):
        if step.coast:
            if chosen not in (0, 1):
                raise _relay_error("relay_hazards", "a coast die shows 0 or 1 hazard.", i)
            coast[chosen] -= 1
            die_hazard = chosen == 1
            shown = chosen
        else:
            if step.gear not in gear_face:
                raise _relay_error(
                    "relay_not_thrown", f"the gear-{step.gear} die was not thrown.", i
                )
            die_hazard = gear_face[step.gear]
            if not 0 <= chosen <= step.brakes:
                raise _relay_error("relay_hazards", "more hazards than brake dice.", i)
            brake[1] -= chosen
            brake[0] -= step.brakes - chosen
            shown = chosen + die_hazard
            if step.boost:
                if not boost:
                    raise _relay_error("relay_not_thrown", "no boost die was thrown.", i)
                shown += boost.pop()
        if min(coast + brake) < 0:
            raise _relay_error("relay_not_thrown", "more dice of that face than were thrown.", i)
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
    relaid: bool = False,
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
        relaid=relaid,
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
