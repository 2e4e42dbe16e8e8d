"""A replay checker: verifies a simulated Rallyman stage turn by turn from its replay and set-up.

:func:`check_stage` reads the stage's set-up (track, car entries, rules) and its replay
(``StageRun.replay_json()``) and re-reads every turn against ``rules/rallyman.md``: the staggered
start and turn order (RM-4 to RM-9), the dice laid (RM-10 to RM-15: one space forward, gear steps,
brakes and boost, each die once, the allowance after damage), corners and mud (RM-16, RM-17,
RM-19), shortcuts (RM-19), jumps (RM-20), fords (RM-21), other cars (RM-22 to RM-24), the dice
rolled and secured (RM-25 to RM-30), the end of the turn, its card and LoC (RM-32 to RM-36),
damage (RM-38 to RM-40), a crashed car's return, the finish and the results (RM-41, RM-42).

It reads the track's space graph (board data) but none of the engine's planning or turn code;
the random draws (hazards, LoC outcomes, damage and shortcut tokens) are checked to be possible
outcomes with the rules' weights.

``python -m games.rallyman.check --stages N`` simulates N seeded stages per sample layout and
checks each one; the test suite runs a few hundred.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.checking import CheckReport, check_command
from games.rallyman.layout import SAMPLE_STAGES, load_layout
from games.rallyman.simulate import CarEntry, simulate_stage
from games.rallyman.track import CORNER, DRIFTING, FINISH, SHORTCUT, Track, build_track
from scoring.rally.rules import RallyRules, Weights, parse_rules


@dataclass
class _Car:
    """A car as the checker tracks it."""

    car: int
    start_position: int
    tokens: int
    damage: list[int]  # gear, brake, coast tokens (RM-39)
    space: int = -1  # -1 before it enters (RM-4)
    gear: int = 0
    on_track: bool = False
    finished: bool = False
    retired: bool = False
    reason: str = ""
    turns: int = 0
    cards: int = 0
    items: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return not (self.finished or self.retired)


@dataclass(frozen=True)
class _Die:
    """One laid step of a plan, read from the replay."""

    space: int
    gear: int  # 0 = coast die
    brakes: int
    boost: bool
    landing: int  # -1 = none


@dataclass
class _Step:
    """What a laid step does, as the checker reads the rules."""

    die: _Die
    kinds: list[str]  # dice rolled for it, in order
    effective: int  # gear it moves at (a coast die: the gear in effect)
    gear_after: int
    end: int
    overspeed: bool = False
    jump_risk: bool = False  # RM-20 g = N + 1
    jump_auto: bool = False  # RM-20 g >= N + 2
    shortcut_entry: bool = False
    ford_stop: bool = False  # RM-21: the movement ends here
    carried: bool = True  # False: a wrong die on a ford, never carried out


class _Turn:
    """One turn being checked: the car, the other cars and the dice left."""

    def __init__(self, stage: _StageCheck, car: _Car, leader: bool, where: str) -> None:
        self.stage, self.car, self.where = stage, car, where
        self.track, self.rules = stage.track, stage.rules
        self.leader = leader
        others = [c for c in stage.cars if c is not car and c.on_track and c.active]
        self.occupied = {c.space: c for c in others}
        allowance = self.rules.allowance
        self.left = {
            "gear": max(allowance.gear - car.damage[0], 0),
            "brake": max(allowance.brake - car.damage[1], 0),
            "coast": max(allowance.coast - car.damage[2], 0),
            "boost": 1 if self.rules.boost_enabled else 0,
        }
        self.mud = [0] * len(self.track.tile_names)
        for tile, by in stage.mud:
            if by != car.car:
                self.mud[tile] += 1

    def ok(self, condition: bool, message: str) -> bool:
        return self.stage.ok(condition, message)

    def limit(self, space: int) -> int:
        """RM-17, RM-19: a corner's limit less the mud others left on its tile."""
        base = self.track.corner_limit[space]
        return max(base - self.mud[self.track.tile[space]], 0) if base else 0

    # --- RM-22 to RM-24 -----------------------------------------------------------------------

    def entry_problem(self, src: int, dest: int, gear: int) -> str:
        track = self.track
        if track.obstacle[dest]:
            return "an obstacle (RM-24)"
        if dest in self.occupied:
            return "a car (RM-24)"
        if track.area[dest] >= 0:
            for space in self.occupied:
                if (
                    track.area[space] == track.area[dest]
                    and track.method[space] != track.method[dest]
                ):
                    return "a car in that corner or drift by the other way (RM-23)"
        for space in track.adjacent[dest]:
            other = self.occupied.get(space)
            if other is not None and gear < other.gear and space not in track.adjacent[src]:
                return "beside a car in a higher gear (RM-22)"
        return ""

    # --- the plan: RM-10 to RM-21 -------------------------------------------------------------

    def read_plan(self, dice: Sequence[_Die]) -> list[_Step]:
        """The steps of a plan up to the first that ends the movement; records violations."""
        cur, gear = self.car.space, self.car.gear
        used: set[int] = set()
        steps: list[_Step] = []
        for index, die in enumerate(dice):
            if steps and steps[-1].ford_stop:
                break  # RM-21: the rest of the plan is never carried out
            if steps and self.track.kind[steps[-1].end] == FINISH:
                self.ok(False, f"step {index + 1} after the finish line (RM-41)")
                break
            step = self._read_die(die, index, cur, gear, used)
            steps.append(step)
            cur, gear = step.end, step.gear_after
        return steps

    def _read_die(self, die: _Die, index: int, cur: int, gear: int, used: set[int]) -> _Step:
        faces_ok = self._take_dice(die, index, gear, used)
        effective = die.gear or gear
        kinds = ["brake"] * die.brakes + ["boost"] * die.boost + ["gear" if die.gear else "coast"]
        track = self.track
        self.ok(die.space in track.succ[cur], f"step {index + 1} is not one space forward (RM-10)")
        problem = self.entry_problem(cur, die.space, effective)
        self.ok(not problem, f"step {index + 1} enters {problem}")
        fordable = die.gear == 0 or (die.gear == 1 and not die.brakes)
        if track.ford[die.space] and not fordable:
            # RM-21: any other die ends the movement at once, before the ford, in the gear in
            # effect.
            return _Step(die, [], gear, gear, cur, ford_stop=True, carried=False)
        step = _Step(die, kinds, effective, effective if die.gear else gear, die.space)
        self._jump(step, index, faces_ok)
        if step.end != die.space and track.ford[step.end] and not fordable:
            step.end, step.jump_risk, step.jump_auto, step.ford_stop = die.space, False, False, True
        walk = cur
        for space in (die.space, step.end) if step.end != die.space else (die.space,):
            if track.kind[space] == CORNER and effective > self.limit(space):
                step.overspeed = True  # RM-17
            elif track.kind[space] == SHORTCUT:
                step.overspeed |= effective > track.shortcut_limit[space]  # RM-19 ruling
                step.shortcut_entry |= track.kind[walk] != SHORTCUT
            walk = space
        return step

    def _take_dice(self, die: _Die, index: int, gear: int, used: set[int]) -> bool:
        """RM-3, RM-11 to RM-15: the die may follow ``gear`` and the allowance has it."""
        at = f"step {index + 1}"
        if die.gear == 0:
            self.ok(not die.brakes and not die.boost, f"{at}: brake or boost with a coast die")
            self.ok(gear > 0, f"{at}: coast die in gear 0 (RM-12)")
            self.left["coast"] -= 1
            return self.ok(self.left["coast"] >= 0, f"{at}: no coast die left (RM-3)")
        self.ok(die.gear not in used, f"{at}: gear-{die.gear} die used twice (RM-15)")
        used.add(die.gear)
        self.left["gear"] -= 1
        self.left["brake"] -= die.brakes
        self.left["boost"] -= die.boost
        for kind in ("gear", "brake", "boost"):
            self.ok(self.left[kind] >= 0, f"{at}: no {kind} die left (RM-3, RM-40)")
        self.ok(not (die.brakes and die.boost), f"{at}: brakes and boost together")
        if die.boost:
            allowed = {gear + 2}  # RM-14
        elif die.brakes:
            allowed = {gear - 1 - die.brakes}  # RM-13
        else:
            allowed = {gear - 1, gear + 1}  # RM-11
            if index == 0 and self.rules.first_die_may_repeat_gear:
                allowed.add(gear)
        return self.ok(
            die.gear in allowed and 1 <= die.gear <= 6, f"{at}: gear {die.gear} after {gear}"
        )

    def _jump(self, step: _Step, index: int, faces_ok: bool) -> None:
        """RM-20: at g >= N the die carries the car one extra space, at g > N two."""
        track, die = self.track, step.die
        n = track.jump[die.space]
        g = step.effective
        if not n or g < n or track.kind[die.space] == FINISH:
            self.ok(die.landing == -1, f"step {index + 1}: a landing without a jump")
            return
        far = g > n
        landings = self._landings(die.space, far)
        self.ok(die.landing in landings, f"step {index + 1}: landing out of reach (RM-20)")
        problem = self.entry_problem(die.space, die.landing, g)
        self.ok(not problem, f"step {index + 1}: the landing holds {problem} (RM-20)")
        if far:
            self.ok(
                not self._passes(die.space, die.landing),
                f"step {index + 1}: jumps past a car in a corner or drift (RM-23)",
            )
        step.end = die.landing
        step.jump_risk, step.jump_auto = g == n + 1, g >= n + 2

    def _landings(self, target: int, far: bool) -> set[int]:
        track = self.track
        reach = set(track.succ[target])
        if far:  # flying over one space; the finish row stops the flight
            reach = {s for m in track.succ[target] for s in track.succ[m]}
            reach |= {m for m in track.succ[target] if track.kind[m] == FINISH}
        for s in list(reach):
            if track.kind[s] == CORNER:  # RM-20: in a corner, either lane
                reach |= {b for b in track.adjacent[s] if track.area[b] == track.area[s]}
        return reach

    def _passes(self, target: int, landing: int) -> bool:
        track = self.track
        areas = {track.area[m] for m in track.succ[target]} | {track.area[landing]}
        areas.discard(-1)
        low, high = track.front[target], track.front[landing]
        return any(
            track.area[s] in areas
            and (track.kind[s] == CORNER or track.method[s] == DRIFTING)
            and low < track.front[s] < high
            for s in self.occupied
        )


