"""Circuits as data (formula_d.md §15): the JSON format, its validator and the shipped circuits.

A circuit is a cyclic list of segments (straights and corners) with a length per lane, plus the
finish line, the grid, the pit lane, the weather chart and street-racing features. Spaces in JSON
are numbered from 1 within their segment and lane; in Python they are 0-based ``Pos`` tuples
``(segment index, lane index, space index)``. :func:`circuit_from_json` reports every problem of a
malformed file at once in one :class:`CircuitError` (code ``invalid_circuit``).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any, Literal

from games.formula_d.errors import CircuitError

Pos = tuple[int, int, int]
Kind = Literal["straight", "corner"]


@dataclass(frozen=True)
class Segment:
    """A straight or a corner; ``lengths`` per lane index, corners with FD-18/FD-20 data."""

    id: str
    kind: Kind
    label: str
    lengths: tuple[int, ...]
    stops: int = 0
    longest: int = 0
    shortest: int = 0
    inside: int | None = None  # lane index of the inside of the corner (FD-10)

    @property
    def is_corner(self) -> bool:
        return self.kind == "corner"


@dataclass(frozen=True)
class Line:
    """A line across a segment: ``after[lane]`` spaces of that lane lie before it."""

    segment: int
    after: tuple[int, ...]


@dataclass(frozen=True)
class PitLane:
    """FD-43 to FD-50: a one-lane bypass from ``entry`` (replaces that track space) to ``exit``."""

    entry: Pos
    exit: Pos
    length: int
    boxes: tuple[int, ...]  # 0-based pit-lane spaces, in box order (FD-44)


@dataclass(frozen=True)
class WeatherChart:
    """FD-67: black-die bands; rain is 1..rain_max, changeable up to changeable_max, good above."""

    rain_max: int
    changeable_max: int


@dataclass(frozen=True)
class StreetFeatures:
    """FD-51: spaces marked for the street-racing rules (empty on Monaco)."""

    noise: frozenset[Pos] = frozenset()
    danger: frozenset[Pos] = frozenset()
    tunnels: tuple[tuple[Pos, Pos], ...] = ()
    police_line: Line | None = None


@dataclass(frozen=True)
class Circuit:
    """A validated circuit."""

    name: str
    lanes: tuple[str, ...]
    segments: tuple[Segment, ...]
    finish_line: Line
    grid: tuple[Pos, ...]
    pit: PitLane | None = None
    weather: WeatherChart | None = None
    street: StreetFeatures = StreetFeatures()

    def pos_json(self, pos: Pos) -> dict[str, Any]:
        """The JSON form of a track space (1-based ``space``)."""
        seg, lane, space = pos
        return {"segment": self.segments[seg].id, "lane": self.lanes[lane], "space": space + 1}


class _Checker:
    """Collects every problem with its JSON path, so one error lists them all."""

    def __init__(self) -> None:
        self.problems: list[dict[str, Any]] = []

    def fail(self, path: str, code: str, message: str) -> None:
        self.problems.append({"path": path, "code": code, "message": message})

    def int_in(self, value: Any, path: str, low: int, high: int | None = None) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(path, "not_int", "Expected an integer.")
            return None
        if value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            self.fail(path, "out_of_range", f"Must be {bound}.")
            return None
        return value


def circuit_from_json(data: Any) -> Circuit:
    """Validate a circuit document and build the :class:`Circuit`; raise CircuitError if bad."""
    ck = _Checker()
    circuit = _parse(data, ck)
    if ck.problems or circuit is None:
        first = ck.problems[0] if ck.problems else {"path": "", "message": "Invalid circuit."}
        summary = f"Invalid circuit: {first['path'] or 'document'}: {first['message']}"
        if len(ck.problems) > 1:
            summary += f" (and {len(ck.problems) - 1} more problems)"
        raise CircuitError(summary, "invalid_circuit", errors=ck.problems)
    return circuit


def _parse(data: Any, ck: _Checker) -> Circuit | None:
    if not isinstance(data, dict):
        ck.fail("", "not_object", "A circuit must be a JSON object.")
        return None
    known = {
        "circuit",
        "name",
        "lanes",
        "spaces",
        "segments",
        "finish_line",
        "grid",
        "pit_lane",
        "weather",
        "street",
    }
    for key in sorted(set(data) - known):
        ck.fail(key, "unknown_key", "Unknown key.")
    name = data.get("circuit")
    if not isinstance(name, str) or not name:
        ck.fail("circuit", "required", "A non-empty circuit name is required.")
        name = ""
    lanes = data.get("lanes")
    if (
        not isinstance(lanes, list)
        or not 1 <= len(lanes) <= 4
        or not all(isinstance(x, str) and x for x in lanes)
        or len(set(lanes)) != len(lanes)
    ):
        ck.fail("lanes", "bad_lanes", "lanes must list 1 to 4 distinct lane names.")
        return None
    segments = _segments(data.get("segments"), tuple(lanes), ck)
    if segments is None:
        return None
    if "spaces" in data:
        total = sum(sum(s.lengths) for s in segments)
        if data["spaces"] != total:
            ck.fail(
                "spaces",
                "spaces_mismatch",
                f"spaces says {data['spaces']}, the segments hold {total}.",
            )
    finder = _Finder(tuple(lanes), segments, ck)
    line = finder.line(data.get("finish_line"), "finish_line")
    if line is None:
        return None
    if segments[line.segment].is_corner:
        ck.fail("finish_line.segment", "line_in_corner", "The finish line must be on a straight.")
    grid = _grid(data.get("grid"), finder, line, ck)
    pit = _pit(data.get("pit_lane"), finder, line, ck) if "pit_lane" in data else None
    weather = _weather(data["weather"], ck) if "weather" in data else None
    street = _street(data.get("street", {}), finder, ck)
    return Circuit(name, tuple(lanes), segments, line, grid, pit, weather, street)


def _segments(raw: Any, lanes: tuple[str, ...], ck: _Checker) -> tuple[Segment, ...] | None:
    if not isinstance(raw, list) or len(raw) < 2:
        ck.fail("segments", "bad_segments", "segments must list at least two segments.")
        return None
    out: list[Segment] = []
    seen: set[str] = set()
    for i, s in enumerate(raw):
        segment = _segment(s, f"segments[{i}]", i, lanes, seen, ck)
        if segment is not None:
            out.append(segment)
    if len(out) != len(raw):
        return None
    if not any(s.is_corner for s in out):
        ck.fail("segments", "no_corner", "A circuit needs at least one corner.")
    return tuple(out)


def _segment(
    s: Any, path: str, i: int, lanes: tuple[str, ...], seen: set[str], ck: _Checker
) -> Segment | None:
    """One segment: its id, kind and lengths, then a corner's own fields."""
    if not isinstance(s, dict):
        ck.fail(path, "not_object", "A segment must be an object.")
        return None
    sid = s.get("id")
    if not isinstance(sid, str) or not sid or sid in seen:
        ck.fail(f"{path}.id", "bad_id", "Each segment needs a unique non-empty id.")
        sid = f"#{i}"
    seen.add(sid)
    kind = s.get("kind")
    if kind not in ("straight", "corner"):
        ck.fail(f"{path}.kind", "bad_kind", 'kind must be "straight" or "corner".')
        return None
    lens = _lengths(s.get("length"), path, lanes, ck)
    if lens is None:
        return None
    label = str(s.get("label", sid))
    if kind == "straight":
        for key in ("stops", "longest", "shortest", "inside"):
            if key in s:
                ck.fail(f"{path}.{key}", "straight_field", f"A straight has no {key}.")
        return Segment(sid, "straight", label, lens)
    return _corner(s, path, sid, label, lens, lanes, ck)


