"""The automatic driver: a deterministic, sensible Formula D player.

It chooses the gear whose die best fits the road ahead (stops to make in the corner it is in or
the next one), brakes into a corner rather than overshooting two stops short, weighs WP by how
much race is left before they can be restored (finish or pit stop), and pits at the end of lap 1
when worn. Decisions depend only on the race state, never on a random draw, so a race is fully
determined by the dice. Gear choice uses a one-lane look-ahead (other cars ignored); the move
itself is chosen among the engine's exact options.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, NamedTuple

from games.formula_d.circuit import Pos
from games.formula_d.dice import GEAR_FACES, distribution
from games.formula_d.moves import MoveOption, OptionList
from games.formula_d.options import EXITED
from games.formula_d.race import Car, Race
from games.formula_d.track import PIT, Track
from scoring.formula_d.rules import FormulaDRules

OUT = -1000.0  # value of an elimination
_NEG_INF = float("-inf")
MAX_FACE = {g: max(f) for g, f in GEAR_FACES.items()}
# The highest gear whose every face fits in a limit of n spaces (index n), at least 1.
IDEAL_GEAR = tuple(max([1, *(g for g in GEAR_FACES if MAX_FACE[g] <= n)]) for n in range(100))
DISTRIBUTIONS = {g: distribution(g) for g in GEAR_FACES}


@dataclass(frozen=True, slots=True)
class CornerWindow:
    """A corner ahead in the car's lane: steps to its first and last space."""

    segment: int
    entry: int
    exit: int
    stops: int
    current: bool  # the car stands in it now


class LaneTables:
    """Per-space look-ahead along a lane, computed once per track."""

    def __init__(self, track: Track, horizon: int = 44) -> None:
        self.track = track
        self.windows: dict[Pos, tuple[CornerWindow, ...]] = {}
        self.ahead: dict[Pos, tuple[Pos, ...]] = {}
        for pos in track.positions:
            self.windows[pos] = self._windows(pos, horizon)
        for pos in track.positions:
            cells = [pos]
            p = pos
            for _ in range(horizon):
                p = track.forward(p)
                cells.append(p)
            self.ahead[pos] = tuple(cells)
        self._node_arrays(track)
        # Per (space, stops made, FD-22 limit): the look-ahead geometry of _lane_values.
        self.geometry: dict[tuple[int, int, int], tuple[tuple[bool, int, int, float], ...]] = {}
        # The same per (space, stops made, FD-22 limit, overshoot WP per space), by column.
        self.look: dict[
            tuple[int, int, int, int],
            tuple[tuple[int, ...], tuple[float, ...], tuple[int, ...]],
        ] = {}

    def _node_arrays(self, track: Track) -> None:
        """Per space id: policy coordinates, neighbour masks and the next move's limits."""
        pit = track.circuit.pit
        nom: list[float] = []
        nbr: list[int] = []
        corner_left: list[int] = []
        next_exit: list[int] = []
        ids = track.node_id
        for p in track.nodes:
            if p[0] == PIT:
                assert pit is not None
                a = track.nominal_coord(pit.entry)
                b = track.nominal_coord(pit.exit)
                nom.append(a + (b - a) * (p[2] + 1) / pit.length)
                nbr.append(0)
                corner_left.append(-1)
                next_exit.append(99)
                continue
            nom.append(track.nominal_coord(p))
            mask = 1 << ids[track.forward(p)]
            for q in track.beside(p):
                mask |= 1 << ids[q]
            nbr.append(mask)
            seg = track.segments[p[0]]
            corner_left.append(seg.lengths[p[1]] - 1 - p[2] if seg.is_corner else -1)
            following = [w.exit for w in self.windows[p] if not w.current]
            next_exit.append(following[0] if following else 99)
        self.nom = tuple(nom)
        self.nbr = tuple(nbr)
        self.corner_left = tuple(corner_left)
        self.next_exit = tuple(next_exit)
        line = track.circuit.finish_line
        at_line = track.nominal_base[line.segment] + track.nominal[line.segment] * (
            line.after[0] / track.segments[line.segment].lengths[0]
        )
        lap_progress: list[float] = []
        for p in track.nodes:
            d = track.nominal_coord(p) - at_line if p[0] != PIT else 0.0
            lap_progress.append(d + track.nominal_lap if d < 0 else d)
        self.lap_progress = tuple(lap_progress)
        self.corners = sum(1 for s in track.segments if s.is_corner)
        # The most progress one space can give (policy units), the pit lane included: a move of
        # k spaces progresses at most k times this (bounds in AutoDriver._best_record).
        self.step_progress = max(
            max(track.nominal[i] / n for i, s in enumerate(track.segments) for n in s.lengths),
            (nom[-1] - nom[-2]) if pit is not None and pit.length > 1 else 0.0,
            (nom[track.pit_first] - track.nominal_coord(pit.entry)) if pit is not None else 0.0,
        )

    def _windows(self, pos: Pos, horizon: int) -> tuple[CornerWindow, ...]:
        segs = self.track.segments
        seg, lane, i = pos
        out: list[CornerWindow] = []
        if segs[seg].is_corner:
            out.append(CornerWindow(seg, 0, segs[seg].lengths[lane] - 1 - i, segs[seg].stops, True))
        dist = segs[seg].lengths[lane] - i
        k = (seg + 1) % self.track.count
        while dist <= horizon:
            s = segs[k]
            if s.is_corner:
                out.append(CornerWindow(k, dist, dist + s.lengths[lane] - 1, s.stops, False))
            dist += s.lengths[lane]
            k = (k + 1) % self.track.count
        return tuple(out)


