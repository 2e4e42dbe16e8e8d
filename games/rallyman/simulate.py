"""Simulating a whole stage: staggered start (RM-4), turn order (RM-7 to RM-9), automatic drivers,
stage times (RM-41, RM-42) and the turn logs of RM-55.

The service calls :func:`simulate_stage` with ``derive_rng(seed, "rally_stage", number)``; every
random draw of the stage comes from that one generator, so the same seed plays the same stage.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.rallyman.dice import Chance, RandomChance
from games.rallyman.engine import CarState, Plan, StageState, TurnContext, make_context, turn_dice
from games.rallyman.errors import RallymanError
from games.rallyman.policy import AutoDriver
from games.rallyman.track import Track
from games.rallyman.turn import Relayer, RollState, play_turn, return_after_crash
from scoring.rally.notation import TurnLog
from scoring.rally.rules import RallyRules

# Replay format and engine version: bumped when a seed's replay changes. 2: every turn logs its
# plan (and an RM-28 relay) for replay checks; a wrong die on a ford ends the move (RM-21).
SIMULATOR_VERSION = "2"


class Driver(Protocol):
    """Plans each turn and decides before each die of a one-at-a-time roll.

    A driver may also have ``relay(ctx, throw) -> Relay | None`` (see ``turn.Relayer``): the
    simulator then offers it the RM-28 choice after a Big Attack that loses control.
    """

    def plan(self, ctx: TurnContext) -> Plan:
        """The dice laid for the turn (RM-10)."""
        ...

    def before_die(self, ctx: TurnContext, roll: RollState) -> str:
        """``"roll"``, ``"secure"`` or ``"stop"`` (RM-25, RM-30)."""
        ...


@dataclass(frozen=True, slots=True)
class CarEntry:
    """A car in start order: its id, the tokens it brings (RM-31 ``tokens_carry_over``) and
    the damage tokens it starts with, gear, brake, coast (RM-40 ``repair_between_stages``).

    ``rally.stage_entries`` builds them from the previous stage by the rules.
    """

    car: int
    tokens: int = 0
    damage: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class CarRun:
    """One car's stage: status, log, card total, tokens and net time (RM-42, no penalties)."""

    car: int
    status: str  # "finished" or "retired"
    turns: int
    log: str | None
    cards: int
    tokens: int  # unspent at the finish, deducted unless carried over
    net_time: int | None
    carried_tokens: int  # tokens taken to the next stage (RM-31)
    retire_reason: str
    damage: tuple[int, int, int]  # gear, brake, coast tokens at the end (RM-39)

    def sheet_row(self) -> dict[str, Any]:
        """The RM-52 entry the service stores for a simulated stage."""
        if self.status == "retired":
            return {"driver": self.car, "status": "retired"}
        return {"driver": self.car, "log": self.log, "time": self.net_time}


@dataclass(frozen=True, slots=True)
class StageRun:
    """A simulated stage: per-car results in start order and the per-turn replay."""

    track: str
    cars: tuple[CarRun, ...]
    rounds: int
    replay: tuple[dict[str, Any], ...]

    def sheet(self) -> list[dict[str, Any]]:
        """Results as a scorekeeper would submit them (RM-52)."""
        return [c.sheet_row() for c in self.cars]

    def replay_json(self) -> dict[str, Any]:
        """The replay the service serves at ``.../replay/``."""
        return {
            "version": SIMULATOR_VERSION,
            "track": self.track,
            "rounds": self.rounds,
            "turns": list(self.replay),
            "results": [
                {
                    "car": c.car,
                    "status": c.status,
                    "log": c.log,
                    "cards": c.cards,
                    "tokens": c.tokens,
                    "net_time": c.net_time,
                    "retire_reason": c.retire_reason or None,
                    "carried_tokens": c.carried_tokens,
                    "damage": list(c.damage),
                }
                for c in self.cars
            ],
        }


def turn_order(state: StageState, cars: Sequence[CarState]) -> list[CarState]:
    """RM-7/RM-8: distance, then gear, then the inside lane, then the earlier start position.

    Crashed cars keep their place, ranked by the space where they crashed.
    """
    track = state.track
    return sorted(
        cars,
        key=lambda c: (
            -track.front[c.space],
            -c.gear,
            track.inside_rank[c.space],
            c.start_position,
        ),
    )


def _enter(state: StageState, car: CarState) -> bool:
    """RM-4/RM-5: the car starts behind the line in gear 0, on a free start space."""
    taken = {c.space for c in state.cars if c.on_track and c.active}
    track = state.track
    for space in sorted(track.start_spaces, key=lambda s: (track.inside_rank[s], s)):
        if space not in taken:
            car.space, car.gear, car.on_track = space, 0, True
            return True
    return False