def _lengths(
    length: Any, path: str, lanes: tuple[str, ...], ck: _Checker
) -> tuple[int, ...] | None:
    if not isinstance(length, dict) or set(length) != set(lanes):
        ck.fail(
            f"{path}.length",
            "bad_length",
            "length needs one entry per lane: " + ", ".join(lanes) + ".",
        )
        return None
    lengths = [ck.int_in(length[lane], f"{path}.length.{lane}", 1, 200) for lane in lanes]
    if any(x is None for x in lengths):
        return None
    return tuple(int(x) for x in lengths if x is not None)


def _corner(
    s: dict[str, Any],
    path: str,
    sid: str,
    label: str,
    lens: tuple[int, ...],
    lanes: tuple[str, ...],
    ck: _Checker,
) -> Segment:
    """FD-18/FD-20: a corner's stops, longest and shortest paths and inside lane."""
    stops = ck.int_in(s.get("stops"), f"{path}.stops", 1, 3)
    longest = ck.int_in(s.get("longest"), f"{path}.longest", 1, 200)
    shortest = ck.int_in(s.get("shortest"), f"{path}.shortest", 1, 200)
    if longest is not None and shortest is not None and shortest > longest:
        ck.fail(f"{path}.shortest", "shortest_above_longest", "shortest may not exceed longest.")
    inside = _inside(s.get("inside"), path, lens, lanes, ck)
    return Segment(sid, "corner", label, lens, stops or 1, longest or 1, shortest or 1, inside)


