"""The automatic driver's decisions under the advanced rule set (formula_d.md §13).

Each zone's WP gets its own value in spaces, dear when few WP must last many corners: tyres until
the next possible pit stop (FD-68 restores them), the other zones until the finish. Gear and move
are chosen as in the basic game (:mod:`games.formula_d.policy`) with the costs of FD-60 to FD-65
charged to their zones; moves that would eliminate the car are avoided. The driver pits when its
tyres are down to half, and fits rain tyres in the wet, hard ones otherwise (FD-66).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.formula_d import advanced
from games.formula_d.dice import GEAR_FACES
from games.formula_d.moves import MoveOption, options_for
from games.formula_d.policy import DISTRIBUTIONS, IDEAL_GEAR, OUT, AutoDriver, lane_tables
from games.formula_d.race import Car, Race
from games.formula_d.track import PIT
from scoring.formula_d.rules import ZONES

SPIN = 12.0  # spaces a spin costs: the next move is in 1st gear (FD-61)


class AdvancedDriver(AutoDriver):
    """The automatic driver of advanced races: zones, tyres, pit stops and technical stops.

    Gear and move are chosen as :class:`AutoDriver` does, with each cost charged to its zone.
    """

    def wants_pit(self, race: Race, car: Car) -> bool:
        return wants_pit(race, car)

    def choose_technical_stop(self, race: Race, car: Car) -> dict[str, int]:
        """FD-69 (pit reservoir): WP to restore per zone at a technical stop."""
        return choose_technical_stop(race, car)

    def choose_tyres(self, race: Race, car: Car) -> str:
        """FD-66: the tyres to fit, once the weather is known."""
        return choose_tyres(race, car)

    def choose_gear(self, race: Race, car: Car, allowed: Sequence[int]) -> int:
        if car.in_pit:
            return _pit_lane_gear(race, car, allowed)
        return choose_gear(self, race, car, allowed)

    def choose_move(self, race: Race, car: Car, options: Sequence[MoveOption]) -> MoveOption:
        return choose_move(self, race, car, options)


def wants_pit(race: Race, car: Car) -> bool:
    """FD-68: stop at the end of a lap (not the last) when the tyres are down to half."""
    if race.track.circuit.pit is None or car.laps_done >= race.laps - 1:
        return False
    if car.laps_done in car.pitted_laps:
        return False
    assert car.zones is not None and car.zone_start is not None
    return car.zones["tyres"] <= car.zone_start["tyres"] // 2


def zone_values(race: Race, car: Car) -> dict[str, float]:
    """Spaces one WP of each zone is worth now."""
    assert car.zones is not None
    track = race.track
    tables = lane_tables(track)
    done = tables.lap_progress[track.node_id[car.pos]] if not car.in_pit else 0.0
    laps_left = race.laps - car.laps_done
    pit_ahead = (
        track.circuit.pit is not None
        and car.laps_done < race.laps - 1
        and car.laps_done not in car.pitted_laps
    )
    out: dict[str, float] = {}
    for zone in ZONES:
        laps = 1 if zone == "tyres" and pit_ahead else laps_left
        to_go = max(0.0, laps * track.nominal_lap - done)
        corners_left = max(0.5, tables.corners * to_go / track.nominal_lap)
        out[zone] = round(4.0 * (1.0 + 2.0 * corners_left / max(car.zones[zone], 0.5))) / 4.0
    return out


def choose_technical_stop(race: Race, car: Car) -> dict[str, int]:
    """FD-69: the reservoir to the one or two non-tyre zones furthest below their start."""
    zones, start = car.zones, car.zone_start
    assert zones is not None and start is not None
    short = sorted(
        (z for z in ZONES if z != "tyres" and zones[z] < start[z]),
        key=lambda z: (zones[z] - start[z], ZONES.index(z)),
    )[:2]
    plan: dict[str, int] = {}
    left = car.reservoir
    for zone in short:
        wp = min(left, start[zone] - zones[zone])
        if wp > 0:
            plan[zone] = wp
            left -= wp
    return plan


def choose_tyres(race: Race, car: Car) -> str:
    """FD-66: rain tyres in the wet, hard ones in the dry (no multiplier, no wet bonus)."""
    return "rain" if advanced.wet(race) else "hard"


def choose_gear(driver: AutoDriver, race: Race, car: Car, allowed: Sequence[int]) -> int:
    """The gear with the best expected outcome over its die (one-lane look-ahead)."""
    assert car.zones is not None
    lam = zone_values(race, car)
    rules = race.rules
    multiplier = advanced.tyre_multiplier(race, car)
    tyres = car.zones["tyres"]
    brake_spaces = car.zones["brakes"] // max(rules.brake_wp_per_space, 1)
    base: list[tuple[float, int]] = []
    for out_now, over, limit, progress in driver._geometry(race, car):
        loss = over * rules.overshoot_wp_per_space * multiplier
        if out_now or loss > tyres or (tyres == 0 and over > 1):
            base.append((OUT, 0))
            continue
        value = progress - lam["tyres"] * loss - (SPIN if over and loss == tyres else 0.0)
        base.append((value, limit))
    last = len(base) - 1
    brake = rules.brake_wp_per_space * lam["brakes"]
    # Cars ahead: beyond ``reach`` spaces the car is blocked and pays the FD-62 table.
    params = race.params(car)
    probe = options_for(race.track, params._replace(debris=frozenset()), last, race.occupancy(car))
    reach = last - probe.forced  # debris does not block: left out of the probe
    blocked: list[float] = []
    for spaces in range(last + 1):
        table = rules.blocking_table.cost(spaces)
        if table is None or table[0] > car.zones["brakes"] or table[1] > tyres:
            blocked.append(OUT)
        else:
            blocked.append(-lam["brakes"] * table[0] - lam["tyres"] * table[1])
    best_gear, best_value = allowed[0], float("-inf")
    for gear in allowed:
        costs = advanced.downshift_cost(race, car, gear) or {}
        if any(costs.get(z, 0) >= car.zones[z] for z in advanced.FATAL_ZONES if costs.get(z)):
            continue
        expected = -sum(lam[z] * c for z, c in costs.items())
        futures = [
            value + driver._future(race, gear, limit, lam["gearbox"]) if value > OUT else OUT
            for value, limit in base[: min(max(GEAR_FACES[gear]), last) + 1]
        ]
        for face, p in DISTRIBUTIONS[gear]:
            r = min(face, last)
            if r > reach:
                # blocked: as far as it can go, paying the table for the rest
                stop = min(reach, len(futures) - 1)
                expected += p * max(OUT, futures[stop] + blocked[r - reach])
                continue
            # brake to k >= r - (spaces the brakes can pay), or use the whole roll
            best = max(futures[k] - brake * (r - k) for k in range(max(0, r - brake_spaces), r + 1))
            expected += p * best
        if expected > best_value:
            best_gear, best_value = gear, expected
    return best_gear


def _pit_lane_gear(race: Race, car: Car, allowed: Sequence[int]) -> int:
    # The highest gear whose every face fits before the exit of the first corner after the pit
    # lane: once back on the track the brakes pay for any excess (FD-48 ends at the exit).
    pit = race.track.circuit.pit
    assert pit is not None
    exit_node = race.track.node_id[pit.exit]
    limit = pit.length - car.pos[2] + lane_tables(race.track).next_exit[exit_node]
    ideal = IDEAL_GEAR[max(0, min(limit, 99))]
    fitting = [g for g in allowed if g <= ideal]
    return max(fitting) if fitting else min(allowed)


def choose_move(
    driver: AutoDriver, race: Race, car: Car, options: Sequence[MoveOption]
) -> MoveOption:
    """The option with the best value; ties go to the first."""
    lam = zone_values(race, car)
    pit = wants_pit(race, car)
    best, best_value = options[0], float("-inf")
    for option in options:
        value = option_value(driver, race, car, option, lam, pit)
        if value > best_value:
            best, best_value = option, value
    return best


def option_value(
    driver: AutoDriver,
    race: Race,
    car: Car,
    option: MoveOption,
    lam: dict[str, float],
    pit: bool,
) -> float:
    """How good ending the move (or slipstream) with ``option`` is, in spaces."""
    if option.finished:
        return 10_000.0
    assert car.zones is not None
    costs = advanced.option_costs(race, car, option)
    if costs is None:
        return OUT
    rules = race.rules
    wet = advanced.wet(race)
    value = driver._option_progress(race, car, option)
    value -= sum(lam[z] * c for z, c in costs.items())
    if costs["tyres"] and costs["tyres"] == car.zones["tyres"]:
        value -= SPIN  # FD-61: losing the last tyre WP spins the car
    debris_fail = (rules.debris_fail_max_rain if wet else rules.debris_fail_max) / 20
    value -= len(option.debris) * debris_fail * lam["handling"]
    if option.end[0] == PIT:
        return value + (60.0 if pit else -60.0)
    _, limit = driver._limit_after(race, car, option)
    value += driver._future(race, car.gear, limit, lam["gearbox"])
    # FD-60: the mover rolls once per neighbour, and each neighbour rolls once.
    collision_fail = (rules.collision_fail_max_rain if wet else rules.collision_fail_max) / 20
    near = driver._neighbours(race, car, option.end)
    value -= near * collision_fail * rules.collision_wp_loss * lam["body"]
    return value
