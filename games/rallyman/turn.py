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