def _inside(
    inside: Any, path: str, lens: tuple[int, ...], lanes: tuple[str, ...], ck: _Checker
) -> int | None:
    if inside is None:
        # FD-10: the inside of a corner is its shortest lane, unless the data says otherwise.
        low = min(lens)
        candidates = [k for k, x in enumerate(lens) if x == low]
        if len(candidates) == 1:
            return candidates[0]
        ck.fail(
            f"{path}.inside",
            "inside_ambiguous",
            "Lanes of equal length: say which lane is the inside.",
        )
        return None
    if inside in lanes:
        return lanes.index(inside)
    ck.fail(f"{path}.inside", "unknown_lane", "inside must be a lane name.")
    return None


class _Finder:
    """Resolves JSON space and line references against the segments."""

    def __init__(self, lanes: tuple[str, ...], segments: tuple[Segment, ...], ck: _Checker):
        self.lanes = lanes
        self.segments = segments
        self.index = {s.id: i for i, s in enumerate(segments)}
        self.ck = ck

    def segment(self, raw: Any, path: str) -> int | None:
        if raw not in self.index:
            self.ck.fail(path, "unknown_segment", f"Unknown segment {raw!r}.")
            return None
        return self.index[raw]

    def space(self, raw: Any, path: str) -> Pos | None:
        if not isinstance(raw, dict) or set(raw) != {"segment", "lane", "space"}:
            self.ck.fail(path, "bad_space", 'A space is {"segment", "lane", "space"}.')
            return None
        seg = self.segment(raw["segment"], f"{path}.segment")
        if raw["lane"] not in self.lanes:
            self.ck.fail(f"{path}.lane", "unknown_lane", f"Unknown lane {raw['lane']!r}.")
            return None
        if seg is None:
            return None
        lane = self.lanes.index(raw["lane"])
        number = self.ck.int_in(raw["space"], f"{path}.space", 1, self.segments[seg].lengths[lane])
        return None if number is None else (seg, lane, number - 1)

    def line(self, raw: Any, path: str) -> Line | None:
        if not isinstance(raw, dict) or set(raw) != {"segment", "after"}:
            self.ck.fail(path, "bad_line", 'A line is {"segment", "after": {lane: spaces}}.')
            return None
        seg = self.segment(raw["segment"], f"{path}.segment")
        after = raw["after"]
        if seg is None or not isinstance(after, dict) or set(after) != set(self.lanes):
            self.ck.fail(f"{path}.after", "bad_line", "after needs one entry per lane.")
            return None
        values = [
            self.ck.int_in(
                after[lane], f"{path}.after.{lane}", 1, self.segments[seg].lengths[k] - 1
            )
            for k, lane in enumerate(self.lanes)
        ]
        if any(v is None for v in values):
            return None
        return Line(seg, tuple(int(v) for v in values if v is not None))


def _frac(segments: tuple[Segment, ...], pos: Pos) -> Fraction:
    seg, lane, space = pos
    return Fraction(space + 1, segments[seg].lengths[lane])


def _grid(raw: Any, finder: _Finder, line: Line, ck: _Checker) -> tuple[Pos, ...]:
    if not isinstance(raw, list) or not raw:
        ck.fail("grid", "bad_grid", "grid must list at least one slot, pole first.")
        return ()
    slots: list[Pos] = []
    for i, item in enumerate(raw):
        pos = finder.space(item, f"grid[{i}]")
        if pos is None:
            continue
        if pos[0] != line.segment or pos[2] >= line.after[pos[1]]:
            ck.fail(
                f"grid[{i}]",
                "grid_not_behind_line",
                "Grid slots must lie behind the finish line, in its segment.",
            )
        slots.append(pos)
    if len(set(slots)) != len(slots):
        ck.fail("grid", "grid_duplicate", "Two grid slots share a space.")
    fracs = [_frac(finder.segments, p) for p in slots]
    if any(a <= b for a, b in itertools.pairwise(fracs)):
        ck.fail("grid", "grid_order", "Grid slots must be listed from pole backwards.")
    return tuple(slots)


