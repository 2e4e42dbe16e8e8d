"""Course parsing (FR-6..FR-14): FR-12 profiles, Tour-mode Wide Finish, errors, official courses."""

from __future__ import annotations

import pytest

from games.flamme_rouge.rules import StageRules, WideFinish
from games.flamme_rouge.track import OFFICIAL_COURSES, CourseError, official_course, parse_course

BASE = StageRules(tour_mode=False)

# FR-12, verbatim: (course id, variant) -> profile.
PROFILES = {
    (1, "small"): "5s 68F 5Ff",
    (2, "small"): "5s 17F 5U 3D 16F 7U 3D 17F 5Ff",
    (3, "small"): "5s 31F 7U 5D 14F 12U 4Uf",
    (4, "small"): "4s 10F 10U 4D 12F 5U 4D 5F 3U 3D 13F 5Ff",
    (5, "small"): "4s 8F 3U 5D 18F 4U 4D 10F 5U 4D 8F 5Ff",
    (6, "small"): "5s 41F 3U 5D 6F 5U 3D 5F 5Ff",
    (7, "small"): "5s 4F 1Fb 2F 5S3 5F 6U 2D 10F 5S3 7F 5U 3D 13F 5Ff",
    (8, "small"): "5s 4F 1Fb 4F 5S3 11F 7U 4D 3F 5S3 11F 3U 3D 7F 5Ff",
    (9, "small"): "4s 5F 1Fb 2F 5S3 3F 1C1 1C 1C1 1C 2C1 3F 1C1 1C 1C1 8F 5S3 6F 1C1 1C 4C1 "
    "1C 1C1 14F 5Ff",
    (10, "small"): "5s 4F 1Fb 4F 5S3 1F 3U 3D 10F 1C1 1C 1C1 1C 5C1 1C 1C1 3F 5S3 17F 2U 4Uf",
    (11, "small"): "5s 4F 1Fb 5F 1C1 1C 3C1 14F 2C1 1C 2C1 1C 2C1 16F 2C1 1C 4C1 1C 1C1 6F 5Ff",
    (12, "small"): "4s 5F 1Fb 2F 5S3 5F 10U 3D 11F 5S3 26F 5Ff",
    (7, "large"): "5s3 4F3 1Fb3 1F3 1F 5S3 5F 6U 2D 10F 5S3 7F 5U 3D 4F 2F3 10F 5Ff",
    (8, "large"): "5s3 4F3 1Fb3 1F3 3F 5S3 11F 7U 4D 3F 5S3 11F 3U 3D 6F 2F3 2F 5Ff",
    (9, "large"): "4s3 5F3 1Fb3 1F3 1F 2F3 1F 5S3 3F 1C1 1C 1C1 1C 2C1 3F 1C1 1C 1C1 8F 5S3 6F "
    "1C1 1C 4C1 1C 1C1 14F 5Ff",
    (10, "large"): "5s3 4F3 1Fb3 1F3 3F 5S3 1F 2F3 1F 3U 3D 10F 1C1 1C 1C1 1C 5C1 1C 1C1 3F 5S3 "
    "17F 2U 4Uf",
    (11, "large"): "5s3 4F3 1Fb3 1F3 4F 1C1 1C 3C1 12F 2S3 3F 2C1 1C 2C1 1C 2C1 16F 2C1 1C 4C1 1C "
    "1C1 6F 5Ff",
    (12, "large"): "4s3 5F3 1Fb3 1F3 1F 5S3 5F 10U 3D 11F 5S3 15F 2F3 12F 5Ff",
}
LENGTHS = {"small": 78, "large": 81}


@pytest.mark.parametrize("key", sorted(PROFILES))
def test_fr12_profiles(key: tuple[int, str]) -> None:
    number, variant = key
    text = getattr(official_course(number), variant)
    course = parse_course(text, rules=BASE)
    assert course.profile() == PROFILES[key]
    expected = LENGTHS[variant] + (4 if number == 12 else 0)  # FR-12 headers: (78) (81) (82) (85)
    assert course.length == expected
    assert course.start_capacity == sum(sq.lanes for sq in course.squares if sq.role == "s")


