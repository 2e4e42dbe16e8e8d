"""The automatic driver: plans a turn greedily and rolls with sensible risks.

- Speed caps: for every space, the highest gear from which every limit ahead can still be met,
  dropping one gear per space (RM-11, RM-17); mud (RM-19) and a coast-less car at a ford
  (RM-21) change them, so they are cached per situation.
- Route: the successor with the lowest estimated time to the finish (spaces over their limits).
- Plan: each die the highest gear the caps allow; then the prefix of the plan with the best
  distance per second of its card (RM-33) is laid.
- Mode: Big Attack (RM-25) only on straights, when the tokens it earns outweigh the expected cost
  of a LoC; never near a red-danger tile, and more cautious when damaged.
- One at a time: roll while a hazard cannot reach the limit (RM-26); at the brink secure a die
  with tokens when cheap (RM-30), take a 1-in-6 chance when healthy, otherwise stop.
- Boost (RM-14) and a first die repeating the gear (RM-11 parameter): the turn is also planned
  with them, and they are laid when that turn is better value (seconds per row, with the LoC
  risk their dice add).
- A Big Attack that loses control (RM-28, ``big_attack_loc_policy = "free"``): the thrown dice
  are laid again where the LoC costs least (expected card and crash damage, less the road
  gained).

Deterministic: it reads no randomness at all; every choice breaks ties by space id.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rallyman.engine import Plan, Step, TurnContext, jump_landings
from games.rallyman.relay import RelayCosts, best_relay
from games.rallyman.track import CORNER, FINISH, SHORTCUT, Track
from games.rallyman.turn import ROLL, SECURE, STOP, Relay, RollState, Throw

# A die option: (gear value, brake dice, boost); a coast die is (0, 0, False).
Option = tuple[int, int, bool]

RED = 3  # index of "red" in DANGER_LEVELS
NO_GEAR = -1


@dataclass(frozen=True, slots=True)
class Profile:
    """Risk settings of the automatic driver (seconds a LoC is assumed to cost beyond its card)."""

    loc_cost_s: int = 25
    damaged_loc_cost_s: int = 60
    secure_budget: int = 3
    brink_odds: int = 1  # hazard faces out of 6 accepted at the brink when healthy
    look_ahead_rows: float = 3.0
    row_s: float = 4.0  # seconds a row of road is worth (about a card per five rows)
    damage_token_s: float = 30.0  # seconds a damage token is assumed to cost over a stage
    relay_nodes: int = 20000  # bound on the RM-28 layouts examined after a failed Big Attack


class AutoDriver:
    """A deterministic driver for simulated stages (``plan`` and ``before_die``)."""

    def __init__(self, profile: Profile | None = None) -> None:
        self.profile = profile or Profile()
        # Caps and costs of the track being driven, per situation (mud, coast dice left): the
        # driver's view of that one track, dropped when it is handed another.
        self._tables: dict[tuple[tuple[int, ...], bool], tuple[list[int], list[float]]] = {}
        self._track: Track | None = None

    # --- caps and route -------------------------------------------------------------------

    def _table(self, ctx: TurnContext) -> tuple[list[int], list[float]]:
        track = ctx.track
        if self._track is not track:
            self._track, self._tables = track, {}
        coast_ok = ctx.dice.coast > 0
        key = (tuple(ctx.mud), coast_ok)
        table = self._tables.get(key)
        if table is None:
            table = _caps_and_costs(ctx, coast_ok)
            self._tables[key] = table
        return table

    # --- planning -------------------------------------------------------------------------

    def plan(self, ctx: TurnContext) -> Plan:
        """Lay the dice for this turn and pick the roll mode."""
        caps, costs = self._table(ctx)
        rules = ctx.rules
        risky = self._cautious(ctx)
        chosen = self._greedy(ctx, caps, costs, risky, boost=False, repeat=False)
        if not chosen:
            return self._forced(ctx, costs)
        # RM-14 boost and the RM-11 repeated first gear: laid only when the turn they give is
        # better value (seconds per row, counting the LoC risk their dice add).
        may_repeat = rules.first_die_may_repeat_gear and ctx.car.gear >= 1
        if ctx.dice.boost or may_repeat:
            value = self._value(ctx, chosen)
            for boost, repeat in ((True, False), (False, True), (True, True)):
                if (boost and not ctx.dice.boost) or (repeat and not may_repeat):
                    continue
                other = self._greedy(ctx, caps, costs, risky, boost=boost, repeat=repeat)
                if other and other != chosen:
                    other_value = self._value(ctx, other)
                    if other_value < value - 1e-9:
                        chosen, value = other, other_value
        return Plan(chosen, big_attack=self._big_attack(ctx, chosen, risky))

    def _greedy(
        self,
        ctx: TurnContext,
        caps: list[int],
        costs: list[float],
        risky: bool,
        *,
        boost: bool,
        repeat: bool,
    ) -> tuple[Step, ...]:
        """Each die the fastest the caps allow on the best next space; then the prefix with the
        most distance per second of its card (RM-33). ``boost``/``repeat`` allow those dice."""
        track = ctx.track
        cur, gear = ctx.car.space, ctx.car.gear
        used = 0
        gears = coasts = brakes = boosts = 0
        steps: list[Step] = []
        ends: list[tuple[int, int]] = []  # (space, gear in effect) after each step
        while len(steps) < 12:
            options = _options(
                ctx,
                gear,
                used,
                gears,
                coasts,
                brakes,
                boost and boosts < ctx.dice.boost,
                repeat and not steps,
            )
            best = self._next_step(ctx, caps, costs, cur, gear, options, risky) if options else None
            if best is None:
                break
            step, cur = best
            steps.append(step)
            if step.coast:
                coasts += 1
            else:
                gears += 1
                brakes += step.brakes
                boosts += step.boost
                used |= 1 << step.gear
                gear = step.gear
            ends.append((cur, gear))
            if track.kind[cur] == FINISH:
                break
        return tuple(steps[: _best_prefix(ctx, ends)])

    def _next_step(
        self,
        ctx: TurnContext,
        caps: list[int],
        costs: list[float],
        cur: int,
        gear: int,
        options: list[Option],
        risky: bool,
    ) -> tuple[Step, int] | None:
        """The die for the best next space: the lowest cost to the finish, then the fastest."""
        best: tuple[float, int, Step, int] | None = None
        for t in ctx.track.succ[cur]:
            choice = self._die_for(ctx, caps, cur, t, gear, options, risky)
            if choice is None:
                continue
            step, end, effective = choice
            if best is None or (costs[end], -effective) < (best[0], -best[3]):
                best = (costs[end], end, step, effective)
        return None if best is None else (best[2], best[1])

    def _value(self, ctx: TurnContext, steps: tuple[Step, ...]) -> float:
        """Expected seconds per row of a turn (lower is better): its card, plus the chance that
        its dice reach the hazard limit (RM-26) times a LoC's extra cost; finishing comes first."""
        track, rules = ctx.track, ctx.rules
        faces = rules.hazard_faces
        dice: list[int] = []
        gear = ctx.car.gear
        for s in steps:
            if s.coast:
                dice.append(ctx.coast_faces())
                continue
            dice.extend([faces.brake] * s.brakes)
            if s.boost:
                dice.append(faces.boost)
            dice.append(faces.gear[s.gear - 1])
            gear = s.gear
        last = steps[-1]
        end = last.landing if last.landing >= 0 else last.space
        card = rules.card_seconds(gear)
        if track.kind[end] == FINISH:
            return card - 1e6
        p_loc = _p_at_least(dice, rules.hazard_limit)
        expected = card + p_loc * (rules.loc_card_s + self.profile.loc_cost_s - card)
        rows = track.progress[end] - track.progress[ctx.car.space]
        return expected / max(rows, 1e-9)

    def _forced(self, ctx: TurnContext, costs: list[float]) -> Plan:
        """No die keeps to the caps (mud appeared, RM-19): the car cannot wait, so it takes
        the slowest legal die and accepts the overspeed LoC rather than stand still for ever."""
        track = ctx.track
        free = [6] * track.size
        best: tuple[int, float, Step] | None = None
        gear = ctx.car.gear
        options = sorted(_options(ctx, gear, 0, 0, 0, 0, False, False), key=lambda o: o[0] or gear)
        for t in track.succ[ctx.car.space]:
            choice = self._die_for(ctx, free, ctx.car.space, t, gear, options, False)
            if choice is not None:
                step, end, effective = choice
                key = (effective, costs[end])
                if best is None or key < best[:2]:
                    best = (effective, costs[end], step)
        return Plan((best[2],)) if best is not None else Plan()

    def _cautious(self, ctx: TurnContext) -> bool:
        """Safer when damaged or near a red-danger tile (RM-38's worst crashes)."""
        car, track = ctx.car, ctx.track
        if car.gear_damage or car.brake_damage or car.coast_damage:
            return True
        here = track.progress[car.space]
        horizon = here + self.profile.look_ahead_rows
        space = car.space
        while True:
            if track.danger[space] == RED:
                return True
            nxt = track.succ[space]
            if not nxt or track.progress[nxt[0]] > horizon:
                return False
            space = nxt[0]

    def _die_for(
        self,
        ctx: TurnContext,
        caps: list[int],
        cur: int,
        t: int,
        gear: int,
        options: list[Option],
        cautious: bool,
    ) -> tuple[Step, int, int] | None:
        """The first of ``options`` (best first) that may be laid on ``t`` within its cap."""
        track = ctx.track
        for value, b, boost in options:
            effective = value or gear
            if effective > caps[t]:
                continue
            if track.ford[t] and not (value == 0 or (value == 1 and b == 0)):
                continue
            if ctx.can_enter(cur, t, effective):
                continue
            jump = track.jump[t]
            landing = -1
            end = t
            if jump and effective >= jump and track.kind[t] != FINISH:
                if effective > jump + (0 if cautious else 1):
                    continue
                found = self._landing(ctx, caps, t, effective, effective > jump, value, b)
                if found is None:
                    continue
                landing = end = found
            return Step(t, value, brakes=b, boost=boost, landing=landing), end, effective
        return None

    def _landing(
        self,
        ctx: TurnContext,
        caps: list[int],
        t: int,
        effective: int,
        far: bool,
        value: int,
        brakes: int,
    ) -> int | None:
        track = ctx.track
        _, costs = self._table(ctx)
        best: int | None = None
        for s in jump_landings(track, t, far):
            if effective > caps[s] or ctx.can_enter(t, s, effective):
                continue
            if track.ford[s] and not (value == 0 or (value == 1 and not brakes)):
                continue
            if far and ctx.jump_passes(t, s):  # RM-23
                continue
            if best is None or costs[s] < costs[best]:
                best = s
        return best

    def _big_attack(self, ctx: TurnContext, steps: tuple[Step, ...], cautious: bool) -> bool:
        """RM-25/29: worth it when the tokens beat the expected LoC cost, on straights only."""
        track, rules = ctx.track, ctx.rules
        if ctx.car.gear_damage or ctx.car.brake_damage:
            return False
        kinds = (CORNER, SHORTCUT)
        if any(
            track.kind[s.space] in kinds or track.jump[s.space] or track.ford[s.space]
            for s in steps
        ):
            return False
        if any(track.danger[s.space] == RED for s in steps):
            return False
        faces = rules.hazard_faces
        dice: list[int] = []
        for s in steps:
            if s.coast:
                dice.append(ctx.coast_faces())
            else:
                dice.extend([faces.brake] * s.brakes)
                if s.boost:
                    dice.append(faces.boost)
                dice.append(faces.gear[s.gear - 1])
        p_loc = _p_at_least(dice, rules.hazard_limit)
        earned = sum(1 for s in steps) * rules.token_seconds
        cost = self.profile.damaged_loc_cost_s if cautious else self.profile.loc_cost_s
        return earned > p_loc * (rules.loc_card_s + cost)

    # --- rolling --------------------------------------------------------------------------

    def relay(self, ctx: TurnContext, throw: Throw) -> Relay | None:
        """RM-28 (``"free"``): lay a failed Big Attack's dice where the LoC costs least."""
        p = self.profile
        return best_relay(ctx, throw, RelayCosts(p.row_s, p.damage_token_s, p.relay_nodes))

    def before_die(self, ctx: TurnContext, roll: RollState) -> str:
        """Roll, secure with tokens (RM-30) or stop (RM-25) before the next die."""
        limit = ctx.rules.hazard_limit
        if roll.hazards + 1 < limit:
            return ROLL
        cost = roll.secured + 1
        cautious = self._cautious(ctx)
        budget = self.profile.secure_budget + (2 if cautious else 0)
        if roll.tokens >= cost and cost <= budget:
            return SECURE
        if not roll.first_of_step:
            return ROLL  # a gear die must follow its brake die
        if ctx.car.gear == 0:
            return ROLL  # stopping now would cost the LoC card anyway (RM-33 ruling)
        if not cautious and roll.faces <= self.profile.brink_odds:
            return ROLL
        return STOP