class _StageCheck:
    """One stage being checked."""

    def __init__(
        self,
        track: Track,
        entries: Sequence[CarEntry],
        rules: RallyRules,
        replay: dict[str, Any],
        last_stage: bool,
        label: str,
    ) -> None:
        self.track, self.rules, self.replay = track, rules, replay
        self.last_stage, self.label = last_stage, label
        self.report = CheckReport()
        self.cars = [_Car(e.car, k + 1, e.tokens, list(e.damage)) for k, e in enumerate(entries)]
        self.by_id = {c.car: c for c in self.cars}
        self.mud: list[tuple[int, int]] = []
        self.space_of = {label: k for k, label in enumerate(track.labels)}
        self.at = ""  # the turn being checked, for the violations

    def ok(self, condition: bool, message: str) -> bool:
        """Count one check; record a violation (with the turn being checked) when false."""
        self.report.checks += 1
        if not condition:
            self.report.violations.append(f"{self.label} {self.at}{message}")
        return condition

    def dice_of(self, car: _Car) -> int:
        return max(self.rules.allowance.gear - car.damage[0], 0)

    # --- rounds -------------------------------------------------------------------------------

    def check(self) -> CheckReport:
        self.ok(self.replay["track"] == self.track.name, "track name")
        for car in self.cars:
            if self.dice_of(car) == 0:  # RM-40: damage brought in leaves no gear die
                car.retired, car.reason = True, "no_gear_dice"
        turns = self.replay["turns"]
        by_round: dict[int, list[dict[str, Any]]] = {}
        for turn in turns:
            by_round.setdefault(turn["round"], []).append(turn)
        waiting = [c for c in self.cars if c.active]
        rounds = 0
        while any(c.active for c in self.cars) and rounds < self.replay["rounds"]:
            rounds += 1
            self._round(rounds, by_round.get(rounds, []), waiting)
        self.ok(rounds == self.replay["rounds"], "rounds played")
        self.ok(not any(c.active for c in self.cars), "cars still running at the end (RM-41)")
        self.report.rounds += rounds
        self._results()
        return self.report

    def _round(self, number: int, turns: list[dict[str, Any]], waiting: list[_Car]) -> None:
        track = self.track
        running = [c for c in self.cars if c.active and c.space >= 0]
        order = sorted(
            running,
            key=lambda c: (
                -track.front[c.space],
                -c.gear,
                track.inside_rank[c.space],
                c.start_position,
            ),
        )
        if waiting and waiting[0].start_position <= number and self._enter(waiting[0]):
            order.append(waiting.pop(0))  # RM-4: the next car enters after the others
        expected = iter(turns)
        for index, car in enumerate(order):
            if not car.active:
                continue
            turn = next(expected, None)
            where = f"round {number}"
            if not self.ok(
                turn is not None and turn["car"] == car.car,
                f"{where}: turn order (RM-7, RM-8) expects car {car.car}",
            ):
                return
            assert turn is not None
            self.ok(turn["leader"] == (index == 0), f"{where}: leader flag (RM-9)")
            if not car.on_track:
                self._return(car)  # RM-36 ruling
            self._turn(car, turn, index == 0, where)
            self.report.moves += 1
        self.ok(next(expected, None) is None, f"round {number}: extra turns")

    def _enter(self, car: _Car) -> bool:
        """RM-4/RM-5: a free start space, inside first, in gear 0."""
        taken = {c.space for c in self.cars if c.on_track and c.active}
        track = self.track
        for space in sorted(track.start_spaces, key=lambda s: (track.inside_rank[s], s)):
            if space not in taken:
                car.space, car.gear, car.on_track = space, 0, True
                return True
        return False

    def _return(self, car: _Car) -> None:
        """RM-36 ruling: back on the LoC space, or the nearest free space behind it."""
        taken = {c.space for c in self.cars if c is not car and c.on_track and c.active}
        frontier, seen = [car.space], {car.space}
        while frontier:
            for space in frontier:
                if space not in taken and not self.track.obstacle[space]:
                    car.space, car.on_track = space, True
                    return
            frontier = [p for s in frontier for p in self.track.preds[s] if p not in seen]
            seen.update(frontier)
            frontier = list(dict.fromkeys(frontier))
        car.on_track = True

    # --- one turn -----------------------------------------------------------------------------

    def _turn(self, car: _Car, turn: dict[str, Any], leader: bool, where: str) -> None:
        check = _Turn(self, car, leader, where)
        self.at = ""
        at = f"{where} car {car.car}"
        self.ok(self.space_of[turn["from"]] == car.space, f"{at}: starts elsewhere")
        self.ok(turn["gear_start"] == car.gear, f"{at}: starts in another gear")
        self.at = f"{at}: "
        plan = [self._die(d) for d in turn["plan"]]
        steps = check.read_plan(plan)
        big = turn["mode"] == "big_attack"
        if big and steps and not turn["relaid"]:
            done, loc, earned, hazards = self._big_attack(check, steps, turn)
        elif big and steps:
            done, loc, earned, hazards = self._relaid(check, steps, turn)
        else:
            done, loc, earned, hazards = self._one_at_a_time(check, steps, turn)
        self.ok(turn["hazards"] == hazards, f"{at}: hazard count (RM-26)")
        self.ok(turn["tokens_earned"] == earned, f"{at}: tokens earned (RM-29)")
        self._move(check, done, turn)
        self._end_turn(check, done, loc, turn)
        self.at = ""

    def _die(self, data: dict[str, Any]) -> _Die:
        landing = data["landing"]
        return _Die(
            self.space_of[data["space"]],
            data["gear"],
            data["brakes"],
            data["boost"],
            -1 if landing is None else self.space_of[landing],
        )

    def _one_at_a_time(
        self, check: _Turn, steps: list[_Step], turn: dict[str, Any]
    ) -> tuple[list[_Step], int, int, int]:
        """RM-25 one at a time, RM-27 LoC on the die that reaches the limit, RM-30 securing."""
        dice = list(turn["dice"])
        limit = self.rules.hazard_limit
        hazards = secured = spent = 0
        done: list[_Step] = []
        loc = -1
        for index, step in enumerate(steps):
            if not step.carried:
                self.ok(turn["ford_stop"], "ford stop not logged (RM-21)")
                break
            mine = [d for d in dice if d["step"] == index + 1]
            laid_hazard = False
            for k, d in enumerate(mine):
                self.ok(k < len(step.kinds) and d["kind"] == step.kinds[k], "die kind")
                if d["secured"]:
                    secured += 1
                    spent += secured  # RM-30: the k-th secured die costs k
                    self.ok(not d["hazard"], "a secured die shows no hazard")
                hazards += d["hazard"]
                if d["kind"] in ("gear", "coast"):
                    laid_hazard = d["hazard"]
            if len(mine) < len(step.kinds):
                # Either a stop before the step (no die) or the limit reached mid-step.
                if not mine:
                    self.ok(turn["stopped"], "step without dice but not stopped (RM-25)")
                    break
                self.ok(hazards >= limit, "a step's dice cut short below the limit")
            done.append(step)
            if (
                hazards >= limit
                or step.overspeed
                or step.jump_auto
                or (step.jump_risk and laid_hazard)
            ):
                loc = index
                break
            if step.ford_stop or self.track.kind[step.end] == FINISH:
                break
        self.ok(
            len(dice) == sum(1 for d in dice if d["step"] <= len(done) + 1), "dice after the end"
        )
        self.ok(turn["tokens_spent"] == spent, "tokens spent (RM-30)")
        self.ok(check.car.tokens >= spent, "secured without the tokens")
        check.car.tokens -= spent
        return done, loc, 0, hazards

    def _big_attack(
        self, check: _Turn, steps: list[_Step], turn: dict[str, Any]
    ) -> tuple[list[_Step], int, int, int]:
        """RM-25 Big Attack: every planned die thrown; RM-28 planned order; RM-29 tokens."""
        carried = [s for s in steps if s.carried]
        expected = [(k + 1, kind) for k, s in enumerate(carried) for kind in s.kinds]
        dice = turn["dice"]
        self.ok([(d["step"], d["kind"]) for d in dice] == expected, "Big Attack dice (RM-25)")
        self.ok(not any(d["secured"] for d in dice), "a die secured in a Big Attack (RM-30)")
        self.ok(turn["tokens_spent"] == 0, "tokens spent in a Big Attack")
        hazards, loc, limit = 0, -1, self.rules.hazard_limit
        for k, step in enumerate(carried):
            mine = [d for d in dice if d["step"] == k + 1]
            hazards += sum(d["hazard"] for d in mine)
            laid = any(d["hazard"] for d in mine if d["kind"] in ("gear", "coast"))
            lost = hazards >= limit or step.overspeed or step.jump_auto or (step.jump_risk and laid)
            if loc < 0 and lost:
                loc = k
        thrown = sum(1 for d in dice if d["kind"] in ("gear", "coast"))
        earned = thrown if loc < 0 or self.rules.tokens_on_big_attack_loc else 0
        done = carried[: loc + 1] if loc >= 0 else carried
        if len(carried) < len(steps):
            self.ok(turn["ford_stop"] and loc < 0, "ford stop (RM-21)")
        return done, loc, earned, hazards

    def _relaid(
        self, check: _Turn, steps: list[_Step], turn: dict[str, Any]
    ) -> tuple[list[_Step], int, int, int]:
        """RM-28 (free): the thrown dice laid again must still produce a LoC, on the last die."""
        _, loc, earned, hazards = self._big_attack(check, steps, turn)
        self.ok(loc >= 0 and self.rules.big_attack_loc_policy == "free", "relaid without a LoC")
        relay = turn["relay"]
        fresh = _Turn(self, check.car, check.leader, check.where)
        relaid = fresh.read_plan([self._die(d) for d in relay["steps"]])
        self.ok(len(relaid) == len(relay["steps"]) and all(s.carried for s in relaid), "relay")
        thrown_gears = {
            steps[d["step"] - 1].die.gear: d["hazard"] for d in turn["dice"] if d["kind"] == "gear"
        }
        shown = 0
        for k, (step, extra) in enumerate(zip(relaid, relay["hazards"], strict=False)):
            die = step.die
            laid = extra == 1 if die.gear == 0 else thrown_gears.get(die.gear)
            self.ok(laid is not None, "relay uses a gear die that was not thrown (RM-28)")
            shown += extra + (bool(laid) if die.gear else 0)
            lost = shown >= self.rules.hazard_limit or step.overspeed or step.jump_auto
            lost = lost or (step.jump_risk and bool(laid))
            self.ok(lost == (k == len(relaid) - 1), "the relay's LoC is not on its last die")
        self.ok(shown <= hazards, "the relay shows more hazards than were thrown")
        return relaid, len(relaid) - 1, earned, hazards

    def _move(self, check: _Turn, done: list[_Step], turn: dict[str, Any]) -> None:
        """The car's path, RM-19 shortcut tokens, and where the turn ends."""
        car = check.car
        draws = list(turn["shortcut_draws"])
        for step in done:
            car.space, car.gear = step.end, step.gear_after
            if step.shortcut_entry:
                if not self.ok(bool(draws), "a shortcut entry without its token (RM-19)"):
                    continue
                token = draws.pop(0)
                self.ok(_possible(self.rules.shortcut_draw, token), f"shortcut token {token}")
                if token == "coast":
                    car.damage[2] += 1
                elif token == "mud":
                    self.mud.append((self.track.tile[step.end], car.car))
        self.ok(not draws, "shortcut tokens without an entry (RM-19)")
        self.ok(turn["steps"] == len(done), "steps carried out")
        self.ok(
            self.space_of[turn["to"]] == car.space,
            f"ends on {turn['to']}, not {self.track.labels[car.space]}",
        )

    def _end_turn(self, check: _Turn, done: list[_Step], loc: int, turn: dict[str, Any]) -> None:
        """RM-33 to RM-41: the card, the LoC outcome and damage, the finish, retirement."""
        car, rules = check.car, self.rules
        logged = turn["loc"]
        if loc >= 0:
            gear = done[loc].effective
            self.ok(logged is not None and logged["gear"] == gear, "LoC gear (RM-27)")
            outcome = logged["outcome"] if logged else ""
            self.ok(_possible(rules.loc_outcome_weights.for_gear(gear), outcome), "LoC outcome")
            sisu = outcome == "sisu"
            card, item = (rules.card_seconds(gear), f"{gear}s") if sisu else (rules.loc_card_s, "0")
            if outcome == "crash" and logged:
                self._crash(car, gear, logged["damage"])
            else:
                self.ok(not logged or not logged["damage"], "damage without a crash (RM-36)")
            car.gear = 0  # RM-35
        else:
            self.ok(logged is None, "a LoC the rules do not give")
            card, item = rules.card_seconds(car.gear), str(car.gear)  # RM-33
        self.ok(turn["gear_end"] == car.gear, "gear at the end of the turn")
        self.ok(
            (turn["card"], turn["item"]) == (card, item),
            f"card {turn['card']}/{turn['item']} != {card}/{item} (RM-33, RM-34)",
        )
        car.turns += 1
        car.cards += card
        car.items.append(item)
        car.tokens += turn["tokens_earned"]
        self.ok(turn["tokens"] == car.tokens, "tokens held (RM-29, RM-30)")
        if self.track.kind[car.space] == FINISH:
            car.finished, car.on_track = True, False  # RM-41
        elif self.dice_of(car) == 0:
            car.retired, car.reason, car.on_track = True, "no_gear_dice", False  # RM-40
        elif car.turns >= rules.max_turns_per_stage:
            car.retired, car.reason, car.on_track = True, "max_turns", False  # RM-41 guard
        self.ok(turn["finished"] == car.finished, "finished flag")
        self.ok(turn["retired"] == car.retired, "retired flag")

    def _crash(self, car: _Car, gear: int, damage: list[str]) -> None:
        """RM-38/RM-39: the tile's danger and the gear give the number of damage tokens."""
        draws = self.rules.crash_draws[gear - 1][self.track.danger[car.space]]
        self.ok(len(damage) == draws, f"{len(damage)} damage tokens, not {draws} (RM-38)")
        for token in damage:
            self.ok(_possible(self.rules.crash_token_weights, token), f"damage token {token}")
            if token in ("gear", "brake", "coast"):
                car.damage[("gear", "brake", "coast").index(token)] += 1
        car.on_track = False  # RM-36: off the track, blocks nobody

    # --- results ------------------------------------------------------------------------------

    def _results(self) -> None:
        """RM-41/RM-42: status, log, cards, tokens and net time of every car."""
        results = self.replay["results"]
        self.ok([r["car"] for r in results] == [c.car for c in self.cars], "results order")
        for car, result in zip(self.cars, results, strict=False):
            at = f"result of car {car.car}"
            carry = self.rules.tokens_carry_over and not self.last_stage
            deducted = 0 if carry or not car.finished else car.tokens
            items = " ".join([*car.items, *([f"t{deducted}"] if deducted else [])])
            expected = {
                "status": "finished" if car.finished else "retired",
                "log": items if car.finished else None,
                "cards": car.cards,
                "tokens": deducted if car.finished else car.tokens,
                "net_time": car.cards - deducted * self.rules.token_seconds
                if car.finished
                else None,
                "retire_reason": None if car.finished else car.reason,
                "carried_tokens": car.tokens if carry and car.finished else 0,
                "damage": car.damage,
            }
            for key, value in expected.items():
                self.ok(result[key] == value, f"{at}: {key} {result[key]!r} != {value!r}")


