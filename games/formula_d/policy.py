"""The automatic driver: a deterministic, sensible Formula D player.

It chooses the gear whose die best fits the road ahead (stops to make in the corner it is in or
the next one), brakes into a corner rather than overshooting two stops short, weighs WP by how
much race is left before they can be restored (finish or pit stop), and pits at the end of lap 1
when worn. Decisions depend only on the race state, never on a random draw, so a race is fully
determined by the dice. Gear choice uses a one-lane look-ahead (other cars ignored); the move
itself is chosen among the engine's exact options.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.formula_d.circuit import Pos
from games.formula_d.dice import GEAR_FACES, distribution
from games.formula_d.moves import MoveOption
from games.formula_d.race import Car, Race
from games.formula_d.track import PIT, Track

OUT = -1000.0  # value of an elimination
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


_TABLES: dict[int, LaneTables] = {}
_GEARS: dict[tuple[object, ...], int] = {}  # pure memo of AutoDriver gear choices


def lane_tables(track: Track) -> LaneTables:
    """The look-ahead tables of ``track`` (cached for the life of the track object)."""
    tables = _TABLES.get(id(track))
    if tables is None or tables.track is not track:
        tables = LaneTables(track)
        _TABLES[id(track)] = tables
    return tables


class AutoDriver:
    """The default :class:`~games.formula_d.race.DriverPolicy`.

    ``pit_below`` is the WP at or under which the driver stops at the end of lap 1 (2-lap race).
    """

    def __init__(self, pit_below: int | None = None) -> None:
        self.pit_below = pit_below

    # -- WP value ----------------------------------------------------------------------------

    def wp_value(self, race: Race, car: Car) -> float:
        """Spaces one WP is worth now: dear when few WP must last many corners."""
        track = race.track
        if car.in_pit:
            return 1.0
        laps_left = race.laps - car.laps_done
        if self.wants_pit(race, car) or (
            car.laps_done < race.laps - 1 and race.laps > 1 and not car.pitted_laps and car.wp < 9
        ):
            laps_left = 1  # WP come back at the pit stop
        to_go = laps_left * track.nominal_lap - self._lap_progress(race, car)
        corners_left = max(0.5, 10.0 * to_go / track.nominal_lap)
        # Rounded to quarters so that memoised gear choices are reused (still deterministic).
        return round(4.0 * (1.0 + 4.0 * corners_left / max(car.wp - 1, 0.5))) / 4.0

    def _lap_progress(self, race: Race, car: Car) -> float:
        # Nominal distance since the finish line.
        line = race.track.circuit.finish_line
        here = race.track.nominal_coord(car.pos)
        at_line = race.track.nominal_base[line.segment] + race.track.nominal[line.segment] * (
            line.after[0] / race.track.segments[line.segment].lengths[0]
        )
        d = here - at_line
        return d + race.track.nominal_lap if d < 0 else d

    def wants_pit(self, race: Race, car: Car) -> bool:
        """Pit at the end of lap 1 when worn (FD-43)."""
        if race.track.circuit.pit is None or race.laps < 2 or car.laps_done >= race.laps - 1:
            return False
        if car.laps_done in car.pitted_laps:
            return False
        threshold = self.pit_below if self.pit_below is not None else race.rules.wp_start // 2 + 1
        return car.wp <= threshold

    # -- gear --------------------------------------------------------------------------------

    def choose_gear(self, race: Race, car: Car, allowed: Sequence[int]) -> int:
        """The gear with the best expected outcome over its die (one-lane look-ahead)."""
        if car.in_pit:
            return max(allowed)
        lam = self.wp_value(race, car)
        # The choice ignores other cars, so it is a pure function of this key (memoised).
        key = (
            self.pit_below,
            race.track,
            race.rules,
            car.pos,
            car.gear,
            car.corner,
            car.stops,
            car.wp,
            lam,
            tuple(allowed),
        )
        cached = _GEARS.get(key)
        if cached is not None:
            return cached
        if len(_GEARS) > 100_000:
            _GEARS.clear()
        gear = self._choose_gear(race, car, allowed, lam)
        _GEARS[key] = gear
        return gear

    def _choose_gear(self, race: Race, car: Car, allowed: Sequence[int], lam: float) -> int:
        best_gear, best_value = allowed[0], float("-inf")
        base = self._lane_values(race, car, lam)
        brake = race.rules.brake_wp_per_space * lam
        for gear in allowed:
            cost = race.downshift_cost(car, gear)
            if cost >= car.wp:
                continue
            # best over k <= r of value(k) - brake * (r - k): a running maximum of value + brake*k
            running = float("-inf")
            prefix: list[float] = []
            for k, (value, limit) in enumerate(base):
                running = max(running, value + self._future(race, gear, limit, lam) + brake * k)
                prefix.append(running)
            expected = -cost * lam
            for face, p in DISTRIBUTIONS[gear]:
                k = min(face, len(prefix) - 1)
                expected += p * (prefix[k] - brake * face)
            if expected > best_value:
                best_gear, best_value = gear, expected
        return best_gear

    def _lane_values(self, race: Race, car: Car, lam: float) -> list[tuple[float, int]]:
        """For k = 0..36 straight ahead: (value without braking, next move's safe limit)."""
        tables = lane_tables(race.track)
        rules = race.rules
        windows = tables.windows[car.pos]
        cells = tables.ahead[car.pos]
        track = race.track
        start = track.nominal_coord(car.pos)
        out: list[tuple[float, int]] = []
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
            if out_now:
                out.append((OUT, 0))
                continue
            cost = over * rules.overshoot_wp_per_space
            value = self._progress(track, start, cells[k]) - lam * cost
            if cost >= car.wp:
                value = OUT
            out.append((value, limit))
        return out

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
        lam = self.wp_value(race, car)
        pit = self.wants_pit(race, car)
        best = options[0]
        best_value = float("-inf")
        for option in options:
            value = self.option_value(race, car, option, lam, pit)
            if value > best_value:
                best, best_value = option, value
        return best

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