def _pit(raw: Any, finder: _Finder, line: Line, ck: _Checker) -> PitLane | None:
    if not isinstance(raw, dict) or set(raw) != {"entry", "exit", "length", "boxes"}:
        ck.fail("pit_lane", "bad_pit_lane", "pit_lane needs entry, exit, length and boxes.")
        return None
    entry = finder.space(raw["entry"], "pit_lane.entry")
    exit_ = finder.space(raw["exit"], "pit_lane.exit")
    length = ck.int_in(raw["length"], "pit_lane.length", 1, 100)
    boxes = raw["boxes"]
    if entry is None or exit_ is None or length is None:
        return None
    # FD-47: the box counts the lap, so the pit lane must bypass the line (project rule).
    if entry[0] != line.segment or entry[2] >= line.after[entry[1]]:
        ck.fail(
            "pit_lane.entry",
            "pit_entry_after_line",
            "The pit entry must lie before the finish line, in its segment.",
        )
    if exit_[0] != line.segment or exit_[2] < line.after[exit_[1]]:
        ck.fail(
            "pit_lane.exit",
            "pit_exit_before_line",
            "The pit exit must lie after the finish line, in its segment.",
        )
    if (
        not isinstance(boxes, list)
        or not boxes
        or not all(
            isinstance(b, int) and not isinstance(b, bool) and 1 <= b <= length for b in boxes
        )
        or any(a >= b for a, b in itertools.pairwise(boxes))
    ):
        ck.fail(
            "pit_lane.boxes",
            "bad_boxes",
            "boxes must list increasing pit-lane spaces between 1 and length.",
        )
        return None
    return PitLane(entry, exit_, length, tuple(b - 1 for b in boxes))


def _weather(raw: Any, ck: _Checker) -> WeatherChart | None:
    bands = ("rain", "changeable", "good")
    if not isinstance(raw, dict) or set(raw) != set(bands):
        ck.fail("weather", "bad_weather", "weather needs rain, changeable and good bands.")
        return None
    expected_low = 1
    highs: list[int] = []
    for band in bands:
        pair = raw[band]
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
            or pair[0] != expected_low
            or pair[1] < pair[0]
        ):
            ck.fail(
                f"weather.{band}",
                "bad_band",
                "Bands must be [low, high] pairs covering 1-20 in order rain, changeable, good.",
            )
            return None
        highs.append(pair[1])
        expected_low = pair[1] + 1
    if highs[-1] != 20:
        ck.fail("weather.good", "bad_band", "The good band must end at 20.")
        return None
    return WeatherChart(highs[0], highs[1])


def _street(raw: Any, finder: _Finder, ck: _Checker) -> StreetFeatures:
    if not isinstance(raw, dict) or not set(raw) <= {"noise", "danger", "tunnels", "police_line"}:
        ck.fail("street", "bad_street", "street may hold noise, danger, tunnels, police_line.")
        return StreetFeatures()
    spaces: dict[str, frozenset[Pos]] = {}
    for key in ("noise", "danger"):
        items = raw.get(key, [])
        if not isinstance(items, list):
            ck.fail(f"street.{key}", "bad_spaces", "Expected a list of spaces.")
            items = []
        found = [finder.space(item, f"street.{key}[{i}]") for i, item in enumerate(items)]
        spaces[key] = frozenset(p for p in found if p is not None)
    tunnels: list[tuple[Pos, Pos]] = []
    for i, pair in enumerate(raw.get("tunnels", [])):
        if not isinstance(pair, list) or len(pair) != 2:
            ck.fail(f"street.tunnels[{i}]", "bad_tunnel", "A tunnel is a [from, to] pair.")
            continue
        a = finder.space(pair[0], f"street.tunnels[{i}][0]")
        b = finder.space(pair[1], f"street.tunnels[{i}][1]")
        if a is not None and b is not None:
            if a == b:
                ck.fail(f"street.tunnels[{i}]", "bad_tunnel", "A tunnel joins two spaces.")
            tunnels.append((a, b))
    ends = [p for pair in tunnels for p in pair]
    if len(set(ends)) != len(ends):
        ck.fail("street.tunnels", "tunnel_overlap", "A space belongs to two tunnel ends.")
    police = finder.line(raw["police_line"], "street.police_line") if "police_line" in raw else None
    return StreetFeatures(spaces["noise"], spaces["danger"], tuple(tunnels), police)


_SHIPPED: dict[str, Circuit] = {}


def load_circuit(name: str) -> Circuit:
    """A shipped circuit by name (``monaco``); unknown names raise CircuitError.

    Circuits are immutable, so each shipped file is read and validated once per process.
    """
    circuit = _SHIPPED.get(name)
    if circuit is None:
        circuit = _SHIPPED[name] = _read_shipped(name)
    return circuit


def _read_shipped(name: str) -> Circuit:
    if not name.isidentifier():
        raise CircuitError(f"Unknown circuit {name!r}.", "unknown_circuit", circuit=name)
    try:
        text = resources.files("games.formula_d.circuits").joinpath(f"{name}.json").read_text()
    except FileNotFoundError:
        raise CircuitError(f"Unknown circuit {name!r}.", "unknown_circuit", circuit=name) from None
    return circuit_from_json(json.loads(text))


def shipped_circuits() -> tuple[str, ...]:
    """Names of the circuits shipped with the engine."""
    folder = resources.files("games.formula_d.circuits")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))