_FUTURE: dict[tuple[int, int], dict[int, tuple[tuple[int, int, float], ...]]] = {}


def _future_table(rules: FormulaDRules) -> dict[int, tuple[tuple[int, int, float], ...]]:
    """:meth:`AutoDriver._future` per gear and limit 0..99 as (kind, a, b): kind 0 is -2,
    kind 1 is -12 x WP value, kind 2 is -(a x WP value) - b (the same float operations)."""
    key = (rules.max_downshift, rules.downshift_wp_per_skipped_gear)
    table = _FUTURE.get(key)
    if table is None:
        table = {}
        for gear in GEAR_FACES:
            row: list[tuple[int, int, float]] = [(0, 0, 0.0)]
            for limit in range(1, 100):
                ideal = IDEAL_GEAR[limit]
                if gear - ideal > rules.max_downshift:
                    row.append((1, 0, 0.0))
                else:
                    a = max(0, gear - ideal - 1) * rules.downshift_wp_per_skipped_gear
                    row.append((2, a, max(0, ideal - gear - 1) * 1.5))
            table[gear] = tuple(row)
        _FUTURE[key] = table
    return table


_NEVER = 1 << 30  # a WP cost no car can pay
_LAM: dict[tuple[int, int, int, float], tuple[list[float], dict[int, list[float]]]] = {}


def _lam_terms(rules: FormulaDRules, lam: float) -> tuple[list[float], dict[int, list[float]]]:
    """For one WP value: brake x k (k = 0..99) and, per gear, ``_future`` per limit 0..99."""
    key = (
        rules.brake_wp_per_space,
        rules.max_downshift,
        rules.downshift_wp_per_skipped_gear,
        lam,
    )
    terms = _LAM.get(key)
    if terms is None:
        if len(_LAM) > 10_000:
            _LAM.clear()
        brake = rules.brake_wp_per_space * lam
        futures: dict[int, list[float]] = {}
        for gear, row in _future_table(rules).items():
            futures[gear] = [
                -2.0 if kind == 0 else (-12.0 * lam if kind == 1 else -(a * lam) - b)
                for kind, a, b in row
            ]
        terms = _LAM[key] = ([brake * k for k in range(100)], futures)
    return terms


def _memo_table(track: Track, outer: tuple[object, ...]) -> dict[Any, Any]:
    """The driver's memo table kept on ``track`` for ``outer`` (what else it depends on: the
    laps, the driver's setting, the rules), made empty when first asked for; at most 100 kept."""
    store: dict[tuple[object, ...], dict[Any, Any]] = track.driver_memo
    table = store.get(outer)
    if table is None:
        if len(store) > 100:
            store.clear()
        table = store[outer] = {}
    return table


