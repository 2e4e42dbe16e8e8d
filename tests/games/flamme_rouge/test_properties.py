"""Properties over many seeds and every official course (FR-41, FR-51, FR-54, FR-65, FR-72)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.flamme_rouge import OFFICIAL_COURSES, Stack, StageRules, StageSetup, simulate_stage
from tests.games.flamme_rouge.helpers import setup

COURSES = [c.small for c in OFFICIAL_COURSES.values()] + [
    c.large for c in OFFICIAL_COURSES.values() if c.large != c.small
]
SPECIALISTS_R = [
    None,
    "baroudeur",
    "flandrien",
    "grimpeur",
    "domestique",
    "super_rouleur",
    "puncheur",
]
SPECIALISTS_S = [
    None,
    "descender",
    "polyvalent",
    "mountaineer",
    "squirrel",
    "super_sprinteur",
    "flahute",
]


@st.composite
def stages(draw: st.DrawFn) -> tuple[StageSetup, int]:
    course = draw(st.sampled_from(COURSES))
    capacity = {"a": 10, "A": 8, "^": 15, "1": 12}[course[0]]
    dummies = draw(st.sampled_from(["none", "peloton", "muscle", "both"]))
    extra = {"none": 0, "peloton": 2, "muscle": 2, "both": 4}[dummies]
    count = draw(st.integers(1, min(6, (capacity - extra) // 2)))
    riders: dict[str, Any] = {}
    for t in range(1, count + 1):
        riders[f"r{10 * t + 1}"] = {
            "specialist": draw(st.sampled_from(SPECIALISTS_R)),
            "exhaustion": draw(st.integers(0, 4)),
        }
        riders[f"r{10 * t + 2}"] = {"specialist": draw(st.sampled_from(SPECIALISTS_S))}
    n = 78
    stacks = tuple(
        Stack(
            f"k{k}",
            draw(st.sampled_from(["major", "minor"])),
            draw(st.sampled_from(["sprint", "mountain"])),
            draw(st.integers(1, n)),
        )
        for k in range(draw(st.integers(0, 3)))
    )
    stage = setup(course, count, stacks=stacks, dummies=dummies, **riders)
    return stage, draw(st.integers(0, 2**32))


@settings(max_examples=60, deadline=None)
@given(stages())
def test_stage_invariants(case: tuple[StageSetup, int]) -> None:
    stage, seed = case
    outcome = simulate_stage(stage, seed)
    riders = outcome.riders
    expected = (
        2 * len(stage.teams) + {"none": 0, "peloton": 2, "muscle": 2, "both": 4}[stage.dummy_teams]
    )
    assert len(riders) == expected
    # Every rider finishes; positions are a permutation in FR-72 order.
    assert all(r.crossing_round is not None for r in riders)
    assert [r.position for r in riders] == list(range(1, len(riders) + 1))
    keys = [(r.crossing_round, -r.squares_past, r.lane) for r in riders]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    # FR-51: stage times never decrease along the finishing order; FR-49 minutes.
    times = [r.time_s for r in riders]
    assert times == sorted(times)
    r1 = outcome.header["r1"]
    assert all(r.minutes == (r.crossing_round or 0) - r1 for r in riders)
    # Tokens handed out never exceed the stacks.
    rules = StageRules()
    for stack in stage.stacks:
        values = rules.major_tokens if stack.type == "major" else rules.minor_tokens
        taken = sorted(v for r in riders for sid, v in r.tokens if sid == stack.id)
        assert len(taken) <= len(values)
        assert taken == sorted(sorted(values, reverse=True)[: len(taken)])
    # Same seed, same result and byte-identical log.
    again = simulate_stage(stage, seed)
    assert again.riders == riders and again.log_json() == outcome.log_json()
    # The submission keeps the tour's riders only, renumbered.
    rows = outcome.submission()
    assert [row["position"] for row in rows] == list(range(1, 2 * len(stage.teams) + 1))


def test_every_official_course_and_variant_finishes() -> None:
    for index, course in enumerate(COURSES):
        capacity = {"a": 10, "A": 8, "^": 15, "1": 12}[course[0]]
        outcome = simulate_stage(setup(course, capacity // 2), index)
        assert all(r.crossing_round is not None for r in outcome.riders)
        assert len(outcome.riders) == 2 * (capacity // 2)