def _options(
    ctx: TurnContext,
    gear: int,
    used: int,
    gears: int,
    coasts: int,
    brakes: int,
    boost: bool,
    repeat: bool,
) -> list[Option]:
    """Dice that may follow ``gear`` (RM-11 to RM-15), fastest first: boost (when ``boost``),
    up, the same gear again (when ``repeat``: RM-11 parameter, first die only), coast, down,
    brake.
    """
    dice = ctx.dice
    options: list[Option] = []
    gear_left = gears < dice.gear
    if boost and gear_left and gear <= 4 and not used & (1 << (gear + 2)):
        options.append((gear + 2, 0, True))  # RM-14: one gear skipped upwards
    if gear_left and gear < 6 and not used & (1 << (gear + 1)):
        options.append((gear + 1, 0, False))
    if repeat and gear_left and gear >= 1 and not used & (1 << gear):
        options.append((gear, 0, False))  # keeps a coast die for later in the turn
    if coasts < dice.coast and gear >= 1:
        options.append((0, 0, False))
    if gear_left:
        if gear > 1 and not used & (1 << (gear - 1)):
            options.append((gear - 1, 0, False))
        for b in range(1, dice.brake - brakes + 1):
            g = gear - 1 - b
            if g >= 1 and not used & (1 << g):
                options.append((g, b, False))
    return options


