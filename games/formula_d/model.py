"""Plain data in and out of the Formula D engine: entrants, set-ups, results, the move log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from games.formula_d.circuit import Pos

Status = Literal["running", "finished", "eliminated"]


@dataclass(frozen=True)
class Entrant:
    """A driver entered in a race, in the race's entry order (FD-44 assigns boxes by it)."""

    driver: int
    name: str
    team: str | None = None
    # FD-59 (advanced, own_car_build): the driver's spread of WP over the six zones
    build: Mapping[str, int] | None = field(default=None, hash=False, compare=False)


@dataclass(frozen=True)
class CarSetup:
    """A car placed by hand (tests, replays of a situation): skips the grid and start rolls.

    ``crossings`` counts finish-line crossings so far (1 once the car has left the grid, so laps
    completed = crossings - 1); ``corner_stops`` are the stops already made in the corner the car
    stands in.
    """

    entrant: Entrant
    pos: Pos
    gear: int = 1
    wp: int | None = None
    corner_stops: int = 0
    crossings: int = 1
    started: bool = True
    pitted: bool = False
    nitro_used: bool = False
    lap_wraps: int = 1
    zones: Mapping[str, int] | None = None  # advanced: WP per zone (default: the start values)
    spun: bool = False  # advanced FD-61: spun on its last move
    # FD-20: spaces already moved through the corner the car stands in (default: its lane's
    # spaces up to and including ``pos``, as if it had come straight in)
    corner_spaces: int | None = None


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened during a move: a test roll, a WP change, an elimination..."""

    kind: str
    driver: int
    roll: int | None = None
    wp: int = 0  # WP change (negative = lost)
    detail: str = ""

    def __init__(
        self, kind: str, driver: int, roll: int | None = None, wp: int = 0, detail: str = ""
    ) -> None:
        # Races make events and move records on every move. A frozen dataclass's generated
        # __init__ sets each field through object.__setattr__ (~0.3 us a field); writing the
        # instance dict directly is 3 to 4 times faster and leaves the instance frozen.
        # tests/games/formula_d/test_model.py checks these signatures against the fields.
        d = self.__dict__
        d["kind"] = kind
        d["driver"] = driver
        d["roll"] = roll
        d["wp"] = wp
        d["detail"] = detail

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "driver": self.driver}
        if self.roll is not None:
            out["roll"] = self.roll
        if self.wp:
            out["wp"] = self.wp
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True, slots=True)
class Leg:
    """A further part of a move, after its main path: a slipstream (FD-65) or the exit of a quick
    pit stop (FD-68). ``spaces`` is what the leg offered (the slipstream's spaces, half the stop
    die rounded up), ``gear`` the car's gear during it (4th out of a quick stop)."""

    kind: Literal["slipstream", "pit_exit"]
    gear: int
    spaces: int
    path: tuple[tuple[str, str, int], ...]  # (segment id, lane, 1-based space) per space
    moved: int
    braked: int

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "gear": self.gear,
            "spaces": self.spaces,
            "moved": self.moved,
            "braked": self.braked,
            "path": [{"segment": s, "lane": lane, "space": n} for s, lane, n in self.path],
        }


