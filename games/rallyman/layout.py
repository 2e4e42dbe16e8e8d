"""The stage layout format: a JSON document describing the road, tile by tile, piece by piece.

The official tiles are not available as data, so Podium describes a stage by its road::

    {"format": 1, "name": "Gravel Flats", "description": "...",
     "tiles": [{"name": "A", "danger": "none", "pieces": [
        {"kind": "start"},
        {"kind": "straight", "rows": 4, "features": [
            {"row": 2, "lane": "left", "jump": 4}, {"row": 3, "lane": "both", "ford": true}]},
        {"kind": "drift", "rows": 1},
        {"kind": "corner", "turn": "left", "inside": [3, 3], "outside": [5, 5, 5],
         "features": [{"lane": "outside", "index": 1, "obstacle": true}],
         "shortcut": {"limit": 3, "spaces": 1}},
        {"kind": "finish"}]}]}

- A road is two lanes wide (``left``/``right`` on straights; ``inside``/``outside`` in corners).
- ``straight``: ``rows`` rows of two spaces. ``drift``: rows that a car takes as one normal space
  or drifts through as two spaces across the road (RM-18); only next to a corner.
- ``corner``: the speed limit of each space of the inside and outside lanes (RM-16); the inside
  lane has no more spaces than the outside one. ``shortcut``: a chain of ``spaces`` shortcut
  spaces with the entry ``limit`` (RM-19), from the row before the corner to the row after it
  (neither may be a corner).
- Features: ``jump`` (N, RM-20), ``ford`` (RM-21) or ``obstacle`` (RM-24); one per space.
- ``danger`` of a tile: ``none``, ``yellow``, ``orange`` or ``red`` (RM-38).
- ``start`` is the first piece of the first tile (the row behind the start line, RM-5);
  ``finish`` the last piece of the last tile (the line, then the row past it, RM-41).

:func:`parse_layout` checks a document and reports every problem with the path of the bad
element (``tiles[1].pieces[2].inside[0]``).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeGuard

from games.rallyman.errors import RallymanError
from scoring.rally.rules import DANGER_LEVELS

FORMAT_VERSION = 1
SAMPLE_STAGES = ("gravel-flats", "twisty-jumps", "ford-cuts")
MAX_ROWS = 40
MAX_LANE_SPACES = 12


@dataclass(frozen=True, slots=True)
class Feature:
    """A feature on one space: a jump of ``jump`` (0 = none), a ford or an obstacle."""

    lane: str
    index: int
    jump: int = 0
    ford: bool = False
    obstacle: bool = False


@dataclass(frozen=True, slots=True)
class Shortcut:
    """RM-19: ``spaces`` shortcut spaces around a corner, entered at ``limit`` or below."""

    limit: int
    spaces: int


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of road. ``rows`` for straight/drift; lane limits and ``turn`` for corners."""

    kind: str
    rows: int = 1
    turn: str = ""
    inside: tuple[int, ...] = ()
    outside: tuple[int, ...] = ()
    features: tuple[Feature, ...] = ()
    shortcut: Shortcut | None = None


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile: its danger level (RM-38) and pieces; mud (RM-19) applies tile-wide."""

    name: str
    danger: str
    pieces: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    """A checked stage layout."""

    name: str
    description: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class LayoutIssue:
    """One problem of a layout document, with the path of the bad element."""

    path: str
    code: str
    message: str
    params: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The issue as the service reports it."""
        return {
            "path": self.path,
            "code": self.code,
            "message": self.message,
            "params": self.params,
        }


class LayoutInvalid(RallymanError):
    """A layout document with problems; ``issues`` lists every one of them."""

    def __init__(self, issues: list[LayoutIssue]) -> None:
        first = issues[0]
        super().__init__(
            f"{first.path}: {first.message}"
            + (f" (and {len(issues) - 1} more)" if len(issues) > 1 else ""),
            "layout_invalid",
            issues=[i.to_json() for i in issues],
        )
        self.issues = issues