def _possible(weights: Weights, name: str) -> bool:
    """Is ``name`` a draw the weights can give?"""
    return dict(zip(weights.names, weights.values, strict=True)).get(name, 0) > 0


def check_stage(
    track: Track,
    entries: Sequence[CarEntry],
    rules: RallyRules,
    replay: dict[str, Any],
    *,
    last_stage: bool = True,
    label: str = "stage",
) -> CheckReport:
    """Check one simulated stage (``run.replay_json()``) against its set-up; see the module."""
    return _StageCheck(track, entries, rules, replay, last_stage, label).check()


# Rule variations the seeded runs cycle through, on every sample layout.
_VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"big_attack_loc_policy": "free"},
    {"boost_enabled": True, "first_die_may_repeat_gear": True},
    {"tokens_carry_over": True, "tokens_on_big_attack_loc": False, "hazard_limit": 4},
    {
        "allowance": {"gear": 6, "coast": 3, "brake": 2},
        "loc_outcome_weights": {"sisu": 1, "spin": 1, "crash": 4},
    },
)


def seeded_stages(
    count: int, start: int = 0
) -> Iterator[tuple[str, list[CarEntry], RallyRules, int]]:
    """``count`` varied stages: layout, entries (tokens and damage brought in), rules, seed."""
    for index in range(start, start + count):
        pick = random.Random(index)
        rules, errors = parse_rules(_VARIANTS[index % len(_VARIANTS)])
        assert not errors, errors
        layout = SAMPLE_STAGES[(index // len(_VARIANTS)) % len(SAMPLE_STAGES)]
        entries = [
            CarEntry(
                car,
                tokens=pick.choice((0, 0, 2, 5)),
                damage=(pick.choice((0, 0, 0, 1)), pick.choice((0, 0, 1)), pick.choice((0, 0, 1))),
            )
            for car in range(1, pick.randint(1, 6) + 1)
        ]
        yield layout, entries, rules, index


def run(count: int, start: int = 0) -> tuple[int, CheckReport]:
    """Simulate and check ``count`` seeded stages; returns (stages, the summed report)."""
    total = CheckReport()
    tracks: dict[str, Track] = {}
    stages = 0
    for layout, entries, rules, seed in seeded_stages(count, start):
        track = tracks.get(layout) or tracks.setdefault(layout, build_track(load_layout(layout)))
        last = seed % 2 == 0
        result = simulate_stage(track, entries, rules, random.Random(seed), last_stage=last)
        replay = json.loads(json.dumps(result.replay_json()))
        total.add(check_stage(track, entries, rules, replay, last_stage=last, label=f"seed {seed}"))
        stages += 1
    return stages, total


def main(argv: list[str] | None = None) -> int:
    """``python -m games.rallyman.check --stages 3000``: check seeded stages, print totals."""
    return check_command(argv, game="Rallyman", moves_word="turns", default_stages=1000, run=run)


__all__ = ["CheckReport", "check_stage", "run", "seeded_stages"]

if __name__ == "__main__":
    sys.exit(main())
