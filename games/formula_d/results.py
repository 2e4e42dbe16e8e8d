"""What a race leaves behind: the per-move log and the classified result (FD-40 to FD-42)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.formula_d import advanced
from games.formula_d.model import Event, MoveRecord, RaceOutcome, ResultEntry
from games.formula_d.moves import MoveOption

# The version of the simulator's races and logs, in every replay: a change to it means the same
# seed may now play a different race. 2 (issue #14): FD-7, FD-20, FD-22, FD-52 and FD-66 fixed;
# slipstreams and quick pit exits logged as legs, with the announced gear; an eliminating test
# roll on the test's event; grid and weather rolls and the start tyres kept.
SIMULATOR_VERSION = "2"

if TYPE_CHECKING:
    from games.formula_d.race import Car, Race


def move_record(
    race: Race,
    car: Car,
    roll: int | None,
    start_kind: str | None,
    option: MoveOption | None,
    events: list[Event],
    gear: int,
) -> MoveRecord:
    """One move of the log, for replays; ``gear`` is the gear announced for it (FD-11)."""
    zones = advanced.zones_tuple(car.zones) if car.zones is not None else ()
    path: tuple[tuple[str, str, int], ...] = ()
    moved = braked = 0
    nitro = False
    if option is not None:
        # compact label tuples; MoveRecord.to_json builds the replay's dicts
        labels = race.track.pos_label
        path = tuple([labels[p] for p in option.path])
        moved, braked, nitro = option.steps, option.braked, option.nitro
    return MoveRecord(
        race.round,
        car.entrant.driver,
        gear,
        roll,
        start_kind,
        nitro,
        path,
        moved,
        braked,
        car.wp if car.wp > 0 else 0,
        tuple(events),
        zones,
        tuple(race.legs),
    )


def outcome(race: Race) -> RaceOutcome:
    """FD-40 to FD-42: finishers in crossing order, then the eliminated (FD-41)."""
    out = sorted(race.eliminated, key=lambda c: (-c.laps_done, -(c.elimination_order or 0)))
    ranked = [*race.finishers, *out]
    pole = race.grid[0].driver if race.grid else None
    rows = tuple(
        ResultEntry(
            driver=c.driver,
            position=i + 1,
            status="finished" if c.status == "finished" else "eliminated",
            laps=race.laps if c.status == "finished" else min(c.laps_done, race.laps - 1),
            elimination_order=c.elimination_order,
            wp_left=max(c.wp, 0),
            pole=c.driver == pole,
            zones=_zones_left(c),
        )
        for i, c in enumerate(ranked)
    )
    return RaceOutcome(
        circuit=race.track.circuit.name,
        laps=race.laps,
        results=rows,
        grid=tuple(c.driver for c in race.grid),
        moves=tuple(race.moves),
        rounds=race.round,
        rule_set=race.rule_set,
        weather=tuple(race.adv.weather_log) if race.adv is not None else (),
        grid_rolls=tuple(race.grid_rolls),
        weather_rolls=tuple(race.adv.weather_rolls) if race.adv is not None else (),
        tyres=tuple(race.start_tyres),
        version=SIMULATOR_VERSION,
    )


def _zones_left(car: Car) -> tuple[tuple[str, int], ...] | None:
    # FD-78 (advanced): WP left per zone; an eliminated car has 0 everywhere (project rule).
    if car.zones is None:
        return None
    if car.status == "eliminated":
        return tuple((z, 0) for z, _ in advanced.zones_tuple(car.zones))
    return advanced.zones_tuple(car.zones)
