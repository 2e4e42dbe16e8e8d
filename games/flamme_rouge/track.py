"""Course strings to square-by-square tracks (FR-6..FR-14) and the official courses (FR-11).

A course string names one tile per token in travel order; :func:`parse_course` expands it into
numbered squares with terrain, lane count and role. In Tour mode the final ``u``/``U`` becomes the
Wide Finish tile (FR-13).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.flamme_rouge.errors import FlammeRougeError
from games.flamme_rouge.rules import StageRules

# Terrain codes (FR-7). Start squares are flat; their role is "s".
FLAT, ASCENT, DESCENT, SUPPLY, COBBLES = "F", "U", "D", "S", "C"
# Roles (FR-7): "" none, "s" start, "f" finish area (past the line), "b" breakaway square.
START, FINISH_AREA, BREAKAWAY = "s", "f", "b"


@dataclass(frozen=True)
class Square:
    """One square of a course, numbered 1..N in travel order (FR-6)."""

    number: int
    terrain: str
    lanes: int
    role: str = ""

    def code(self) -> str:
        """The FR-12 profile code of this square, without its run length."""
        base = "s" if self.role == START else self.terrain + self.role
        return base if self.lanes == 2 else f"{base}{self.lanes}"


class CourseError(FlammeRougeError):
    """A course string the simulator cannot use (FR-9); a ``ValueError`` with a stable ``code``."""


@dataclass(frozen=True)
class _Tile:
    kind: str  # start, straight, curve, short, finish
    squares: str  # one character per square: F U D S C, "s" start, "b" breakaway, "f" past line
    lanes: tuple[int, ...]


def _tile(kind: str, squares: str, lanes: str = "") -> _Tile:
    lane_counts = tuple(int(c) for c in lanes) if lanes else (2,) * len(squares)
    return _Tile(kind, squares, lane_counts)


def _build_tiles() -> dict[str, _Tile]:
    # FR-10, row by row. Finish tiles spell their past-the-line squares "f" (terrain by side).
    tiles: dict[str, _Tile] = {"a": _tile("start", "sssssF"), "A": _tile("start", "ssssFF")}
    for token in "bcdflmn":
        tiles[token] = _tile("straight", "FFFFFF")
    for token in "eghijkopqrst":
        tiles[token] = _tile("curve", "FF")
    tiles["u"] = _tile("finish", "Ffffff")
    tiles["B"] = _tile("straight", "DDDDFF")
    tiles["C"] = tiles["M"] = _tile("straight", "FFUUUU")
    tiles["D"] = _tile("straight", "UUUUUD")
    tiles["F"] = _tile("straight", "DDDFFF")
    tiles["L"] = _tile("straight", "UUUDDD")
    tiles["N"] = _tile("straight", "UUUUUU")
    for token in "EGKOQR":
        tiles[token] = _tile("curve", "UU")
    for token in "HP":
        tiles[token] = _tile("curve", "DD")
    for token in "IJST":
        tiles[token] = _tile("curve", "FF")
    tiles["U"] = _tile("finish", "UUffff")
    tiles["1"] = _tile("start", "ssssFF", "333333")
    tiles["^1"] = _tile("start", "sssssF", "333333")
    tiles["2"] = _tile("straight", "FFFbFF", "333332")
    tiles["^2"] = _tile("straight", "FFFbFF")
    tiles["3"] = tiles["4"] = _tile("straight", "SSSSSF", "333332")
    tiles["^3"] = tiles["7"] = _tile("straight", "FFCCCC", "221121")
    tiles["^4"] = _tile("straight", "CCCCFF", "121122")
    tiles["5"] = _tile("straight", "CCCCCC", "121211")
    tiles["^5"] = _tile("straight", "CCFFFF", "112222")
    tiles["6"] = _tile("straight", "CCCCCC", "112111")
    tiles["^6"] = _tile("straight", "CCCCCF", "111212")
    tiles["^7"] = tiles["8"] = _tile("straight", "FFFCCC", "222121")
    tiles["^8"] = _tile("straight", "CCCCCF", "112112")
    tiles["9"] = _tile("short", "SSF", "332")
    tiles["^9"] = _tile("short", "FFF", "332")
    return tiles


TILES: dict[str, _Tile] = _build_tiles()
_TOKEN = re.compile(r"\^?[0-9]|[A-Za-z]|.", re.DOTALL)


def _physical(token: str) -> str:
    """The physical tile of a token: both sides of one tile share it (FR-9)."""
    return token.lstrip("^").lower()


@dataclass(frozen=True)
class Course:
    """A parsed course: squares 1..N with terrain, lanes and roles (FR-6..FR-14)."""

    text: str
    tokens: tuple[str, ...]
    squares: tuple[Square, ...]
    finish: str  # "flat" (u) or "ascent" (U)
    tour_mode: bool

    @property
    def length(self) -> int:
        """N, the number of squares (FR-6)."""
        return len(self.squares)

    @property
    def last_before_line(self) -> int:
        """L of FR-14: the last square before the finish line."""
        return self.length - sum(1 for sq in self.squares if sq.role == FINISH_AREA)

    @property
    def start_squares(self) -> tuple[int, ...]:
        """Numbers of the start squares (FR-16), rearmost first."""
        return tuple(sq.number for sq in self.squares if sq.role == START)

    @property
    def start_capacity(self) -> int:
        """Rider places behind the start line (FR-11): a 10, A 8, ^1 15, 1 12."""
        return sum(sq.lanes for sq in self.squares if sq.role == START)

    def square(self, number: int) -> Square:
        """Square ``number`` (1-based)."""
        return self.squares[number - 1]

    def profile(self) -> str:
        """The FR-12 run-length profile, e.g. ``5s 68F 5Ff``."""
        runs: list[list[Any]] = []
        for sq in self.squares:
            code = sq.code()
            if runs and runs[-1][1] == code:
                runs[-1][0] += 1
            else:
                runs.append([1, code])
        return " ".join(f"{count}{code}" for count, code in runs)


def tokenize(course: str) -> list[str]:
    """Split a course string into tile tokens; unknown characters become their own token."""
    return _TOKEN.findall(course)


def parse_course(course: str, *, rules: StageRules | None = None) -> Course:
    """Parse and validate a course string (FR-9), expanding it into squares (FR-10, FR-13).

    Raises :class:`CourseError` for an empty course, an unknown tile, a missing or misplaced start
    or finish tile, or a physical tile used twice.
    """
    rules = rules or StageRules()
    if not isinstance(course, str) or not course:
        raise CourseError("The course is empty.", "course_empty")
    tokens = tokenize(course)
    _check_tokens(tokens)
    if TILES[tokens[0]].kind != "start":
        raise CourseError(
            f"The course starts with {tokens[0]!r}; it must start with a start tile "
            "(a, A, 1 or ^1).",
            "course_no_start",
            tile=tokens[0],
        )
    if TILES[tokens[-1]].kind != "finish":
        raise CourseError(
            "The course has no finish: its last tile must be u (flat) or U (ascent).",
            "course_no_finish",
            tile=tokens[-1],
        )
    finish = "ascent" if tokens[-1] == "U" else "flat"
    squares: list[Square] = []
    for token in tokens[:-1]:
        _append_tile(squares, TILES[token], finish_terrain=FLAT)
    if rules.tour_mode:
        # FR-13: the Wide Finish replaces u/U; the ascent side is ascent on every square.
        wide = rules.wide_finish_ascent if finish == "ascent" else rules.wide_finish_flat
        terrain = ASCENT if finish == "ascent" else FLAT
        spec = terrain * wide.before + FINISH_AREA * wide.past
        lanes = str(rules.wide_finish_lanes) * len(spec)
        _append_tile(squares, _tile("finish", spec, lanes), finish_terrain=terrain)
    else:
        _append_tile(
            squares, TILES[tokens[-1]], finish_terrain=FLAT if finish == "flat" else ASCENT
        )
    return Course(course, tuple(tokens), tuple(squares), finish, rules.tour_mode)


def _check_tokens(tokens: list[str]) -> None:
    """FR-9: known tiles, each physical tile once, a start tile only first, a finish only last."""
    offset = 0
    seen: dict[str, int] = {}
    for index, token in enumerate(tokens, start=1):
        if token not in TILES:
            raise CourseError(
                f"Unknown tile {token!r} at tile {index} (character {offset + 1}) of the course.",
                "course_unknown_tile",
                tile=token,
                index=index,
                offset=offset + 1,
            )
        physical = _physical(token)
        if physical in seen:
            raise CourseError(
                f"Tile {token!r} at tile {index} is the same physical tile as tile "
                f"{seen[physical]}; each tile can be used once.",
                "course_duplicate_tile",
                tile=token,
                index=index,
                first=seen[physical],
            )
        seen[physical] = index
        kind = TILES[token].kind
        if kind == "start" and index != 1:
            raise CourseError(
                f"Start tile {token!r} at tile {index}: only the first tile may be a start tile.",
                "course_start_not_first",
                tile=token,
                index=index,
            )
        if kind == "finish" and index != len(tokens):
            raise CourseError(
                f"Finish tile {token!r} at tile {index}: the finish must be the last tile.",
                "course_finish_not_last",
                tile=token,
                index=index,
            )
        offset += len(token)


def _append_tile(squares: list[Square], tile: _Tile, *, finish_terrain: str) -> None:
    for spec, lanes in zip(tile.squares, tile.lanes, strict=True):
        number = len(squares) + 1
        if spec == START:
            squares.append(Square(number, FLAT, lanes, START))
        elif spec == FINISH_AREA:
            squares.append(Square(number, finish_terrain, lanes, FINISH_AREA))
        elif spec == BREAKAWAY:
            squares.append(Square(number, FLAT, lanes, BREAKAWAY))
        else:
            squares.append(Square(number, spec, lanes))


@dataclass(frozen=True)
class OfficialCourse:
    """A course of FR-11: this project's id, its name, and the 2–4 and 5–6 player variants."""

    id: int
    name: str
    small: str  # 2–4 players
    large: str  # 5–6 players

    def for_players(self, players: int) -> str:
        """The variant for ``players`` teams: the 5–6 variant from 5 teams on."""
        return self.large if players >= 5 else self.small


