"""A simulated stage's log (FR-73) for the stage page: the board replay and its table.

The engine logs one row per rider and round with named columns; :func:`build_replay` turns it
into rows of rounds with one short cell per rider (the card played, the squares covered, marks
for slipstream, exhaustion, tokens and the crossing: the accessible table) and into a
:class:`Board`: the course square by square (FR-12 profile of the log's header), the token
stacks and every rider's square and lane at the end of each round, which
``replay_board.render_board`` draws as SVG and ``static/podium/replay.js`` plays.

Where a rider stands after round r: the square he moved to plus the squares slipstream gave
him (``to + slip``, FR-38); his lane is the lane he starts round r+1 from, or, in his last
round, the lane the results give (FR-70 ``lane``: after slipstream). Round 0 is the grid.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

CARD_MARKS = {"exhaustion": "X", "attack": "A"}
# FR-12 profile runs: count, then "s" (start) or terrain F/U/D/S/C with an optional role
# (f past the line, b breakaway), then the lane count when it is not 2.
_RUN = re.compile(r"(\d+)(s|[FUDSC][fb]?)(\d?)")


@dataclass(frozen=True)
class ReplayCell:
    card: str
    start: int
    end: int
    slip: int
    exhausted: bool
    tokens: str
    crossed: bool
    seconds: int | None  # FR-48: the timing seconds of the crossing round
    time: int | None = None  # the rider's stage time (FR-70 time_s) in the round he crosses


@dataclass(frozen=True)
class ReplayRound:
    number: int
    cells: tuple[ReplayCell | None, ...]  # None: the rider had already left the track


@dataclass(frozen=True)
class Square:
    number: int
    terrain: str  # F U D S C (start squares are flat, role "s")
    lanes: int
    role: str  # "" | "s" start | "f" past the line | "b" breakaway


@dataclass(frozen=True)
class BoardRider:
    id: int
    name: str
    label: str  # two characters drawn on the token: colour is never the only cue
    team: int  # colour index (0.. in entry order), -1 for the dummies
    shape: str  # "rouleur" | "sprinteur" | "dummy"


@dataclass(frozen=True)
class Board:
    squares: tuple[Square, ...]
    last: int  # L of FR-14: the last square before the line
    stacks: tuple[tuple[str, str, str, int], ...]  # (id, major|minor, sprint|mountain, square)
    riders: tuple[BoardRider, ...]  # in grid order, the order of the table's columns
    # positions[r][i]: rider i's (square, lane) after round r (0: the grid); None once he left
    positions: tuple[tuple[tuple[int, int] | None, ...], ...]


@dataclass(frozen=True)
class Replay:
    riders: tuple[tuple[int, str], ...]  # (rider id, name) in grid order, dummies included
    rounds: tuple[ReplayRound, ...]
    board: Board | None = None  # None when the header has no course profile

    # The drawing for the template (replay_board imports this module, hence the late imports).
    def board_svg(self) -> str:
        from tournament.web.replay_board import render_board

        return render_board(self.board) if self.board is not None else ""

    def board_data(self) -> dict[str, Any]:
        from tournament.web.replay_board import board_data

        return board_data(self)

    def course_summary(self) -> str:
        from tournament.web.replay_board import course_summary

        return course_summary(self.board) if self.board is not None else ""


def build_replay(replay: dict[str, Any] | None, name_of: Callable[[int], str]) -> Replay | None:
    """The table and board for a stored replay, or None when there is none or it is unreadable."""
    log = (replay or {}).get("log")
    if not isinstance(log, dict):
        return None
    try:
        columns = {name: i for i, name in enumerate(log["columns"])}
        cards = log["cards"]
        order = [entry[0] for entry in log["grid"]]
        column = {rider: i for i, rider in enumerate(order)}
        riders = tuple((rider, _name(rider, name_of)) for rider in order)
        times = {r["rider_id"]: r.get("time_s") for r in (replay or {}).get("riders", [])}
        rounds = []
        for entry in log["rounds"]:
            cells: list[ReplayCell | None] = [None] * len(order)
            for row in entry["riders"]:
                rider = row[columns["rider"]]
                cells[column[rider]] = _cell(row, columns, cards, times.get(rider))
            rounds.append(ReplayRound(number=entry["round"], cells=tuple(cells)))
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    try:
        board = _board(replay or {}, log, columns, riders)
    except (KeyError, IndexError, TypeError, ValueError):
        board = None  # the table still reads; a board that cannot be drawn is left out
    return Replay(riders=riders, rounds=tuple(rounds), board=board)


def _name(rider: int, name_of: Callable[[int], str]) -> str:
    # Dummy riders have negative ids (games.flamme_rouge.setup): Peloton -1/-2, Muscle -3/-4.
    if rider < 0:
        return {-1: "Peloton 1", -2: "Peloton 2", -3: "Muscle S", -4: "Muscle R"}.get(
            rider, f"Dummy {-rider}"
        )
    return name_of(rider)


def _cell(
    row: list[Any], columns: dict[str, int], cards: list[Any], time: int | None
) -> ReplayCell:
    played = row[columns["played"]]
    if played is None:
        card = "–"  # FR-58: a dummy with an empty deck plays no card
    else:
        kind, value, _symbols = cards[played]
        card = CARD_MARKS.get(kind, str(value))
    tokens = row[columns["tokens"]] or []
    return ReplayCell(
        card=card,
        start=row[columns["from"]],
        end=row[columns["to"]],
        slip=int(row[columns["slip"]] or 0),
        exhausted=bool(row[columns["exhausted"]]),
        tokens="+".join(str(t[-1]) for t in tokens if isinstance(t, list) and t),
        crossed=bool(row[columns["crossed"]]),
        seconds=row[columns["seconds"]],
        time=time if row[columns["crossed"]] else None,
    )


def parse_profile(profile: str) -> tuple[Square, ...]:
    """The squares of an FR-12 profile such as ``5s 31F 7U 5D 14F 12U 5Uf``."""
    squares: list[Square] = []
    for token in profile.split():
        match = _RUN.fullmatch(token)
        if match is None:
            raise ValueError(f"not a profile run: {token!r}")
        count, code, lanes = int(match[1]), match[2], int(match[3] or 2)
        terrain, role = ("F", "s") if code == "s" else (code[0], code[1:])
        for _ in range(count):
            squares.append(Square(len(squares) + 1, terrain, lanes, role))
    return tuple(squares)


def _board(
    replay: dict[str, Any],
    log: dict[str, Any],
    columns: dict[str, int],
    riders: tuple[tuple[int, str], ...],
) -> Board | None:
    course = (replay.get("header") or {}).get("course") or {}
    if not isinstance(course.get("profile"), str):
        return None
    squares = parse_profile(course["profile"])
    return Board(
        squares=squares,
        last=int(course.get("last_before_line") or len(squares)),
        stacks=tuple((str(s[0]), str(s[1]), str(s[2]), int(s[3])) for s in log.get("stacks", [])),
        riders=_board_riders(log, riders),
        positions=_positions(replay, log, columns, [rider for rider, _ in riders]),
    )


def _board_riders(
    log: dict[str, Any], riders: tuple[tuple[int, str], ...]
) -> tuple[BoardRider, ...]:
    kinds = {entry[0]: (entry[1], entry[2]) for entry in log["riders"]}
    teams: dict[int, int] = {}
    for rider_id, (team, _kind) in kinds.items():
        if rider_id >= 0:
            teams.setdefault(team, len(teams))
    labels = _labels([name for _, name in riders])
    out = []
    for (rider_id, name), label in zip(riders, labels, strict=True):
        team, kind = kinds[rider_id]
        dummy = rider_id < 0
        out.append(
            BoardRider(
                id=rider_id,
                name=name,
                label=label,
                team=-1 if dummy else teams[team],
                shape="dummy" if dummy else ("sprinteur" if kind == "sprinteur" else "rouleur"),
            )
        )
    return tuple(out)


def _labels(names: list[str]) -> list[str]:
    """Two-character token labels: the initials of the first two words ("Ana R" -> "AR"),
    numbered instead where two riders would share one."""
    labels = []
    for name in names:
        words = name.split()
        label = "".join(w[0] for w in words[:2]) if len(words) > 1 else name[:2]
        labels.append(label.upper() or "?")
    seen: dict[str, int] = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    return [
        label if seen[label] == 1 else f"{label[0]}{i + 1}"[-2:] for i, label in enumerate(labels)
    ]


def _positions(
    replay: dict[str, Any], log: dict[str, Any], columns: dict[str, int], order: list[int]
) -> tuple[tuple[tuple[int, int] | None, ...], ...]:
    index = {rider: i for i, rider in enumerate(order)}
    final_lane = {r["rider_id"]: r["lane"] for r in replay.get("riders", [])}
    rider_c, to_c, slip_c = columns["rider"], columns["to"], columns["slip"]
    from_c, lane_c = columns["from"], columns["from_lane"]
    grid: list[tuple[int, int] | None] = [None] * len(order)
    for rider, square, lane in log["grid"]:
        grid[index[rider]] = (square, lane)
    out = [tuple(grid)]
    rounds = log["rounds"]
    for r, entry in enumerate(rounds):
        nxt = {row[rider_c]: row for row in rounds[r + 1]["riders"]} if r + 1 < len(rounds) else {}
        now: list[tuple[int, int] | None] = [None] * len(order)
        for row in entry["riders"]:
            rider = row[rider_c]
            square = row[to_c] + int(row[slip_c] or 0)
            following = nxt.get(rider)
            if following is not None and following[from_c] != square:
                raise ValueError(f"rider {rider} does not start round {r + 2} where he stood")
            lane = following[lane_c] if following is not None else final_lane.get(rider)
            now[index[rider]] = (square, int(lane if lane is not None else row[columns["to_lane"]]))
        out.append(tuple(now))
    return tuple(out)