class _Checker:
    """Collects issues while reading a document."""

    def __init__(self) -> None:
        self.issues: list[LayoutIssue] = []

    def add(self, path: str, code: str, message: str, **params: Any) -> None:
        self.issues.append(LayoutIssue(path or "$", code, message, params))

    def obj(self, value: Any, path: str, allowed: tuple[str, ...]) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add(path, "not_object", "Expected an object.")
            return None
        for key in value:
            if key not in allowed:
                self.add(_join(path, key), "unknown_key", f"Unknown key {key!r}.", key=key)
        return value

    def integer(self, value: Any, path: str, low: int, high: int) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "not_int", "Expected an integer.")
            return None
        if not low <= value <= high:
            self.add(path, "out_of_range", f"Must be between {low} and {high}.", low=low, high=high)
            return None
        return value

    def choice(
        self, value: Any, path: str, code: str, label: str, choices: Collection[str]
    ) -> TypeGuard[str]:
        """Whether ``value`` is one of ``choices``; reports ``code`` at ``path`` when it is not."""
        if value in choices:
            return True
        message = f"{label} must be one of: {', '.join(choices)}."
        self.add(path, code, message, choices=list(choices))
        return False

    def text(self, value: Any, path: str, *, required: bool = True) -> str | None:
        if not isinstance(value, str) or (required and not value.strip()):
            self.add(
                path,
                "not_text",
                "Expected a non-empty string." if required else "Expected a string.",
            )
            return None
        return value


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


_PIECE_KEYS = {
    "start": ("kind",),
    "finish": ("kind",),
    "straight": ("kind", "rows", "features"),
    "drift": ("kind", "rows"),
    "corner": ("kind", "turn", "inside", "outside", "features", "shortcut"),
}


def _limits(c: _Checker, value: Any, path: str) -> tuple[int, ...] | None:
    if not isinstance(value, list) or not value:
        c.add(path, "not_limit_list", "Expected a non-empty list of speed limits.")
        return None
    if len(value) > MAX_LANE_SPACES:
        c.add(path, "too_many_spaces", f"At most {MAX_LANE_SPACES} spaces.", limit=MAX_LANE_SPACES)
        return None
    out = [c.integer(v, _join(path, i), 1, 6) for i, v in enumerate(value)]
    return None if any(v is None for v in out) else tuple(v for v in out if v is not None)