def lane_tables(track: Track) -> LaneTables:
    """The look-ahead tables of ``track``, made on first use and kept on the track."""
    tables: LaneTables | None = track.driver_tables
    if tables is None:
        tables = track.driver_tables = LaneTables(track)
    return tables


class _Info(NamedTuple):
    """What AutoDriver._best_record needs of one record that depends on neither the WP value
    nor the rules."""

    progress: float
    end: int  # end space, or -1 for an elimination
    pit_end: bool  # ends in the pit lane
    braked: int  # spaces braked (charged)
    overshoot: int
    danger: int  # danger spaces
    limit: int  # how far the next move may go


class _Ranking(NamedTuple):
    """Per OptionList and "wants a pit stop": the records' upper bounds in decreasing order,
    their indexes, and their infos (computed when first read)."""

    bounds: list[float]
    order: list[int]
    infos: list[_Info | None]
    start_progress: float
    corner: int
    stops: int


def _ranking(
    tables: LaneTables, options: OptionList, pit: bool, corner: int, stops: int
) -> _Ranking:
    """The records of ``options`` by decreasing upper bound of their value (then index): their
    progress, plus 60 for a pit-lane end when a stop is wanted; ``OUT`` for an elimination (it
    is the value). The records are those of one search (one start, corner and stops), so this
    is computed once per list."""
    nom, is_pit, lap = tables.nom, tables.track.is_pit, tables.track.nominal_lap
    raw = options.raw
    if not raw:
        return _Ranking([], [], [], 0.0, corner, stops)
    chain = raw[0].cost[2]  # every record's path goes back to the start space
    while chain[1] is not None:
        chain = chain[1]
    start_nom = nom[chain[0]]
    bounds: list[float] = []
    for _, terminal, key, _ in raw:
        if terminal == "out":
            bounds.append(OUT)
            continue
        end = key[0]
        d = nom[end] - start_nom
        if d < -1.0:
            d += lap
        bounds.append(d + 60.0 if pit and is_pit[end] else d)
    # decreasing bound, then increasing index (a stable sort on the negated bounds)
    negated = [-b for b in bounds]
    order = sorted(range(len(raw)), key=negated.__getitem__)
    return _Ranking([bounds[i] for i in order], order, [None] * len(raw), start_nom, corner, stops)


def _info(tables: LaneTables, options: OptionList, ranking: _Ranking, i: int) -> _Info:
    """The :data:`_Info` of record ``i`` of ``options``."""
    depth, terminal, key, val = options.raw[i]
    if terminal == "out":
        return _Info(0.0, -1, False, 0, 0, 0, 0)
    track = tables.track
    is_pit = track.is_pit
    start_nom, corner, stops = ranking.start_progress, ranking.corner, ranking.stops
    end, _, _, flags, short, _ = key
    pit_end = is_pit[end]
    d = tables.nom[end] - start_nom
    if d < -1.0:
        d += track.nominal_lap
    # FD-48: no braking cost in the pit lane (nor on the way into the box)
    braked = 0 if terminal == "box" or pit_end else options.roll - depth
    limit = 0
    if not pit_end:
        c = track.corner_of[end]
        limit = tables.next_exit[end]
        if c >= 0:
            # a further stop in the car's corner unless it exited one; else a first stop, void
            # after an overshoot (FD-24)
            made = stops + 1 if c == corner and not flags & EXITED else (0 if short else 1)
            if made < track.seg_stops[c]:
                limit = tables.corner_left[end]
        if limit >= 100:
            limit = 99
    return _Info(d, end, pit_end, braked, val[0], len(val[1]), limit)


class _RaceView:
    """What the automatic driver reads on every turn of one race: its memo tables and the rule
    values of the option scoring (a pure cache; a driver keeps the one of its last race)."""

    __slots__ = ("bwp", "cwl", "dwl", "futures", "gears", "lams", "owp", "race", "tables")

    def __init__(self, driver: AutoDriver, race: Race) -> None:
        rules = race.rules
        # weak: the race holds its driver, so a strong reference here would make a cycle and
        # leave every finished race (its move log, cars, options) to the cyclic collector
        self.race = weakref.ref(race)
        self.tables = lane_tables(race.track)
        # gear choices depend on the driver's setting, the track and the rules; WP values on
        # the track and the number of laps
        self.gears: dict[tuple[object, ...], int] = _memo_table(
            race.track, ("gears", driver.pit_below, rules)
        )
        self.lams: dict[tuple[Pos, int, int, bool, bool], float] = _memo_table(
            race.track, ("wp values", race.laps)
        )
        self.futures = _future_table(rules)
        self.bwp, self.owp = rules.brake_wp_per_space, rules.overshoot_wp_per_space
        self.dwl, self.cwl = rules.danger_wp_loss, rules.collision_wp_loss


