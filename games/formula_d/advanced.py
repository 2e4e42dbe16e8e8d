"""The advanced rule set (formula_d.md §13, FD-58 to FD-68), switched on by ``rule_set``.

Six WP zones replace the single pool (FD-59); each cost goes to its zone (FD-60); blocking and
skipped gears follow the tables of FD-62 and FD-63; tyres spin (FD-61); body and engine losses
and eliminations leave debris (FD-64); a follower may slipstream (FD-65); tyre types (FD-66) and
the weather (FD-67) change spaces, overshoot multipliers and test thresholds; the pit stop
restores tyres only and rolls for its speed (FD-68). :class:`~games.formula_d.race.Race` calls
these functions where the basic game charges its single pool.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from games.formula_d.circuit import Pos
from games.formula_d.dice import BLACK
from games.formula_d.errors import FormulaDError
from games.formula_d.model import Entrant, Event
from games.formula_d.moves import MoveOption, options_for
from games.formula_d.track import PIT
from scoring.formula_d.rules import ZONES, FormulaDRules

if TYPE_CHECKING:
    from games.formula_d.race import Car, Race

FATAL_ZONES = ("body", "engine", "handling")  # FD-59: at 0 the car is out
# FD-67 weather states, from dry to wet; the two ends are fixed for the race.
WEATHER = ("good", "changeable", "rain-changeable", "rain")
WET = frozenset({"rain-changeable", "rain"})
TYRES = ("hard", "soft", "rain")


@dataclass
class AdvancedState:
    """Race-wide advanced state: debris markers (FD-64) and the weather (FD-67)."""

    debris: set[Pos] = field(default_factory=set)
    debris_key: frozenset[Pos] = frozenset()
    weather: str = "good"
    weather_log: list[str] = field(default_factory=list)
    weather_rolls: list[int] = field(default_factory=list)  # the chart rolls before the race

    @property
    def wet(self) -> bool:
        return self.weather in WET

    def drop_debris(self, pos: Pos) -> bool:
        """A debris marker on ``pos`` (track spaces only); whether the space was clean."""
        if pos[0] == PIT or pos in self.debris:
            return False
        self.debris.add(pos)
        self.debris_key = frozenset(self.debris)
        return True


def start_zones(rules: FormulaDRules, entrant: Entrant) -> dict[str, int]:
    """FD-59: the default spread, or the driver's own build when the championship allows it."""
    if not rules.own_car_build or entrant.build is None:
        return rules.zone_defaults()
    build = dict(entrant.build)
    limits = {z: rules.build_max_tyres if z == "tyres" else rules.build_max_zone for z in ZONES}
    if (
        set(build) != set(ZONES)
        or any(not isinstance(build[z], int) or not 1 <= build[z] <= limits[z] for z in ZONES)
        or sum(build.values()) != rules.build_total_wp
    ):
        raise FormulaDError(
            f"Driver {entrant.driver}'s build must give each zone 1 to its maximum WP and "
            f"{rules.build_total_wp} WP in total (FD-59).",
            "bad_build",
            driver=entrant.driver,
        )
    return build