def _features(c: _Checker, value: Any, path: str, piece: Piece) -> tuple[Feature, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        c.add(path, "not_list", "Expected a list of features.")
        return ()
    out: list[Feature] = []
    taken: set[tuple[str, int]] = set()
    for i, raw in enumerate(value):
        fpath = _join(path, i)
        read = _feature(c, raw, fpath, piece)
        if read is None:
            continue
        lane, index, jump, ford, obstacle = read
        for one in ("left", "right") if lane == "both" else (lane,):
            if (one, index) in taken:
                c.add(
                    fpath,
                    "feature_conflict",
                    "This space already has a feature.",
                    lane=one,
                    index=index,
                )
            taken.add((one, index))
            out.append(Feature(one, index, jump, ford, obstacle))
    _check_open(c, path, piece, out)
    return tuple(out)


def _feature(
    c: _Checker, raw: Any, fpath: str, piece: Piece
) -> tuple[str, int, int, bool, bool] | None:
    """One feature: (lane, index, jump, ford, obstacle), or None when it is not usable."""
    corner = piece.kind == "corner"
    lanes = ("inside", "outside") if corner else ("left", "right", "both")
    where = "index" if corner else "row"
    data = c.obj(raw, fpath, (where, "lane", "jump", "ford", "obstacle"))
    if data is None:
        return None
    lane = data.get("lane")
    if not c.choice(lane, _join(fpath, "lane"), "bad_lane", "Lane", lanes):
        return None
    lane = str(lane)
    count = len(piece.inside if lane == "inside" else piece.outside) if corner else piece.rows
    index = c.integer(data.get(where), _join(fpath, where), 0, max(count - 1, 0))
    kinds = [k for k in ("jump", "ford", "obstacle") if k in data]
    if len(kinds) != 1:
        c.add(fpath, "one_feature", "Give exactly one of jump, ford or obstacle.")
        return None
    jump = 0
    if "jump" in data:
        jump = c.integer(data["jump"], _join(fpath, "jump"), 1, 6) or 0
    for flag in ("ford", "obstacle"):
        if flag in data and data[flag] is not True:
            c.add(_join(fpath, flag), "not_true", f"{flag} must be true.")
    if index is None:
        return None
    return lane, index, jump, "ford" in data, "obstacle" in data


def _check_open(c: _Checker, path: str, piece: Piece, out: list[Feature]) -> None:
    """RM-24: obstacles on every lane of a row (or a whole corner lane) would close the road."""
    corner = piece.kind == "corner"
    for row in range(piece.rows if not corner else 0):
        if all(
            any(f.obstacle and f.lane == ln and f.index == row for f in out)
            for ln in ("left", "right")
        ):
            c.add(path, "road_blocked", f"Obstacles close row {row}.", row=row)
    for lane in ("inside", "outside") if corner else ():
        n = len(piece.inside if lane == "inside" else piece.outside)
        if n and all(
            any(f.obstacle and f.lane == lane and f.index == k for f in out) for k in range(n)
        ):
            c.add(path, "road_blocked", f"Obstacles close the {lane} lane.", lane=lane)


def _piece(c: _Checker, raw: Any, path: str) -> Piece | None:
    if not isinstance(raw, dict):
        c.add(path, "not_object", "Expected an object.")
        return None
    kind = raw.get("kind")
    if not c.choice(kind, _join(path, "kind"), "bad_kind", "kind", _PIECE_KEYS):
        return None
    data = c.obj(raw, path, _PIECE_KEYS[kind])
    if data is None:
        return None
    if kind in ("start", "finish"):
        return Piece(kind)
    if kind in ("straight", "drift"):
        high = MAX_ROWS if kind == "straight" else 4
        rows = c.integer(data.get("rows"), _join(path, "rows"), 1, high)
        if rows is None:
            return None
        piece = Piece(kind, rows=rows)
        if kind == "straight":
            feats = _features(c, data.get("features"), _join(path, "features"), piece)
            piece = Piece(kind, rows=rows, features=feats)
        return piece
    return _corner(c, data, path)


def _corner(c: _Checker, data: dict[str, Any], path: str) -> Piece | None:
    turn = data.get("turn")
    if turn not in ("left", "right"):
        c.add(_join(path, "turn"), "bad_turn", "turn must be left or right.")
    inside = _limits(c, data.get("inside"), _join(path, "inside"))
    outside = _limits(c, data.get("outside"), _join(path, "outside"))
    if inside is None or outside is None or turn not in ("left", "right"):
        return None
    if len(inside) > len(outside):
        c.add(path, "inside_longer", "The inside lane may not have more spaces than the outside.")
    shortcut = _shortcut(c, data, path)
    piece = Piece("corner", turn=str(turn), inside=inside, outside=outside, shortcut=shortcut)
    feats = _features(c, data.get("features"), _join(path, "features"), piece)
    return Piece(
        "corner", turn=str(turn), inside=inside, outside=outside, features=feats, shortcut=shortcut
    )


def _shortcut(c: _Checker, data: dict[str, Any], path: str) -> Shortcut | None:
    if "shortcut" not in data:
        return None
    spath = _join(path, "shortcut")
    sc = c.obj(data["shortcut"], spath, ("limit", "spaces"))
    if sc is None:
        return None
    limit = c.integer(sc.get("limit"), _join(spath, "limit"), 1, 6)
    spaces = c.integer(sc.get("spaces"), _join(spath, "spaces"), 1, 6)
    if limit is None or spaces is None:
        return None
    return Shortcut(limit, spaces)


def layout_issues(data: Any) -> list[LayoutIssue]:
    """Every problem of a layout document (empty when it is valid)."""
    return _read(data)[1]


def parse_layout(data: Any) -> Layout:
    """Check and read a layout document; raises :class:`LayoutInvalid` listing every issue."""
    layout, issues = _read(data)
    if issues or layout is None:
        raise LayoutInvalid(issues)
    return layout


def _read(data: Any) -> tuple[Layout | None, list[LayoutIssue]]:
    c = _Checker()
    root = c.obj(data, "", ("format", "name", "description", "tiles"))
    if root is None:
        return None, c.issues
    if root.get("format") != FORMAT_VERSION:
        c.add("format", "bad_format", f"format must be {FORMAT_VERSION}.", expected=FORMAT_VERSION)
    name = c.text(root.get("name"), "name")
    description = root.get("description", "")
    if not isinstance(description, str):
        c.add("description", "not_text", "Expected a string.")
        description = ""
    raw_tiles = root.get("tiles")
    if not isinstance(raw_tiles, list) or not raw_tiles:
        c.add("tiles", "no_tiles", "Expected a non-empty list of tiles.")
        return None, c.issues
    tiles: list[Tile] = []
    names: set[str] = set()
    placed: list[tuple[str, Piece]] = []
    for t, raw_tile in enumerate(raw_tiles):
        tile = _tile(c, raw_tile, t, names, placed)
        if tile is not None:
            tiles.append(tile)
    if c.issues:
        return None, c.issues
    _check_sequence(c, placed)
    if c.issues:
        return None, c.issues
    return Layout(str(name), description, tuple(tiles)), c.issues


def _tile(
    c: _Checker, raw_tile: Any, t: int, names: set[str], placed: list[tuple[str, Piece]]
) -> Tile | None:
    """One tile: a unique name, a danger level (RM-38) and its pieces (added to ``placed``)."""
    tpath = _join("tiles", t)
    tile = c.obj(raw_tile, tpath, ("name", "danger", "pieces"))
    if tile is None:
        return None
    tname = c.text(tile.get("name"), _join(tpath, "name")) or f"#{t}"
    if tname in names:
        c.add(_join(tpath, "name"), "duplicate_tile", f"Tile name {tname!r} is used twice.")
    names.add(tname)
    danger = tile.get("danger", "none")
    if not c.choice(danger, _join(tpath, "danger"), "bad_danger", "danger", DANGER_LEVELS):
        danger = "none"
    raw_pieces = tile.get("pieces")
    if not isinstance(raw_pieces, list) or not raw_pieces:
        c.add(_join(tpath, "pieces"), "no_pieces", "Expected a non-empty list of pieces.")
        return None
    pieces: list[Piece] = []
    for p, raw_piece in enumerate(raw_pieces):
        ppath = _join(_join(tpath, "pieces"), p)
        piece = _piece(c, raw_piece, ppath)
        if piece is not None:
            pieces.append(piece)
            placed.append((ppath, piece))
    return Tile(tname, str(danger), tuple(pieces))


def _check_sequence(c: _Checker, placed: list[tuple[str, Piece]]) -> None:
    """Checks across pieces: start and finish, drift areas and shortcut ends."""
    kinds = [p.kind for _, p in placed]
    if kinds[0] != "start":
        c.add(placed[0][0], "start_first", "The first piece of the first tile must be the start.")
    if kinds[-1] != "finish":
        c.add(placed[-1][0], "finish_last", "The last piece of the last tile must be the finish.")
    for i, (path, piece) in enumerate(placed):
        _check_place(c, i, path, piece, kinds)
    if len(placed) < 3:
        c.add("tiles", "no_road", "A stage needs road between its start and finish.")


def _check_place(c: _Checker, i: int, path: str, piece: Piece, kinds: list[str]) -> None:
    """Piece ``i`` against its neighbours: the start and finish once, drifts by a corner,
    shortcut ends."""
    if piece.kind == "start" and i != 0:
        c.add(path, "start_twice", "The start must be the very first piece, once.")
    if piece.kind == "finish" and i != len(kinds) - 1:
        c.add(path, "finish_twice", "The finish must be the very last piece, once.")
    before = kinds[i - 1] if i > 0 else None
    after = kinds[i + 1] if i + 1 < len(kinds) else None
    if piece.kind == "drift" and "corner" not in (before, after):
        c.add(path, "drift_not_by_corner", "A drift area must touch a corner (RM-18).")
    if piece.kind == "corner" and piece.shortcut is not None:
        # RM-19: a shortcut connects to any space except corner spaces.
        if before in ("corner", "start", None):
            c.add(
                _join(path, "shortcut"),
                "shortcut_entry",
                "A shortcut needs a straight or drift piece before its corner.",
            )
        if after in ("corner", None):
            c.add(
                _join(path, "shortcut"),
                "shortcut_exit",
                "A shortcut needs a straight, drift or finish piece after its corner.",
            )


def sample_document(name: str) -> dict[str, Any]:
    """The JSON document of a shipped sample stage (``SAMPLE_STAGES``)."""
    if name not in SAMPLE_STAGES:
        raise RallymanError(
            f"Unknown sample stage {name!r}; choose one of: " + ", ".join(SAMPLE_STAGES) + ".",
            "unknown_sample",
            name=name,
            choices=list(SAMPLE_STAGES),
        )
    text = (
        resources.files("games.rallyman")
        .joinpath("stages")
        .joinpath(f"{name}.json")
        .read_text("utf-8")
    )
    document: dict[str, Any] = json.loads(text)
    return document


def load_layout(value: str | dict[str, Any]) -> Layout:
    """A stage's ``layout`` as the API gives it: a sample-stage name or a layout document."""
    if isinstance(value, str):
        return parse_layout(sample_document(value))
    return parse_layout(value)