@dataclass(frozen=True, init=False)
class MoveRecord:
    """One car's move, for replays (per-move log)."""

    round: int
    driver: int
    gear: int
    roll: int | None
    start: str | None  # FD-7 on the first move: stall, normal or great
    nitro: bool
    path: tuple[tuple[str, str, int], ...]  # (segment id, lane, 1-based space) per space
    moved: int
    braked: int
    wp: int
    events: tuple[Event, ...] = ()
    zones: tuple[tuple[str, int], ...] = ()  # advanced: WP per zone after the move
    legs: tuple[Leg, ...] = ()  # slipstreams and a quick pit stop's exit, in order

    def __init__(
        self,
        round: int,
        driver: int,
        gear: int,
        roll: int | None,
        start: str | None,
        nitro: bool,
        path: tuple[tuple[str, str, int], ...],
        moved: int,
        braked: int,
        wp: int,
        events: tuple[Event, ...] = (),
        zones: tuple[tuple[str, int], ...] = (),
        legs: tuple[Leg, ...] = (),
    ) -> None:
        d = self.__dict__  # one per move: see Event.__init__
        d["round"] = round
        d["driver"] = driver
        d["gear"] = gear
        d["roll"] = roll
        d["start"] = start
        d["nitro"] = nitro
        d["path"] = path
        d["moved"] = moved
        d["braked"] = braked
        d["wp"] = wp
        d["events"] = events
        d["zones"] = zones
        d["legs"] = legs

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "driver": self.driver,
            "gear": self.gear,
            "roll": self.roll,
            "moved": self.moved,
            "braked": self.braked,
            "wp": self.wp,
            "path": [{"segment": s, "lane": lane, "space": n} for s, lane, n in self.path],
            "events": [e.to_json() for e in self.events],
        }
        if self.start is not None:
            out["start"] = self.start
        if self.nitro:
            out["nitro"] = True
        if self.zones:
            out["zones"] = dict(self.zones)
        if self.legs:
            out["legs"] = [leg.to_json() for leg in self.legs]
        return out


@dataclass(frozen=True)
class ResultEntry:
    """One row of a race result, exactly the fields a scorekeeper submits (FD-78)."""

    driver: int
    position: int
    status: Literal["finished", "eliminated"]
    laps: int
    elimination_order: int | None = None
    wp_left: int = 0
    pole: bool = False
    # advanced (FD-78): WP left per zone, all 0 for an eliminated car; ``wp_left`` is their sum
    zones: tuple[tuple[str, int], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "driver": self.driver,
            "position": self.position,
            "status": self.status,
            "laps": self.laps,
            "wp_left": self.wp_left if self.zones is None else dict(self.zones),
        }
        if self.elimination_order is not None:
            out["elimination_order"] = self.elimination_order
        if self.pole:
            out["pole"] = True
        return out


@dataclass(frozen=True)
class RaceOutcome:
    """A finished race: results by position, the grid (pole first) and the move log."""

    circuit: str
    laps: int
    results: tuple[ResultEntry, ...]
    grid: tuple[int, ...]
    moves: tuple[MoveRecord, ...] = field(repr=False)
    rounds: int
    rule_set: str = "basic"
    weather: tuple[str, ...] = ()  # advanced FD-67: the weather states of the race, in order
    grid_rolls: tuple[tuple[int, int], ...] = ()  # FD-6: (driver, roll) in rolling order
    weather_rolls: tuple[int, ...] = ()  # FD-67: the chart rolls before the grid and the race
    tyres: tuple[tuple[int, str], ...] = ()  # FD-66: each driver's tyres at the start
    version: str = ""  # the simulator's version (simulate.SIMULATOR_VERSION)

    def submission(self) -> list[dict[str, Any]]:
        """The ``results`` list of a scorekeeper's submission (FD-78)."""
        return [r.to_json() for r in self.results]

    def replay_json(self) -> dict[str, Any]:
        """The per-move log served by the replay endpoint."""
        out: dict[str, Any] = {
            "circuit": self.circuit,
            "laps": self.laps,
            "grid": list(self.grid),
            "rounds": self.rounds,
            "moves": [m.to_json() for m in self.moves],
            "results": self.submission(),
        }
        if self.rule_set != "basic":
            out["rule_set"] = self.rule_set
        if self.weather:
            out["weather"] = list(self.weather)
        if self.version:
            out["version"] = self.version
        if self.grid_rolls:
            out["grid_rolls"] = [list(pair) for pair in self.grid_rolls]
        if self.weather_rolls:
            out["weather_rolls"] = list(self.weather_rolls)
        if self.tyres:
            out["tyres"] = [list(pair) for pair in self.tyres]
        return out
