"""The automatic driver's choice after a Big Attack that lost control (RM-28, ``"free"``).

The driver may reorder, move or drop the thrown dice as long as the new layout still ends in a
LoC. Every legal layout is explored depth first from the turn's start (each thrown die at most
once, with its own face; a coast or brake die may be any thrown one of its kind), and the one
with the lowest expected cost wins:

    expected LoC card (RM-36/37) + expected crash damage (RM-38/39) + shortcut risk (RM-19)
    - road gained x ``Profile.row_s``

Deterministic: options are tried in a fixed order and only a strictly better layout replaces the
best one found, so the planned order (also a candidate) is kept on ties of the first found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from games.rallyman.engine import Step, TurnContext, jump_landings
from games.rallyman.track import CORNER, FINISH, SHORTCUT
from games.rallyman.turn import Relay, Throw


@dataclass(frozen=True, slots=True)
class RelayCosts:
    """The cost model of a LoC layout, in seconds (see the module docstring)."""

    row_s: float
    damage_token_s: float
    max_nodes: int


class _Die(NamedTuple):
    """A thrown die to lay again; a coast die has value 0."""

    value: int
    brakes: int
    hazard_brakes: int  # how many of its brake dice showed a hazard
    boost: bool
    coast_hazard: int  # 1: a coast die that showed a hazard


class _Search:
    def __init__(self, ctx: TurnContext, throw: Throw, costs: RelayCosts) -> None:
        self.ctx = ctx
        self.track = ctx.track
        self.rules = ctx.rules
        self.costs = costs
        self.gear_face = dict(throw.gear)
        self.boost_face = throw.boost[0] if throw.boost else False
        self.has_boost = bool(throw.boost)
        self.start = self.track.progress[ctx.car.space]
        self.seen: set[tuple[int, ...]] = set()
        self.nodes = 0
        self.best: tuple[float, tuple[Step, ...], tuple[int, ...]] | None = None
        self.path: list[Step] = []
        self.chosen: list[int] = []
        self._loc_card: dict[int, float] = {}
        rules = self.rules
        tokens = rules.crash_token_weights
        harmful = tokens.total() - tokens.values[tokens.names.index("green_flag")]
        self.p_damage = harmful / tokens.total()
        draw = rules.shortcut_draw
        self.p_shortcut = draw.values[draw.names.index("coast")] / draw.total()
        # Dice of each kind are counted by face: (safe, hazard).
        self.coast = (throw.coast.count(False), throw.coast.count(True))
        self.brake = (throw.brake.count(False), throw.brake.count(True))

    def run(self) -> Relay | None:
        car = self.ctx.car
        self._walk(car.space, car.gear, 0, *self.coast, *self.brake, 0, 0, 0)
        if self.best is None:
            return None
        return Relay(self.best[1], self.best[2])

    def _dice(
        self, gear: int, used: int, cs: int, ch: int, bs: int, bh: int, boosted: int
    ) -> list[_Die]:
        """Thrown dice that may follow ``gear`` (RM-11 to RM-15)."""
        out: list[_Die] = []
        first = not self.path
        for value in sorted(self.gear_face):
            if used & (1 << value):
                continue
            if value in (gear - 1, gear + 1) or (
                first and value == gear and self.rules.first_die_may_repeat_gear
            ):
                out.append(_Die(value, 0, 0, False, 0))
            if self.has_boost and not boosted and value == gear + 2:
                out.append(_Die(value, 0, 0, True, 0))
            b = gear - 1 - value  # RM-13: b brake dice drop b + 1 gears
            if value >= 1 and 1 <= b <= bs + bh:
                for hb in range(max(0, b - bs), min(b, bh) + 1):
                    out.append(_Die(value, b, hb, False, 0))
        if gear >= 1:  # RM-12 ruling: no coast die in gear 0
            if cs:
                out.append(_Die(0, 0, 0, False, 0))
            if ch:
                out.append(_Die(0, 0, 0, False, 1))
        return out

    def _walk(
        self,
        cur: int,
        gear: int,
        used: int,
        cs: int,
        ch: int,
        bs: int,
        bh: int,
        boosted: int,
        hazards: int,
        shortcuts: int,
    ) -> None:
        key = (cur, gear, used, cs, ch, bs, bh, boosted, hazards, shortcuts, len(self.path) == 0)
        if key in self.seen or self.nodes >= self.costs.max_nodes:
            return
        self.seen.add(key)
        self.nodes += 1
        track = self.track
        for die in self._dice(gear, used, cs, ch, bs, bh, boosted):
            value, b, hb, boost, coast_hit = die
            effective = value or gear
            die_hit = bool(coast_hit) if value == 0 else self.gear_face[value]
            shown = coast_hit + hb + (die_hit if value else 0) + (self.boost_face if boost else 0)
            fordable = value == 0 or (value == 1 and b == 0)
            for t in track.succ[cur]:
                if (track.ford[t] and not fordable) or self.ctx.can_enter(cur, t, effective):
                    continue
                for landing in self._landings(t, effective, fordable):
                    end = t if landing < 0 else landing
                    lost, entries = self._lost(cur, t, landing, effective, die_hit, shortcuts)
                    lost = lost or hazards + shown >= self.rules.hazard_limit
                    self.path.append(Step(t, value, brakes=b, boost=boost, landing=landing))
                    self.chosen.append(coast_hit if value == 0 else hb)
                    if lost:
                        self._score(end, effective, entries)
                    elif track.kind[end] != FINISH:
                        self._walk(
                            end,
                            effective,
                            used | (1 << value) if value else used,
                            cs - (value == 0 and not coast_hit),
                            ch - coast_hit,
                            bs - (b - hb),
                            bh - hb,
                            boosted or boost,
                            hazards + shown,
                            entries,
                        )
                    self.path.pop()
                    self.chosen.pop()

    def _landings(self, t: int, effective: int, fordable: bool) -> tuple[int, ...]:
        """RM-20: where a die on ``t`` may land (``(-1,)``: it does not jump)."""
        track, ctx = self.track, self.ctx
        jump = track.jump[t]
        if not (jump and effective >= jump and track.kind[t] != FINISH):
            return (-1,)
        far = effective > jump
        return tuple(
            s
            for s in jump_landings(track, t, far)
            if not ctx.can_enter(t, s, effective)
            and not (track.ford[s] and not fordable)
            and not (far and ctx.jump_passes(t, s))
        )

    def _lost(
        self, cur: int, t: int, landing: int, effective: int, die_hit: bool, shortcuts: int
    ) -> tuple[bool, int]:
        """Does the die lose control without the hazard count (RM-17, RM-19, RM-20), and the
        shortcut entries after it."""
        track, ctx = self.track, self.ctx
        lost = False
        walk = cur
        for space in (t,) if landing < 0 else (t, landing):
            kind = track.kind[space]
            if kind == CORNER and effective > ctx.limit(space):
                lost = True
            elif kind == SHORTCUT:
                lost = lost or effective > track.shortcut_limit[space]
                shortcuts += track.kind[walk] != SHORTCUT
            walk = space
        jump = track.jump[t]
        if landing >= 0 and (effective >= jump + 2 or (effective == jump + 1 and die_hit)):
            lost = True  # RM-20
        return lost, shortcuts

    def _score(self, space: int, gear: int, shortcuts: int) -> None:
        rules, costs = self.rules, self.costs
        card = self._loc_card.get(gear)
        if card is None:
            mix = rules.loc_outcome_weights.for_gear(gear)
            weight = dict(zip(mix.names, mix.values, strict=True))
            total = mix.total()
            p_sisu, p_crash = weight["sisu"] / total, weight["crash"] / total
            card = p_sisu * rules.card_seconds(gear) + (1 - p_sisu) * rules.loc_card_s
            # RM-38: the crash draws of that gear come on top, per danger level below.
            self._loc_card[gear] = card
            self._loc_card[-gear] = p_crash
        p_crash = self._loc_card[-gear]
        draws = rules.crash_draws[gear - 1][self.track.danger[space]]
        cost = (
            card
            + p_crash * draws * self.p_damage * costs.damage_token_s
            + shortcuts * self.p_shortcut * costs.damage_token_s
            - (self.track.progress[space] - self.start) * costs.row_s
        )
        if self.best is None or cost < self.best[0] - 1e-9:
            self.best = (cost, tuple(self.path), tuple(self.chosen))


def best_relay(ctx: TurnContext, throw: Throw, costs: RelayCosts) -> Relay | None:
    """The cheapest layout of ``throw`` that still ends in a LoC (RM-28), or None if none."""
    return _Search(ctx, throw, costs).run()