def simulate_stage(
    track: Track,
    entries: Sequence[CarEntry],
    rules: RallyRules,
    rng: random.Random,
    *,
    last_stage: bool = True,
    driver: Driver | None = None,
    chance: Chance | None = None,
) -> StageRun:
    """Play a stage with automatic drivers; ``entries`` in start order (RM-6).

    Every random draw comes from ``rng`` (or the given ``chance``). ``last_stage`` matters only
    with ``tokens_carry_over``: then unspent tokens are carried except on the last stage (RM-31).
    """
    if not entries:
        raise RallymanError("A stage needs at least one car.", "no_cars")
    if len({e.car for e in entries}) != len(entries):
        raise RallymanError("A car is entered twice.", "duplicate_car")
    chance = chance or RandomChance(rng)
    driver = driver or AutoDriver()
    cars = _start_cars(entries, rules)
    state = StageState(track, rules, cars)
    waiting = [c for c in cars if c.active]
    replay: list[dict[str, Any]] = []
    rounds = 0
    while any(c.active for c in cars):
        rounds += 1
        if rounds > rules.max_turns_per_stage + len(cars):
            # A car that never got a start space (not possible on a valid layout) retires.
            for car in cars:
                if car.active:
                    car.retired, car.retire_reason, car.on_track = True, "max_turns", False
            break
        order = turn_order(state, [c for c in cars if c.active and c.space >= 0])
        # RM-4: in round r the car in start position r enters after the others.
        if waiting and waiting[0].start_position <= rounds and _enter(state, waiting[0]):
            order.append(waiting.pop(0))
        replay += _play_round(state, order, driver, chance, rounds)
    return StageRun(
        track.name, tuple(_result(c, rules, last_stage) for c in cars), rounds, tuple(replay)
    )


def _start_cars(entries: Sequence[CarEntry], rules: RallyRules) -> list[CarState]:
    """The cars in start order with the tokens and damage they bring (RM-31, RM-40)."""
    cars = [
        CarState(
            e.car,
            i + 1,
            tokens=e.tokens,
            gear_damage=e.damage[0],
            brake_damage=e.damage[1],
            coast_damage=e.damage[2],
        )
        for i, e in enumerate(entries)
    ]
    for car in cars:
        if turn_dice(rules, car).gear == 0:
            # RM-40: damage brought from the last stage can leave no gear die at all.
            car.retired, car.retire_reason = True, "no_gear_dice"
    return cars


def _play_round(
    state: StageState, order: list[CarState], driver: Driver, chance: Chance, rounds: int
) -> list[dict[str, Any]]:
    """Every car in ``order`` plays its turn (RM-7 to RM-9); returns the round's replay."""
    relay: Relayer | None = getattr(driver, "relay", None)  # optional (see Driver)
    limit = state.rules.max_turns_per_stage
    replay: list[dict[str, Any]] = []
    for index, car in enumerate(order):
        if not car.active:
            continue
        if not car.on_track:
            return_after_crash(state, car)
        ctx = make_context(state, car, leader=index == 0)  # RM-9
        record = play_turn(ctx, driver.plan(ctx), chance, driver.before_die, relay)
        entry = record.to_json(state.track)
        entry["round"] = rounds
        entry["leader"] = index == 0
        replay.append(entry)
        if car.active and car.turns >= limit:
            # RM-41 ruling: the simulator's guard against a stage that never ends.
            car.retired, car.retire_reason, car.on_track = True, "max_turns", False
            entry["retired"] = True
    return replay


def _result(car: CarState, rules: RallyRules, last_stage: bool) -> CarRun:
    damage = (car.gear_damage, car.brake_damage, car.coast_damage)
    if not car.finished:
        return CarRun(
            car.car,
            "retired",
            car.turns,
            None,
            car.cards,
            car.tokens,
            None,
            0,
            car.retire_reason,
            damage,
        )
    carry = rules.tokens_carry_over and not last_stage
    deducted = 0 if carry else car.tokens
    log = TurnLog(tuple(car.items), deducted)
    return CarRun(
        car=car.car,
        status="finished",
        turns=car.turns,
        log=log.format(),
        cards=car.cards,
        tokens=deducted,
        net_time=car.cards - deducted * rules.token_seconds,
        carried_tokens=car.tokens if carry else 0,
        retire_reason="",
        damage=damage,
    )
