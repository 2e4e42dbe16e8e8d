"""The catalogue's content, read from the pure engines and scoring packages (no copies).

Kept apart from the view so the set-up pages can draw the same profiles without an HTTP call.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from games.flamme_rouge import OFFICIAL_COURSES, parse_course
from games.flamme_rouge.cards import SPECIALISTS
from games.flamme_rouge.track import (
    ASCENT,
    BREAKAWAY,
    COBBLES,
    DESCENT,
    FINISH_AREA,
    FLAT,
    START,
    SUPPLY,
    Course,
)
from games.formula_d import load_circuit, shipped_circuits
from games.rallyman import SAMPLE_STAGES
from scoring.formula_d import POINTS_PRESETS as FORMULA_D_PRESETS
from scoring.points.presets import LEAGUE_POINTS_PRESETS
from scoring.rally import PRESETS as RALLY_PRESETS

# FR-7's terrain names; the start and breakaway roles name their square (both flat otherwise).
TERRAIN_NAMES = {
    FLAT: "flat",
    ASCENT: "ascent",
    DESCENT: "descent",
    SUPPLY: "supply",
    COBBLES: "cobbles",
}
# The longest course string the preview reads: the longest official course is 27 characters and
# a course uses each physical tile once (21 base + 9 Peloton tiles, "^" prefixes included).
MAX_COURSE_LENGTH = 60


def profile(course: Course) -> list[dict[str, Any]]:
    """One entry per square from the start area to the last finish square (FR-10/FR-11)."""
    entries: list[dict[str, Any]] = []
    for square in course.squares:
        if square.role == START:
            terrain = "start"
        elif square.role == BREAKAWAY:
            terrain = "breakaway"
        else:
            terrain = TERRAIN_NAMES[square.terrain]
        entries.append(
            {"terrain": terrain, "lanes": square.lanes, "past_line": square.role == FINISH_AREA}
        )
    return entries


def describe(text: str) -> dict[str, Any]:
    """``profile`` and ``finish`` of a course string; raises CourseError for a bad one.

    Read with the engine's default stage rules, so the profile is the one a Grand Tour stage is
    raced on (Tour mode: the Wide Finish of FR-13 replaces ``u``/``U``).
    """
    course = parse_course(text)
    return {"profile": profile(course), "finish": course.finish}


def _courses() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for official in sorted(OFFICIAL_COURSES.values(), key=lambda c: c.id):
        for players, text in (("2-4", official.small), ("5-6", official.large)):
            found.append(
                {"id": official.id, "name": official.name, "course": text, "players": players}
                | describe(text)
            )
    return found


def _circuit_title(slug: str) -> str:
    """The display name a shipped circuit file carries (``"name"``; the engine keeps only the
    ``circuit`` id), falling back to the slug."""
    text = resources.files("games.formula_d.circuits").joinpath(f"{slug}.json").read_text()
    title = json.loads(text).get("name")
    return title if isinstance(title, str) and title else slug


def _circuits() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for slug in shipped_circuits():
        circuit = load_circuit(slug)  # validated: a broken shipped file fails here, loudly
        spaces = sum(sum(segment.lengths) for segment in circuit.segments)
        found.append({"slug": slug, "name": _circuit_title(slug), "spaces": spaces})
    return found


def _presets(table: dict[str, tuple[int, ...]]) -> dict[str, list[int]]:
    return {name: list(points) for name, points in table.items()}


@cache
def catalogue() -> dict[str, Any]:
    """The whole catalogue: built once per process (everything in it ships with the code)."""
    return {
        "courses": _courses(),
        "circuits": _circuits(),
        "layouts": [{"name": name} for name in SAMPLE_STAGES],
        "points": {
            "formula_d": _presets(FORMULA_D_PRESETS),
            "rally": _presets(RALLY_PRESETS),
            "league": _presets(LEAGUE_POINTS_PRESETS),
        },
        "specialists": sorted(SPECIALISTS),
    }
