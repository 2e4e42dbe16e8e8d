"""``GET /api/catalogue/`` and ``POST /api/catalogue/courses/preview/`` (API.md "Catalogue")."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.flamme_rouge import OFFICIAL_COURSES, parse_course
from games.flamme_rouge.track import FINISH_AREA, START

pytestmark = pytest.mark.django_db

TERRAINS = {"start", "flat", "ascent", "descent", "supply", "cobbles", "breakaway"}


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def _catalogue(api: APIClient) -> dict[str, Any]:
    response = api.get("/api/catalogue/")
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


def test_the_catalogue_has_every_section_in_the_contract_shape(api: APIClient) -> None:
    data = _catalogue(api)
    assert set(data) >= {"courses", "circuits", "layouts", "points", "specialists"}
    assert {"slug": "monaco", "name": "Monaco", "spaces": 497} in data["circuits"]
    assert [layout["name"] for layout in data["layouts"]] == [
        "gravel-flats",
        "twisty-jumps",
        "ford-cuts",
    ]
    assert data["points"]["formula_d"]["box-team-race"] == [10, 8, 6, 5, 4, 3, 2, 1]
    assert data["points"]["rally"]["wrc-2010"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    assert data["points"]["league"]["f1-2010"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    assert {"grimpeur", "super_rouleur"} <= set(data["specialists"])


def test_every_official_course_is_listed_in_both_player_counts(api: APIClient) -> None:
    courses = _catalogue(api)["courses"]
    assert len(courses) == 2 * len(OFFICIAL_COURSES) == 24
    listed = {(c["name"], c["players"]): c["course"] for c in courses}
    for official in OFFICIAL_COURSES.values():
        assert listed[(official.name, "2-4")] == official.small
        assert listed[(official.name, "5-6")] == official.large
    assert listed[("Peloton Stage 7", "5-6")] == "^123gMRPkeqos4cDHjT^9niu"
    assert listed[("Avenue Corso Paseo", "5-6")] == "abcdefghijklmnopqrstu"


@pytest.mark.parametrize("index", range(24))
def test_each_course_profile_is_one_entry_per_square(api: APIClient, index: int) -> None:
    entry = _catalogue(api)["courses"][index]
    course = parse_course(entry["course"])
    profile = entry["profile"]
    assert len(profile) == course.length
    assert entry["finish"] == course.finish
    for item, square in zip(profile, course.squares, strict=True):
        assert set(item) == {"terrain", "lanes", "past_line"}
        assert item["terrain"] in TERRAINS
        assert item["lanes"] == square.lanes
        assert (item["terrain"] == "start") is (square.role == START)
        assert item["past_line"] is (square.role == FINISH_AREA)
    assert profile[0]["terrain"] == "start"
    assert profile[-1]["past_line"] is True


def test_the_base_course_profile_matches_its_tiles(api: APIClient) -> None:
    """Avenue Corso Paseo (all flat): 5 start squares of tile a, then flat to the line."""
    entry = next(c for c in _catalogue(api)["courses"] if c["name"] == "Avenue Corso Paseo")
    terrains = [p["terrain"] for p in entry["profile"]]
    assert terrains[:6] == ["start"] * 5 + ["flat"]
    assert set(terrains[5:]) == {"flat"}
    mountain = next(c for c in _catalogue(api)["courses"] if c["name"] == "La Haute Montagne")
    assert mountain["finish"] == "ascent"
    assert {"ascent", "descent"} <= {p["terrain"] for p in mountain["profile"]}
    peloton = next(c for c in _catalogue(api)["courses"] if c["name"] == "Peloton Stage 9")
    kinds = {p["terrain"] for p in peloton["profile"]}
    assert {"cobbles", "supply", "breakaway"} <= kinds
    assert {1, 3} <= {p["lanes"] for p in peloton["profile"]}


def test_preview_gives_the_catalogue_profile(api: APIClient) -> None:
    entry = next(c for c in _catalogue(api)["courses"] if c["name"] == "La Classicissima")
    response = api.post(
        "/api/catalogue/courses/preview/", {"course": entry["course"]}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {"profile": entry["profile"], "finish": entry["finish"]}


@pytest.mark.parametrize(
    ("course", "named"),
    [
        ("abcxu", "x"),  # unknown tile
        ("abcdbu", "b"),  # the same physical tile twice
        ("bcdu", "b"),  # no start tile first
        ("abcd", "finish"),  # no finish tile: the message says what must end the course
    ],
)
def test_a_bad_course_is_a_400_naming_the_tile(api: APIClient, course: str, named: str) -> None:
    response = api.post("/api/catalogue/courses/preview/", {"course": course}, format="json")
    assert response.status_code == 400
    [message] = response.json()["course"]
    assert named in message


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"course": ""},
        {"course": "   "},
        {"course": None},
        {"course": 7},
        {"course": ["abcu"]},
        {"course": {"a": 1}},
        {"course": "a" * 61},
        {"course": "abcdefghijklmnopqrstu", "extra": 1},
        [],
        "abcu",
        {"course": "\x00\u202eab"},
    ],
)
def test_no_body_gives_a_500(api: APIClient, body: Any) -> None:
    response = api.post("/api/catalogue/courses/preview/", body, format="json")
    assert response.status_code in {200, 400}, response.content
    if isinstance(body, dict) and body.get("course") in (None, "", "   ", "a" * 61):
        assert response.status_code == 400
        assert "course" in response.json()


def test_a_too_long_course_is_refused_before_parsing(api: APIClient) -> None:
    response = api.post("/api/catalogue/courses/preview/", {"course": "a" * 5000}, format="json")
    assert response.status_code == 400
    assert "course" in response.json()


def test_the_catalogue_is_read_only(api: APIClient) -> None:
    assert api.post("/api/catalogue/", {}, format="json").status_code == 405
    assert api.get("/api/catalogue/courses/preview/").status_code == 405