class _CarTurn(NamedTuple):
    """A car's state when last asked about, with its WP value and whether it wants to pit."""

    car: Car
    pos: Pos
    wp: int
    crossings: int
    stops: int  # pit stops made
    lam: float  # the WP value
    pit: bool


class _Turn(NamedTuple):
    """What scoring one record needs on one turn (AutoDriver._best_record)."""

    view: _RaceView
    wp: int
    lam: float
    pit: bool
    futures: tuple[tuple[int, int, float], ...]  # _future per limit, tabulated
    occupied: int

    def value(self, info: _Info, best: float) -> float:
        """:meth:`AutoDriver.option_value` of a record, or -inf when it cannot beat ``best``
        (its remaining terms are never positive: the same float rounding)."""
        view, lam = self.view, self.lam
        cost = info.braked * view.bwp + info.overshoot * view.owp
        if info.end < 0 or cost >= self.wp:
            return OUT
        bound = info.progress - lam * cost
        if info.pit_end and self.pit:
            bound += 60.0
        if bound < best:
            return _NEG_INF
        value = -lam * cost - 0.3 * lam * info.danger * view.dwl
        value += info.progress
        if info.pit_end:
            return value + (60.0 if self.pit else -60.0)
        kind, a, b = self.futures[info.limit]
        # = AutoDriver._future(race, car.gear, limit, lam), tabulated
        value += -2.0 if kind == 0 else (-12.0 * lam if kind == 1 else -(a * lam) - b)
        near = (view.tables.nbr[info.end] & self.occupied).bit_count()
        return value - near * 0.2 * view.cwl * lam