@pytest.mark.parametrize("number", range(1, 7))
def test_base_courses_have_one_variant(number: int) -> None:
    course = official_course(number)
    assert course.small == course.large
    assert parse_course(course.small, rules=BASE).profile() == PROFILES[(number, "small")]


def test_tour_mode_wide_finish_tails() -> None:
    flat = parse_course(official_course(1).small)
    assert flat.profile() == "5s 68F 6Ff" and flat.length == 79
    assert flat.last_before_line == 73 and flat.finish == "flat"
    ascent = parse_course(official_course(3).small)
    assert ascent.profile().endswith("12U 5Uf") and ascent.finish == "ascent"
    assert ascent.last_before_line == 74
    wide = StageRules(wide_finish_flat=WideFinish(2, 4), wide_finish_lanes=3)
    assert parse_course("abu", rules=wide).profile() == "5s 7F 2F3 4Ff3"


def test_last_before_line_and_squares_past() -> None:
    course = parse_course("au", rules=BASE)
    assert course.length == 12 and course.last_before_line == 7  # FR-14: first past is 8
    assert course.square(8).role == "f" and course.square(7).role == ""


@pytest.mark.parametrize(("text", "capacity"), [("abu", 10), ("Abu", 8), ("^1bu", 15), ("1bu", 12)])
def test_start_capacity(text: str, capacity: int) -> None:
    assert parse_course(text).start_capacity == capacity


def test_terrain_lanes_and_breakaway() -> None:
    course = parse_course("a^27BU", rules=BASE)
    assert course.square(10).role == "b" and course.square(10).terrain == "F"
    lanes = [course.square(n).lanes for n in range(13, 19)]
    assert lanes == [2, 2, 1, 1, 2, 1]
    assert [course.square(n).terrain for n in range(13, 19)] == list("FFCCCC")
    assert [course.square(n).terrain for n in range(19, 25)] == list("DDDDFF")


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "course_empty", {}),
        ("abxu", "course_unknown_tile", {"tile": "x", "index": 3, "offset": 3}),
        ("a^2^zu", "course_unknown_tile", {"tile": "^", "index": 3, "offset": 4}),
        ("ab cu", "course_unknown_tile", {"tile": " ", "index": 3, "offset": 3}),
        ("abc", "course_no_finish", {"tile": "c"}),
        ("bcu", "course_no_start", {"tile": "b"}),
        ("abBu", "course_duplicate_tile", {"tile": "B", "index": 3, "first": 2}),
        ("a3c^3u", "course_duplicate_tile", {"tile": "^3", "index": 4, "first": 2}),
        ("abuc", "course_finish_not_last", {"tile": "u", "index": 3}),
        ("ab1u", "course_start_not_first", {"tile": "1", "index": 3}),
        ("aAu", "course_duplicate_tile", {"tile": "A", "index": 2, "first": 1}),
    ],
)
def test_bad_courses(text: str, code: str, params: dict[str, object]) -> None:
    with pytest.raises(CourseError) as info:
        parse_course(text)
    assert info.value.code == code
    assert info.value.message
    for key, value in params.items():
        assert info.value.params[key] == value


def test_unknown_tile_message_names_token_and_place() -> None:
    with pytest.raises(CourseError, match=r"'x' at tile 3 \(character 3\)"):
        parse_course("abxu")


def test_official_courses_lookup() -> None:
    assert len(OFFICIAL_COURSES) == 12
    assert official_course("la haute montagne").id == 3
    assert official_course("FIRENZE-MILANO").name == "Firenze–Milano"
    assert official_course(12).for_players(5) == "124qMOKRFsd3pln^9hgeTju"
    assert official_course(12).for_players(4) == "A^24qMOKRFsd3plnhgeTju"
    with pytest.raises(CourseError) as info:
        official_course("Paris–Roubaix")
    assert info.value.code == "course_unknown_name"
    for course in OFFICIAL_COURSES.values():
        for text in (course.small, course.large):
            parse_course(text)  # every official course is valid in both modes
            parse_course(text, rules=BASE)
