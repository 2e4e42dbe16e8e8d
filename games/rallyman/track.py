"""The space graph of a stage, built from a checked :class:`~games.rallyman.layout.Layout`.

Every space gets an integer id; per-space facts are tuples indexed by id so the engine and the
policy read them without attribute lookups. Progress along the road is measured in rows (a corner
is as long as its inside lane); ``front`` ranks the front edges for the turn order (RM-7).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from games.rallyman.layout import Layout, Piece
from scoring.rally.rules import DANGER_LEVELS

START, ROAD, CORNER, DRIFT, SHORTCUT, FINISH = range(6)
KIND_NAMES = ("start", "road", "corner", "drift", "shortcut", "finish")
# RM-23: the method by which a car is in a corner or a drift area.
NO_METHOD, INSIDE, OUTSIDE, NORMAL, DRIFTING = range(5)


@dataclass(frozen=True, slots=True)
class Track:
    """The built stage. Limits of 0 mean "none"; ``area`` -1 means outside corners and drifts."""

    name: str
    labels: tuple[str, ...]
    kind: tuple[int, ...]
    succ: tuple[tuple[int, ...], ...]
    preds: tuple[tuple[int, ...], ...]
    adjacent: tuple[frozenset[int], ...]
    corner_limit: tuple[int, ...]
    shortcut_limit: tuple[int, ...]
    jump: tuple[int, ...]
    ford: tuple[bool, ...]
    obstacle: tuple[bool, ...]
    tile: tuple[int, ...]
    danger: tuple[int, ...]
    area: tuple[int, ...]
    method: tuple[int, ...]
    front: tuple[int, ...]
    progress: tuple[float, ...]
    inside_rank: tuple[int, ...]
    start_spaces: tuple[int, ...]
    tile_names: tuple[str, ...]
    length: float

    @property
    def size(self) -> int:
        """Number of spaces."""
        return len(self.kind)

    def is_finish(self, space: int) -> bool:
        """True for the row past the finish line (RM-41)."""
        return self.kind[space] == FINISH


class _Builder:
    def __init__(self) -> None:
        self.labels: list[str] = []
        self.kind: list[int] = []
        self.succ: list[list[int]] = []
        self.adj: list[set[int]] = []
        self.corner_limit: list[int] = []
        self.shortcut_limit: list[int] = []
        self.jump: list[int] = []
        self.ford: list[bool] = []
        self.obstacle: list[bool] = []
        self.tile: list[int] = []
        self.area: list[int] = []
        self.method: list[int] = []
        self.back: list[Fraction] = []
        self.front: list[Fraction] = []
        self.side: list[str] = []  # left/right/inside/outside/drift/shortcut
        self.piece_of: list[int] = []

    def space(
        self,
        label: str,
        kind: int,
        tile: int,
        piece: int,
        back: Fraction,
        front: Fraction,
        side: str,
        *,
        area: int = -1,
        method: int = NO_METHOD,
        limit: int = 0,
        shortcut: int = 0,
    ) -> int:
        sid = len(self.kind)
        self.labels.append(label)
        self.kind.append(kind)
        self.succ.append([])
        self.adj.append(set())
        self.corner_limit.append(limit)
        self.shortcut_limit.append(shortcut)
        self.jump.append(0)
        self.ford.append(False)
        self.obstacle.append(False)
        self.tile.append(tile)
        self.area.append(area)
        self.method.append(method)
        self.back.append(back)
        self.front.append(front)
        self.side.append(side)
        self.piece_of.append(piece)
        return sid

    def link(self, sources: list[int], targets: list[int]) -> None:
        for s in sources:
            for t in targets:
                if t not in self.succ[s]:
                    self.succ[s].append(t)

    def neighbours(self, a: int, b: int) -> None:
        self.adj[a].add(b)
        self.adj[b].add(a)


def build_track(layout: Layout) -> Track:
    """Build the space graph of ``layout`` (which :func:`parse_layout` has checked)."""
    b = _Builder()
    pos = Fraction(0)
    exits: list[int] = []
    shortcut_exit: int | None = None  # the last shortcut space, linked to the next piece's entry
    areas = 0
    piece_no = 0
    corner_turns: list[tuple[int, str]] = []  # (piece index, turn) for RM-7 position
    for t, tile in enumerate(layout.tiles):
        for p, piece in enumerate(tile.pieces):
            tag = f"{tile.name}.{p}"
            entries: list[int]
            new_exits: list[int]
            if piece.kind == "start":
                left = b.space(f"{tag}.start-left", START, t, piece_no, pos - 1, pos, "left")
                right = b.space(f"{tag}.start-right", START, t, piece_no, pos - 1, pos, "right")
                b.neighbours(left, right)
                entries, new_exits = [], [left, right]
            elif piece.kind == "finish":
                left = b.space(f"{tag}.finish-left", FINISH, t, piece_no, pos, pos + 1, "left")
                right = b.space(f"{tag}.finish-right", FINISH, t, piece_no, pos, pos + 1, "right")
                entries, new_exits = [left, right], []
                pos += 1
            elif piece.kind in ("straight", "drift"):
                area = -1
                if piece.kind == "drift":
                    area = areas
                    areas += 1
                entries, new_exits = _rows(b, piece, tag, t, piece_no, pos, area)
                pos += piece.rows
            else:
                area = areas
                areas += 1
                entries, new_exits, sc = _corner(b, piece, tag, t, piece_no, pos, area, exits)
                corner_turns.append((piece_no, piece.turn))
                pos += len(piece.inside)
            b.link(exits, entries)
            if shortcut_exit is not None:
                b.link([shortcut_exit], entries)
                for e in entries:
                    b.neighbours(shortcut_exit, e)  # RM-22: shortcut spaces touch connected ones
                shortcut_exit = None
            if piece.kind == "corner":
                shortcut_exit = sc
            exits = new_exits
            piece_no += 1
    return _freeze(layout, b, corner_turns, float(pos))


def _rows(
    b: _Builder, piece: Piece, tag: str, t: int, piece_no: int, pos: Fraction, area: int
) -> tuple[list[int], list[int]]:
    """Straight rows, or a drift area (RM-18): normal rows plus two drift spaces per row."""
    kind = ROAD if area < 0 else DRIFT
    method = NO_METHOD if area < 0 else NORMAL
    prev: list[int] = []
    prev_drift: int | None = None
    entries: list[int] = []
    for r in range(piece.rows):
        back = pos + r
        left = b.space(
            f"{tag}.r{r}-left", kind, t, piece_no, back, back + 1, "left", area=area, method=method
        )
        right = b.space(
            f"{tag}.r{r}-right",
            kind,
            t,
            piece_no,
            back,
            back + 1,
            "right",
            area=area,
            method=method,
        )
        b.neighbours(left, right)
        b.link(prev, [left, right])
        prev = [left, right]
        if r == 0:
            entries = [left, right]
        if area >= 0:
            half = back + Fraction(1, 2)
            d0 = b.space(
                f"{tag}.r{r}-drift0",
                DRIFT,
                t,
                piece_no,
                back,
                half,
                "drift",
                area=area,
                method=DRIFTING,
            )
            d1 = b.space(
                f"{tag}.r{r}-drift1",
                DRIFT,
                t,
                piece_no,
                half,
                back + 1,
                "drift",
                area=area,
                method=DRIFTING,
            )
            b.link([d0], [d1])
            if prev_drift is not None:
                b.link([prev_drift], [d0])
            else:
                entries.append(d0)
            prev_drift = d1
    exits = prev + ([prev_drift] if prev_drift is not None else [])
    for f in piece.features:
        sid = _row_space(b, entries[0], f.index, f.lane, area >= 0)
        b.jump[sid] = f.jump
        b.ford[sid] = b.ford[sid] or f.ford
        b.obstacle[sid] = b.obstacle[sid] or f.obstacle
    return entries, exits


def _row_space(b: _Builder, first: int, row: int, lane: str, drift: bool) -> int:
    # Straight rows are laid out left, right per row (plus two drift spaces in drift areas).
    stride = 4 if drift else 2
    return first + row * stride + (0 if lane == "left" else 1)


def _corner(
    b: _Builder,
    piece: Piece,
    tag: str,
    t: int,
    piece_no: int,
    pos: Fraction,
    area: int,
    before: list[int],
) -> tuple[list[int], list[int], int | None]:
    """A corner (RM-16): two single-file lanes, plus an optional shortcut chain (RM-19)."""
    length = Fraction(len(piece.inside))
    lanes: dict[str, list[int]] = {}
    for name, limits, method in (
        ("inside", piece.inside, INSIDE),
        ("outside", piece.outside, OUTSIDE),
    ):
        ids: list[int] = []
        step = length / len(limits)
        for k, limit in enumerate(limits):
            sid = b.space(
                f"{tag}.{name}{k}",
                CORNER,
                t,
                piece_no,
                pos + step * k,
                pos + step * (k + 1),
                name,
                area=area,
                method=method,
                limit=limit,
            )
            b.link(ids[-1:], [sid])
            ids.append(sid)
        lanes[name] = ids
    for i in lanes["inside"]:
        for o in lanes["outside"]:
            # Side by side when their stretches of the corner overlap.
            if b.back[i] < b.front[o] and b.back[o] < b.front[i]:
                b.neighbours(i, o)
    for f in piece.features:
        sid = lanes[f.lane][f.index]
        b.jump[sid] = f.jump
        b.ford[sid] = b.ford[sid] or f.ford
        b.obstacle[sid] = b.obstacle[sid] or f.obstacle
    last_shortcut: int | None = None
    if piece.shortcut is not None:
        chain: list[int] = []
        step = length / piece.shortcut.spaces
        for k in range(piece.shortcut.spaces):
            sid = b.space(
                f"{tag}.shortcut{k}",
                SHORTCUT,
                t,
                piece_no,
                pos + step * k,
                pos + step * (k + 1),
                "shortcut",
                shortcut=piece.shortcut.limit,
            )
            b.link(chain[-1:], [sid])
            chain.append(sid)
        b.link(before, chain[:1])
        for e in before:
            b.neighbours(e, chain[0])
        last_shortcut = chain[-1]
    entries = [lanes["inside"][0], lanes["outside"][0]]
    exits = [lanes["inside"][-1], lanes["outside"][-1]]
    return entries, exits, last_shortcut


def _freeze(
    layout: Layout, b: _Builder, corner_turns: list[tuple[int, str]], length: float
) -> Track:
    n = len(b.kind)
    fronts = sorted(set(b.front))
    rank = {f: i for i, f in enumerate(fronts)}
    preds: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        for t in b.succ[s]:
            preds[t].append(s)
    inside_rank = []
    for s in range(n):
        side = b.side[s]
        if side in ("inside", "shortcut"):
            inside_rank.append(0)
        elif side in ("outside", "drift"):
            inside_rank.append(1)
        else:
            # RM-7: the inside of the current or next corner; no corner ahead = no preference.
            turn = next((tn for pn, tn in corner_turns if pn >= b.piece_of[s]), None)
            inside_rank.append(0 if turn is None or turn == side else 1)
    danger_of_tile = [DANGER_LEVELS.index(tile.danger) for tile in layout.tiles]
    return Track(
        name=layout.name,
        labels=tuple(b.labels),
        kind=tuple(b.kind),
        succ=tuple(tuple(x) for x in b.succ),
        preds=tuple(tuple(x) for x in preds),
        adjacent=tuple(frozenset(x) for x in b.adj),
        corner_limit=tuple(b.corner_limit),
        shortcut_limit=tuple(b.shortcut_limit),
        jump=tuple(b.jump),
        ford=tuple(b.ford),
        obstacle=tuple(b.obstacle),
        tile=tuple(b.tile),
        danger=tuple(danger_of_tile[t] for t in b.tile),
        area=tuple(b.area),
        method=tuple(b.method),
        front=tuple(rank[f] for f in b.front),
        progress=tuple(float(f) for f in b.front),
        inside_rank=tuple(inside_rank),
        start_spaces=tuple(s for s in range(n) if b.kind[s] == START),
        tile_names=tuple(tile.name for tile in layout.tiles),
        length=length,
    )