class AutoDriver:
    """The default :class:`~games.formula_d.race.DriverPolicy` of basic races (advanced races:
    :class:`~games.formula_d.advanced_driver.AdvancedDriver`, its subclass).

    ``pit_below`` is the WP at or under which the driver stops at the end of lap 1 (2-lap race).
    """

    def __init__(self, pit_below: int | None = None) -> None:
        self.pit_below = pit_below
        # the WP value and pit wish of the last car asked about: the gear and the move of one
        # turn share them (a pure cache; a car belongs to one race, which it does not
        # reference, so holding it keeps no race alive)
        self._state: _CarTurn | None = None
        self._view: _RaceView | None = None  # of the race asked about last

    # -- WP value ----------------------------------------------------------------------------

    def _value_and_pit(self, race: Race, car: Car) -> tuple[float, bool]:
        """:meth:`wp_value` and :meth:`wants_pit` of a basic-rules car, cached per turn."""
        state = self._state
        if (
            state is not None
            and state.car is car
            and state.wp == car.wp
            and state.pos == car.pos
            and state.crossings == car.crossings
            and state.stops == len(car.pitted_laps)
        ):
            return state.lam, state.pit
        pit = self.wants_pit(race, car)
        view = self._view
        if view is None or view.race() is not race:
            view = self._view = _RaceView(self, race)
        lams = view.lams
        if len(lams) > 100_000:
            lams.clear()
        # the WP value depends on the car only through these (see _wp_value)
        key = (car.pos, car.wp, car.crossings, pit, not car.pitted_laps)
        lam = lams.get(key)
        if lam is None:
            lam = lams[key] = self._wp_value(race, car, pit)
        self._state = _CarTurn(car, car.pos, car.wp, car.crossings, len(car.pitted_laps), lam, pit)
        return lam, pit

    def wp_value(self, race: Race, car: Car) -> float:
        """Spaces one WP is worth now: dear when few WP must last many corners."""
        return self._wp_value(race, car, None)

    def _wp_value(self, race: Race, car: Car, pit: bool | None) -> float:
        track = race.track
        if car.in_pit:
            return 1.0
        laps_done = max(0, car.crossings - 1)
        laps_left = race.laps - laps_done
        if pit is None:
            pit = self.wants_pit(race, car)
        if pit or (
            laps_done < race.laps - 1 and race.laps > 1 and not car.pitted_laps and car.wp < 9
        ):
            laps_left = 1  # WP come back at the pit stop
        tables = lane_tables(track)
        to_go = laps_left * track.nominal_lap - tables.lap_progress[track.node_id[car.pos]]
        corners_left = max(0.5, tables.corners * to_go / track.nominal_lap)
        # Rounded to quarters so that memoised gear choices are reused (still deterministic).
        return round(4.0 * (1.0 + 4.0 * corners_left / max(car.wp - 1, 0.5))) / 4.0

    def wants_pit(self, race: Race, car: Car) -> bool:
        """Pit at the end of lap 1 when worn (FD-43)."""
        laps_done = max(0, car.crossings - 1)
        if race.track.circuit.pit is None or race.laps < 2 or laps_done >= race.laps - 1:
            return False
        if laps_done in car.pitted_laps:
            return False
        threshold = self.pit_below if self.pit_below is not None else race.rules.wp_start // 2 + 1
        return car.wp <= threshold

    # -- gear --------------------------------------------------------------------------------

    def choose_gear(self, race: Race, car: Car, allowed: Sequence[int]) -> int:
        """The gear with the best expected outcome over its die (one-lane look-ahead)."""
        if car.in_pit:
            return max(allowed)
        lam = self._value_and_pit(race, car)[0]
        # The choice ignores other cars, so it is a pure function of the driver's settings,
        # the track, the rules and this key (memoised per those three).
        view = self._view
        if view is None or view.race() is not race:
            view = self._view = _RaceView(self, race)
        gears = view.gears
        key = (car.pos, car.gear, car.corner, car.stops, car.wp, lam, tuple(allowed))
        cached = gears.get(key)
        if cached is not None:
            return cached
        if len(gears) > 100_000:
            gears.clear()
        gear = self._choose_gear(race, car, allowed, lam)
        gears[key] = gear
        return gear

    def _choose_gear(self, race: Race, car: Car, allowed: Sequence[int], lam: float) -> int:
        # For k spaces straight ahead: value(k) = progress - WP value x cost (OUT when the car
        # cannot pay), plus the next move's penalty and brake x k; the expectation over the die
        # of the best k <= face, less brake x face. The float operations are those of the plain
        # loops (_lane_values, _future), with the lam-dependent terms tabulated (_lam_terms).
        rules = race.rules
        costs, progress, limits = self._look(race, car)
        wp = car.wp
        last = len(costs) - 1
        # values up to the highest face of the highest gear (the prefixes read no further)
        top = min(MAX_FACE[max(allowed)], last) + 1
        values = [
            OUT if c >= wp else p - lam * c
            for c, p in zip(costs[:top], progress[:top], strict=True)
        ]
        brakes, futures = _lam_terms(rules, lam)
        skipped_wp = 0 if car.in_pit else rules.downshift_wp_per_skipped_gear
        best_gear, best_value = allowed[0], _NEG_INF
        for gear in allowed:
            cost = max(0, car.gear - gear - 1) * skipped_wp  # Race.downshift_cost (FD-14/48)
            if cost >= wp:
                continue
            # best over k <= r of value(k) - brake * (r - k): a running maximum of value + brake*k
            # (only up to the die's highest face: the prefix beyond it is never read)
            future = futures[gear]
            n = min(MAX_FACE[gear], last) + 1
            prefix = list(
                accumulate(
                    [
                        v + future[limit] + b
                        for v, limit, b in zip(values[:n], limits, brakes, strict=False)
                    ],
                    max,
                )
            )
            expected = -cost * lam
            for face, p in DISTRIBUTIONS[gear]:
                expected += p * (prefix[face if face < last else last] - brakes[face])
            if expected > best_value:
                best_gear, best_value = gear, expected
        return best_gear

    def _look(
        self, race: Race, car: Car
    ) -> tuple[tuple[int, ...], tuple[float, ...], tuple[int, ...]]:
        """:meth:`_geometry` as (WP cost, progress, next limit) per k; an elimination (two stops
        short) costs more than any car has and has limit 0, as in :meth:`_lane_values`."""
        tables = lane_tables(race.track)
        ow = race.rules.overshoot_wp_per_space
        key = (
            race.track.node_id[car.pos],
            car.stops,
            race.rules.overshoot_max_missing_stops,
            ow,
        )
        look = tables.look.get(key)
        if look is None:
            geometry = self._geometry(race, car)
            look = tables.look[key] = (
                tuple(_NEVER if out else over * ow for out, over, _, _ in geometry),
                tuple(p for _, _, _, p in geometry),
                tuple(0 if out else min(limit, 99) for out, _, limit, _ in geometry),
            )
        return look

    def _lane_values(self, race: Race, car: Car, lam: float) -> list[tuple[float, int]]:
        """For k = 0..36 straight ahead: (value without braking, next move's safe limit)."""
        rules = race.rules
        ow = rules.overshoot_wp_per_space
        wp = car.wp
        out: list[tuple[float, int]] = []
        for out_now, over, limit, progress in self._geometry(race, car):
            if out_now:
                out.append((OUT, 0))
                continue
            cost = over * ow
            value = progress - lam * cost
            if cost >= wp:
                value = OUT
            out.append((value, limit))
        return out

    def _geometry(self, race: Race, car: Car) -> tuple[tuple[bool, int, int, float], ...]:
        """Per k spaces straight ahead: (two stops short, spaces overshot, next limit, progress).

        Independent of WP and of the WP value, so it is tabulated per space and stops made.
        """
        tables = lane_tables(race.track)
        rules = race.rules
        key = (race.track.node_id[car.pos], car.stops, rules.overshoot_max_missing_stops)
        cached = tables.geometry.get(key)
        if cached is not None:
            return cached
        windows = tables.windows[car.pos]
        cells = tables.ahead[car.pos]
        track = race.track
        start = track.nominal_coord(car.pos)
        out: list[tuple[bool, int, int, float]] = []
        for k in range(min(37, len(cells))):
            over = 0
            out_now = False
            short = False
            limit = 99
            for n, w in enumerate(windows):
                made = car.stops if w.current else 0
                if k > w.exit:  # FD-22: passed this corner's exit line
                    missing = w.stops - made
                    if missing > rules.overshoot_max_missing_stops:
                        out_now = True
                        break
                    if missing > 0:
                        over += k - w.exit
                        short = True
                    continue
                if k >= w.entry:  # ends inside w: a stop, unless an overshoot voids it (FD-24)
                    stops_after = made + 1 if w.current else (0 if short else 1)
                    if stops_after < w.stops:
                        limit = w.exit - k
                    elif n + 1 < len(windows):
                        limit = windows[n + 1].exit - k
                    break
                limit = w.exit - k
                break
            out.append((out_now, over, limit, self._progress(track, start, cells[k])))
        result = tuple(out)
        tables.geometry[key] = result
        return result

    @staticmethod
    def _progress(track: Track, start: float, end: Pos) -> float:
        d = track.nominal_coord(end) - start
        return d + track.nominal_lap if d < -1.0 else d

    @staticmethod
    def _future(race: Race, gear: int, limit: int, lam: float) -> float:
        """Penalty for standing in ``gear`` when the next move may not go beyond ``limit``."""
        if limit <= 0:
            return -2.0
        ideal = IDEAL_GEAR[min(limit, 99)]
        if gear - ideal > race.rules.max_downshift:
            return -12.0 * lam
        penalty = max(0, gear - ideal - 1) * race.rules.downshift_wp_per_skipped_gear * lam
        momentum = max(0, ideal - gear - 1) * 1.5  # gears can only go up one at a time
        return -penalty - momentum

    # -- move --------------------------------------------------------------------------------

    def choose_move(self, race: Race, car: Car, options: Sequence[MoveOption]) -> MoveOption:
        """The option with the best value; ties go to the first (options are ordered)."""
        if isinstance(options, OptionList) and options.track is race.track:
            lam, pit = self._value_and_pit(race, car)
            return options[self._best_record(race, car, options, lam, pit)]
        lam = self.wp_value(race, car)
        pit = self.wants_pit(race, car)
        best = options[0]
        best_value = _NEG_INF
        for option in options:
            value = self.option_value(race, car, option, lam, pit)
            if value > best_value:
                best, best_value = option, value
        return best

    def _best_record(self, race: Race, car: Car, options: OptionList, lam: float, pit: bool) -> int:
        """:meth:`option_value` on the search's records, without building the options.

        Records are scanned by decreasing progress (plus 60 for a wanted pit stop), an upper
        bound of their value since every other term is never positive: once the bound is below
        the best value found, no record left can win. Ties go to the lower index, as in the
        plain scan. The ranking depends only on the records, so it is kept with them.
        """
        if options.finish >= 0:
            return options.finish  # worth 10 000, more than any other option
        view = self._view
        if view is None or view.race() is not race:
            view = self._view = _RaceView(self, race)
        ranked = options.ranked.get(pit)
        if ranked is None:
            ranked = _ranking(view.tables, options, pit, car.corner, car.stops)
            options.ranked[pit] = ranked
        turn = _Turn(view, car.wp, lam, pit, view.futures[car.gear], race.occupancy(car))
        best_i, best_value = 0, _NEG_INF
        for k, bound in enumerate(ranked.bounds):
            if bound < best_value:
                break  # no record left can reach the best value
            i = ranked.order[k]
            info = ranked.infos[k]
            if info is None:
                info = ranked.infos[k] = _info(view.tables, options, ranked, i)
            value = turn.value(info, best_value)
            if value > best_value or (value == best_value and i < best_i):
                best_i, best_value = i, value
        return best_i

    def option_value(
        self, race: Race, car: Car, option: MoveOption, lam: float, pit: bool
    ) -> float:
        """How good ending the move with ``option`` is, in spaces."""
        rules = race.rules
        if option.finished:
            return 10_000.0
        if option.overshoot_out:
            return OUT
        cost = 0
        if not car.in_pit or option.end[0] != PIT:
            cost = option.braked * rules.brake_wp_per_space
        cost += option.overshoot_spaces * rules.overshoot_wp_per_space
        if cost >= car.wp:
            return OUT
        value = -lam * cost - 0.3 * lam * len(option.danger) * rules.danger_wp_loss
        value += self._option_progress(race, car, option)
        if option.end[0] == PIT:
            value += 60.0 if pit else -60.0
            return value
        _, limit = self._limit_after(race, car, option)
        value += self._future(race, car.gear, limit, lam)
        # Collisions (FD-30): each car next to us is a 20 % chance of a WP for both.
        near = self._neighbours(race, car, option.end)
        value -= near * 0.2 * rules.collision_wp_loss * lam
        if option.nitro:
            value -= 0.5  # keep the nitro unless it buys something
        return value

    def _option_progress(self, race: Race, car: Car, option: MoveOption) -> float:
        track = race.track
        pit = track.circuit.pit

        def coord(p: Pos) -> float:
            if p[0] == PIT:
                assert pit is not None
                a = track.nominal_coord(pit.entry)
                b = track.nominal_coord(pit.exit)
                return a + (b - a) * (p[2] + 1) / pit.length
            return track.nominal_coord(p)

        d = coord(option.end) - coord(car.pos)
        return d + track.nominal_lap if d < -1.0 else d

    def _limit_after(self, race: Race, car: Car, option: MoveOption) -> tuple[bool, int]:
        """Whether the car still owes stops where it ends, and how far its next move may go."""
        tables = lane_tables(race.track)
        end = option.end
        segs = race.track.segments
        if segs[end[0]].is_corner:
            if end[0] == car.corner and not option.exited_corner:
                stops = car.stops + 1
            else:
                stops = 0 if option.short else 1
            if stops < segs[end[0]].stops:
                return True, segs[end[0]].lengths[end[1]] - 1 - end[2]
        for w in tables.windows[end]:
            if not w.current:
                return False, w.exit
        return False, 99

    @staticmethod
    def _neighbours(race: Race, car: Car, end: Pos) -> int:
        occupied = race.occupied
        count = 0
        ahead = occupied.get(race.track.forward(end))
        if ahead is not None and ahead is not car:
            count += 1
        for p in race.track.beside(end):
            other = occupied.get(p)
            if other is not None and other is not car:
                count += 1
        return count