def _best_prefix(ctx: TurnContext, ends: list[tuple[int, int]]) -> int:
    """How many steps to keep: the most distance per second of the card they end on (RM-33);
    crossing the line always wins."""
    track, rules = ctx.track, ctx.rules
    start = track.progress[ctx.car.space]
    best_k, best_rate = 0, -1.0
    for k, (space, g) in enumerate(ends, start=1):
        if track.kind[space] == FINISH:
            rate = 1e9 - rules.card_seconds(g)
        else:
            rate = (track.progress[space] - start) / rules.card_seconds(g)
        if rate > best_rate:
            best_k, best_rate = k, rate
    return best_k


def _p_at_least(faces: list[int], limit: int) -> float:
    """Probability that at least ``limit`` of the dice show a hazard."""
    dist = [1.0] + [0.0] * limit  # dist[k] = P(k hazards), k == limit absorbs "or more"
    for f in faces:
        p = f / 6
        nxt = [0.0] * (limit + 1)
        for k, q in enumerate(dist):
            if not q:
                continue
            if k == limit:
                nxt[k] += q
                continue
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist[limit]


def _caps_and_costs(ctx: TurnContext, coast_ok: bool) -> tuple[list[int], list[float]]:
    """Backward pass over the space graph (successor ids are always larger)."""
    track = ctx.track
    n = track.size
    caps = [NO_GEAR] * n
    costs = [float("inf")] * n
    for s in range(n - 1, -1, -1):
        kind = track.kind[s]
        if kind == FINISH:
            caps[s], costs[s] = 6, 0.0
            continue
        if track.obstacle[s]:
            continue
        limit = 6
        if kind == CORNER:
            limit = ctx.limit(s)
        elif kind == SHORTCUT:
            limit = track.shortcut_limit[s]
        if track.ford[s] and not coast_ok:
            limit = min(limit, 1)
        ahead = max((caps[t] for t in track.succ[s]), default=NO_GEAR)
        if limit < 1 or ahead == NO_GEAR:
            continue
        caps[s] = min(limit, ahead + 1)
        weight = 6 / limit + (0.5 if kind == SHORTCUT else 0.0)
        costs[s] = weight + min(costs[t] for t in track.succ[s])
    return caps, costs