_COURSES = (
    (1, "Avenue Corso Paseo", "abcdefghijklmnopqrstu", None),
    (2, "Firenze–Milano", "abcgiDHqntmKOLrepJsfu", None),
    (3, "La Haute Montagne", "abcfimetKGLHJsdopRQNU", None),
    (4, "La Classicissima", "AebQRNHPcgikDFsLojmtu", None),
    (5, "Le Col du Ballon", "AnLHgceqtrMBoipjDFkSu", None),
    (6, "Ronde van Wevelgem", "abcmgfteqonLPjkIDHrSu", None),
    (7, "Peloton Stage 7", "a^23gMRPkeqos4cDHjTniu", "^123gMRPkeqos4cDHjT^9niu"),
    (8, "Peloton Stage 8", "a^2h4oIcQDF3prsejLktgu", "^12h4oIcQDF3prsejLktg^9u"),
    (9, "Peloton Stage 9", "A^23p5^7okjq4e8^6hgirsTu", "12^93p5^7okjq4e8^6hgirsTu"),
    (10, "Peloton Stage 10", "a^2h4Lopc5^6r3gqJksteIU", "^12h4^9Lopc5^6r3gqJksteIU"),
    (11, "Peloton Stage 11", "a^28^5qgir^3^4sopthk7^6eJu", "^128^5qgir9^3^4sopthk7^6eJu"),
    (12, "Peloton Stage 12", "A^24qMOKRFsd3plnhgeTju", "124qMOKRFsd3pln^9hgeTju"),
)

OFFICIAL_COURSES: dict[str, OfficialCourse] = {
    name: OfficialCourse(id_, name, small, large or small) for id_, name, small, large in _COURSES
}


def _normalise(name: str) -> str:
    return " ".join(name.replace("–", "-").replace("—", "-").casefold().split())


_BY_NAME = {_normalise(name): course for name, course in OFFICIAL_COURSES.items()}


def official_course(name_or_id: str | int) -> OfficialCourse:
    """Look an FR-11 course up by id or by name (case-insensitive; ``-`` matches ``–``)."""
    if isinstance(name_or_id, int):
        for course in OFFICIAL_COURSES.values():
            if course.id == name_or_id:
                return course
    else:
        found = _BY_NAME.get(_normalise(name_or_id))
        if found is not None:
            return found
    raise CourseError(
        f"No official course {name_or_id!r}.", "course_unknown_name", name=str(name_or_id)
    )


__all__ = [
    "OFFICIAL_COURSES",
    "Course",
    "CourseError",
    "OfficialCourse",
    "Square",
    "official_course",
    "parse_course",
]