def zones_tuple(zones: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple((z, zones[z]) for z in ZONES)


# -- WP -----------------------------------------------------------------------------------


def lose(race: Race, car: Car, zone: str, amount: int, cause: str, roll: int | None = None) -> None:
    """Take ``amount`` WP from ``zone``: a loss the zone cannot pay eliminates (FD-61, FD-62);
    body, engine and road handling at 0 eliminate (FD-59); body and engine losses leave debris.
    ``roll`` is the test's roll that caused the loss (logged on its event).
    """
    if amount <= 0 or not car.running:
        return
    assert car.zones is not None
    left = car.zones[zone]
    race.events.append(Event(cause, car.driver, roll, wp=-amount, detail=zone))
    car.zones[zone] = max(0, left - amount)
    car.wp = sum(car.zones.values())
    if zone in ("body", "engine") and race.adv is not None:
        race.adv.drop_debris(car.pos)  # FD-64
    if amount > left or (car.zones[zone] == 0 and zone in FATAL_ZONES):
        race.eliminate(car, cause)


def overshoot(race: Race, car: Car, spaces: int) -> None:
    """FD-22/FD-61: tyre WP per space beyond the exit line, times the tyre multiplier.

    Losing the last tyre WP spins the car; at 0 tyre WP a 1-space overshoot spins it again and a
    longer one eliminates it, as does any loss larger than the tyre WP left (project reading).
    """
    assert car.zones is not None
    loss = spaces * race.rules.overshoot_wp_per_space * tyre_multiplier(race, car)
    tyres = car.zones["tyres"]
    race.events.append(Event("overshoot", car.driver, wp=-min(loss, tyres), detail="tyres"))
    if tyres == 0 and spaces == 1:
        spin(race, car)
    elif loss > tyres:
        race.eliminate(car, "overshoot")
    else:
        car.zones["tyres"] = tyres - loss
        car.wp = sum(car.zones.values())
        if car.zones["tyres"] == 0:
            spin(race, car)


def spin(race: Race, car: Car) -> None:
    """FD-61: the car stays where it stopped; its next move is in 1st, without downshift cost."""
    car.spun = True
    race.events.append(Event("spin", car.driver))


def brake_costs(race: Race, car: Car, option: MoveOption) -> None:
    """FD-60/FD-62: voluntary braking costs brake WP; blocked spaces follow the table."""
    braked = option.braked
    if option.slipstream:
        return  # charged by slipstream_costs
    forced = min(option.forced, braked)
    voluntary = braked - forced
    if forced:
        cost = race.rules.blocking_table.cost(forced)
        race.events.append(Event("blocked", car.driver, detail=f"{forced} spaces"))
        if cost is None:
            race.eliminate(car, "blocked")  # FD-62: more spaces than the table holds
            return
        lose(race, car, "brakes", cost[0], "blocked")
        lose(race, car, "tyres", cost[1], "blocked")  # tyre multipliers never apply here
    if voluntary and car.running:
        lose(race, car, "brakes", voluntary * race.rules.brake_wp_per_space, "brake")


def voluntary_braking(option: MoveOption) -> int:
    """Spaces braked beyond those the car was forced to give up (FD-26 vs FD-27)."""
    return option.braked - min(option.forced, option.braked)


def downshift_cost(race: Race, car: Car, gear: int) -> dict[str, int] | None:
    """FD-63 by gears skipped; ``None`` when the table does not allow the drop.

    No cost in the pit lane (FD-48), leaving the box (FD-46) or after a spin (FD-61).
    """
    if car.in_pit or car.in_box or car.spun or car.stalled:
        return {}
    return race.rules.downshift_table.cost(car.gear - gear - 1)


def gear_allowed(race: Race, car: Car, gear: int) -> bool:
    """FD-60: a downshift whose brake or gearbox cost the car cannot pay is not allowed."""
    cost = downshift_cost(race, car, gear)
    if cost is None:
        return False
    assert car.zones is not None
    return all(cost.get(z, 0) <= car.zones[z] for z in ("brakes", "gearbox"))


def pay_downshift(race: Race, car: Car, gear: int) -> None:
    cost = downshift_cost(race, car, gear) or {}
    for zone in ZONES:
        if cost.get(zone) and car.running:
            lose(race, car, zone, cost[zone], "downshift")


# -- tests --------------------------------------------------------------------------------


def collision_tests(race: Race, car: Car, near: list[Car]) -> None:
    """FD-60: the mover rolls once per car it stopped next to, then each of them once."""
    limit = race.rules.collision_fail_max_rain if wet(race) else race.rules.collision_fail_max
    rolls = [car] * len(near) + near
    for involved in rolls:
        if not involved.running:
            continue
        value = race.dice.roll(BLACK)
        if value <= limit:
            lose(race, involved, "body", race.rules.collision_wp_loss, "collision", value)
        else:
            race.events.append(Event("collision", involved.driver, value))


def engine_fails(race: Race, value: int) -> bool:
    limit = race.rules.engine_fail_max_rain if wet(race) else race.rules.engine_fail_max
    return value <= limit


def debris_tests(race: Race, car: Car, option: MoveOption) -> None:
    """FD-64: one road-handling test per debris space passed over or stopped on."""
    limit = race.rules.debris_fail_max_rain if wet(race) else race.rules.debris_fail_max
    for _ in option.debris:
        if not car.running:
            return
        value = race.dice.roll(BLACK)
        if value <= limit:
            lose(race, car, "handling", 1, "debris", value)
        else:
            race.events.append(Event("debris", car.driver, value))


def wet(race: Race) -> bool:
    return race.adv is not None and race.adv.wet


# -- tyres (FD-66) ------------------------------------------------------------------------


def tyre_multiplier(race: Race, car: Car) -> int:
    """FD-66: overshoot multiplier of the car's tyres on the lap it is driving.

    ``age`` counts the laps completed on the set (0 on its first lap).
    """
    if not race.rules.tyres:
        return 1
    lap = car.laps_done + 1
    age = car.laps_done - car.tyre_lap
    if wet(race):
        return 3 if car.tyre == "soft" and lap >= 3 and age >= 2 else 1
    if car.tyre == "soft":
        if lap == 1:
            return 2
        return 3 if age >= 2 else 1
    if car.tyre == "rain":
        return 3 if lap >= 3 and age >= 2 else 2
    return 1


def corner_bonus(race: Race, car: Car) -> int:
    """FD-66: spaces added to a corner move (a move with a space inside a corner) in the wet."""
    if not race.rules.tyres or not wet(race):
        return 0
    lap = car.laps_done + 1
    if car.tyre == "hard":
        return 3
    if car.tyre == "soft":
        return 3 if lap <= 2 else 0
    return 1


def soft_bonus_allowed(race: Race, car: Car) -> bool:
    """FD-66: soft tyres in the dry may add 1 space per move during lap 1 (not out of the pits)."""
    return (
        race.rules.tyres
        and not wet(race)
        and car.tyre == "soft"
        and car.laps_done == 0
        and not car.in_pit
        and not car.in_box
    )


# -- weather (FD-67) ----------------------------------------------------------------------


def roll_weather(race: Race) -> None:
    """FD-67: a chart roll (before the grid roll, and again before the race); the last one
    sets the weather: good band Good, rain band Rain, changeable band Changeable."""
    assert race.adv is not None
    chart = race.track.circuit.weather
    if not race.rules.weather or chart is None:
        return
    value = race.dice.roll(BLACK)
    race.adv.weather_rolls.append(value)
    band = _band(chart.rain_max, chart.changeable_max, value)
    race.adv.weather = band
    race.adv.weather_log.append(band)


def weather_change(race: Race) -> None:
    """FD-67: in a changeable state a 20 in 5th or 30 in 6th rolls the chart again."""
    adv = race.adv
    chart = race.track.circuit.weather
    if adv is None or not race.rules.weather or chart is None:
        return
    if adv.weather not in ("changeable", "rain-changeable"):
        return
    value = race.dice.roll(BLACK)
    band = _band(chart.rain_max, chart.changeable_max, value)
    step = {"good": -1, "rain": 1, "changeable": 0}[band]
    # One step along Good, Changeable, Rain-changeable, Rain; the two ends are fixed.
    adv.weather = WEATHER[min(max(WEATHER.index(adv.weather) + step, 0), 3)]
    race.events.append(Event("weather", 0, value, detail=adv.weather))
    if adv.weather != adv.weather_log[-1]:
        adv.weather_log.append(adv.weather)


def _band(rain_max: int, changeable_max: int, value: int) -> str:
    if value <= rain_max:
        return "rain"
    return "changeable" if value <= changeable_max else "good"


# -- the move -----------------------------------------------------------------------------


def corner_move(option: MoveOption, race: Race) -> bool:
    """FD-66: a move with at least one space inside a corner."""
    segments = race.track.segments
    return any(p[0] != PIT and segments[p[0]].is_corner for p in option.path[1:])


def tyre_options(race: Race, car: Car, roll: int) -> list[MoveOption]:
    """The options for ``roll`` with the tyre effects of FD-66.

    In the wet a corner move gets its compulsory bonus: corner moves come from the search for
    the longer roll, the others from the roll itself. Soft tyres in the dry on lap 1 may add 1
    space: the options for the roll + 1 are offered too (project rule).
    """
    options: list[MoveOption] = list(race.options(car, roll))
    bonus = corner_bonus(race, car)  # FD-66: out of the pit lane too (only FD-68's +1 is not)
    if bonus:
        longer = race.options(car, roll + bonus)
        options = [o for o in options if not corner_move(o, race)]
        options += [o for o in longer if corner_move(o, race)]
    if soft_bonus_allowed(race, car):
        options += list(race.options(car, roll + 1))
    return options


def option_costs(race: Race, car: Car, option: MoveOption) -> dict[str, int] | None:
    """WP each zone would lose by ``option`` (FD-60 to FD-62, FD-65); ``None`` if it eliminates.

    Overshoot tyre losses that only spin the car count as the tyres left.
    """
    assert car.zones is not None
    if option.overshoot_out:
        return None
    rules = race.rules
    costs = dict.fromkeys(ZONES, 0)
    if option.overshoot_spaces:
        loss = option.overshoot_spaces * rules.overshoot_wp_per_space * tyre_multiplier(race, car)
        tyres = car.zones["tyres"]
        if (tyres == 0 and option.overshoot_spaces > 1) or loss > tyres:
            return None
        costs["tyres"] = min(loss, tyres)
    if option.slipstream:
        costs["brakes"] += slipstream_brakes(race, option)
    else:
        forced = min(option.forced, option.braked)
        if forced:
            table = rules.blocking_table.cost(forced)
            if table is None:
                return None
            costs["brakes"] += table[0]
            costs["tyres"] += table[1]
        costs["brakes"] += (option.braked - forced) * rules.brake_wp_per_space
    if any(costs[z] > car.zones[z] for z in ZONES):
        return None
    return costs


def slipstream_brakes(race: Race, option: MoveOption) -> int:
    """FD-65: brake WP of a slipstream: spaces given up, and entering a corner (FD-60)."""
    if option.steps == 0:
        return 0
    segments = race.track.segments
    cost = (option.slipstream - option.steps) * race.rules.brake_wp_per_space
    for a, b in zip(option.path, option.path[1:], strict=False):
        if b[0] != a[0] and b[0] != PIT and segments[b[0]].is_corner:
            cost += race.rules.slipstream_corner_brake_wp
    return cost


def after_move(race: Race, car: Car, choice: MoveOption, roll: int) -> MoveOption:
    """Debris tests (FD-64), then the pit stop (FD-68) or slipstreams (FD-65)."""
    if car.running:
        debris_tests(race, car, choice)
    if not car.running or car.finish_position is not None:
        return choice
    if choice.into_box:
        pit_stop(race, car)
        return choice
    last = choice
    while car.running and car.finish_position is None and slipstream_possible(race, car, last):
        extension = slipstream(race, car)
        if extension is None:
            break
        last = extension
    return choice


def pit_stop(race: Race, car: Car) -> None:
    """FD-68: tyres back to their start value, then the black die for the stop's speed."""
    assert car.zones is not None and car.zone_start is not None
    gained = car.zone_start["tyres"] - car.zones["tyres"]
    car.zones["tyres"] = car.zone_start["tyres"]
    car.wp = sum(car.zones.values())
    race.events.append(Event("pit stop", car.driver, wp=gained, detail="tyres"))
    if race.rules.tyres:
        pick = getattr(race.policy, "choose_tyres", None)
        car.tyre = pick(race, car) if pick is not None else car.tyre
        car.tyre_lap = car.laps_done
        race.events.append(Event("tyres", car.driver, detail=car.tyre))
    if technical_stop(race, car):
        return
    value = race.dice.roll(BLACK)
    if value > race.rules.pit_quick_max:
        race.events.append(Event("pit_stop", car.driver, value, detail="slow"))
        return  # leaves on its next move, in any gear up to pit_exit_max_gear (FD-46)
    # Quick stop: the car leaves at once in 4th, moving half the black die, rounded up.
    race.events.append(Event("pit_stop", car.driver, value, detail="quick"))
    car.in_box = False
    car.gear = 4
    spaces = (value + 1) // 2
    exit_move = race.choose(car, race.options(car, spaces))
    race.log_leg("pit_exit", car, exit_move)
    race.apply(car, exit_move, spaces)
    if car.running:
        debris_tests(race, car, exit_move)


def technical_stop(race: Race, car: Car) -> bool:
    """FD-69 (``pit_reservoir``): instead of a timed stop, WP from the car's reservoir go back to
    one or two non-tyre zones (policy ``choose_technical_stop``: zone -> WP, or nothing for an
    ordinary stop); no stop-speed roll, and the car leaves on its next move in 4th or lower."""
    assert car.zones is not None and car.zone_start is not None
    pick = getattr(race.policy, "choose_technical_stop", None)
    if not race.rules.pit_reservoir or car.reservoir <= 0 or pick is None:
        return False
    plan: Mapping[str, int] = pick(race, car) or {}
    if not plan:
        return False
    if (
        len(plan) > 2
        or "tyres" in plan
        or any(zone not in ZONES or wp < 1 for zone, wp in plan.items())
        or sum(plan.values()) > car.reservoir
        or any(car.zones[z] + wp > car.zone_start[z] for z, wp in plan.items())
    ):
        raise FormulaDError(
            "A technical stop restores reservoir WP to one or two non-tyre zones, up to their "
            "start values (FD-69).",
            "illegal_technical_stop",
            plan=dict(plan),
        )
    for zone, wp in plan.items():
        car.zones[zone] += wp
        car.reservoir -= wp
        race.events.append(Event("technical stop", car.driver, wp=wp, detail=zone))
    car.wp = sum(car.zones.values())
    car.exit_max_gear = 4
    return True


def slipstream_possible(race: Race, car: Car, last: MoveOption) -> bool:
    """FD-65: both cars in 4th or higher, the follower's gear at least the leader's, the
    follower directly behind after a move that used its whole roll (no braking to get one)."""
    rules = race.rules
    if not rules.slipstream or car.in_pit or last.braked or last.short or last.into_box:
        return False
    if last.exited_corner and rules.exit_lane_lock == "always":
        return False  # FD-21: the car keeps its exit lane for the rest of the move
    leader = race.occupied.get(race.track.forward(car.pos))
    return (
        leader is not None
        and not leader.in_pit
        and car.gear >= rules.slipstream_min_gear
        and leader.gear >= rules.slipstream_min_gear
        and car.gear >= leader.gear
    )


def slipstream(race: Race, car: Car) -> MoveOption | None:
    """Offer the slipstream's spaces (the 0-space option declines); apply the choice."""
    assert car.zones is not None
    stops = max(0, car.stops - 1) if car.corner >= 0 else 0  # the move has not ended yet
    saved = (car.corner, car.stops)
    car.stops = stops
    params = race.params(car)
    # Its own lane changes (up to two: FD-65); no pit entry within a slipstream.
    params = params._replace(may_pit=False, box=-1, max_lane_changes=2)
    ids = race.track.node_id
    occupied = 0
    for pos in race.occupied:
        occupied |= 1 << ids[pos]
    occupied &= ~(1 << ids[car.pos])
    spaces = race.rules.slipstream_spaces
    offered = [
        dataclasses.replace(o, slipstream=spaces, forced=0)
        for o in options_for(race.track, params, spaces, occupied)
    ]
    offered = [o for o in offered if o.steps == 0 or option_costs(race, car, o) is not None]
    choice = race.choose(car, offered)
    if choice.steps == 0:
        car.corner, car.stops = saved
        return None
    race.events.append(Event("slipstream", car.driver, detail=f"{choice.steps} spaces"))
    race.log_leg("slipstream", car, choice)
    cost = slipstream_brakes(race, choice)
    race.apply(car, choice, spaces)
    if car.running and cost:
        lose(race, car, "brakes", cost, "slipstream")
    if car.running:
        debris_tests(race, car, choice)
    return choice
