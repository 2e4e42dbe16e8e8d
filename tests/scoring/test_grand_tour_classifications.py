"""Ranking, jerseys, Rest Day leaders and bonuses (scoring/grand_tour/classifications.py)."""

from __future__ import annotations

import pytest

from scoring.grand_tour import ClassificationTP, GrandTourRules, RiderPointsRow, RiderTimeRow
from scoring.grand_tour.classifications import (
    award_jerseys,
    best_position,
    classification_bonus,
    rank_general,
    rank_points,
    rank_teams,
    rest_day_awards,
)
from tests.scoring.gt_builders import make_setup

SETUP = make_setup(teams=3)
RIDERS = SETUP.riders  # ids 11 12 21 22 31 32
POSITION = {11: 4, 12: 1, 21: 5, 22: 2, 31: 3, 32: 6}


def points_rows(points: dict[int, int]) -> tuple[RiderPointsRow, ...]:
    return rank_points(RIDERS, points, POSITION)


def test_rank_general_ties_by_position() -> None:
    time = {11: 70, 12: 0, 21: 70, 22: 0, 31: 20, 32: 150}
    rows = rank_general(RIDERS, time, POSITION)
    assert [(r.rank, r.rider, r.gap) for r in rows] == [
        (1, 12, 0),
        (2, 22, 0),
        (3, 31, 20),
        (4, 11, 70),
        (5, 21, 70),
        (6, 32, 150),
    ]


def test_rank_points_zero_points_by_position() -> None:
    rows = points_rows({11: 0, 12: 0, 21: 2, 22: 0, 31: 2, 32: 5})
    assert [r.rider for r in rows] == [32, 31, 21, 12, 22, 11]


def test_rank_teams_by_better_placed_rider() -> None:
    time = {11: 10, 12: 20, 21: 0, 22: 30, 31: 5, 32: 100}
    best = best_position(SETUP.teams, POSITION)
    assert best == {1: 1, 2: 2, 3: 3}
    rows = rank_teams(SETUP.teams, time, best)
    assert [(r.team, r.time, r.gap) for r in rows] == [(1, 30, 0), (2, 30, 0), (3, 105, 75)]


@pytest.mark.parametrize("needs_points", [True, False])
def test_jersey_cascade_gc_sc_mc(needs_points: bool) -> None:
    general = rank_general(RIDERS, {11: 0, 12: 5, 21: 9, 22: 9, 31: 9, 32: 9}, POSITION)
    sprint = points_rows({11: 3, 12: 2, 21: 0, 22: 0, 31: 0, 32: 0})
    mountain = points_rows({11: 4, 12: 1, 21: 0, 22: 0, 31: 0, 32: 0})
    jerseys = award_jerseys(
        general, sprint, mountain, GrandTourRules(jersey_needs_points=needs_points)
    )
    # 11 leads everything: yellow. 12 second in SC: green. MC: 11, 12 wear jerseys; 22 is first
    # of the riders without points (position 2) and only wears polka without the points rule.
    assert jerseys == {"yellow": 11, "green": 12, "polka_dot": None if needs_points else 22}


def test_rest_day_awards_go_to_leaders() -> None:
    general = rank_general(RIDERS, {11: 0, 12: 5, 21: 9, 22: 9, 31: 9, 32: 9}, POSITION)
    sprint = points_rows({11: 3, 12: 2, 21: 0, 22: 0, 31: 0, 32: 0})
    mountain = points_rows({11: 0, 12: 0, 21: 0, 22: 0, 31: 0, 32: 0})
    assert rest_day_awards(general, sprint, mountain, GrandTourRules()) == (
        ("general", 11),
        ("sprint", 11),
    )
    assert rest_day_awards(
        general, sprint, mountain, GrandTourRules(jersey_needs_points=False)
    ) == (("general", 11), ("sprint", 11), ("mountain", 12))


@pytest.mark.parametrize(
    ("stage_count", "teams", "column"),
    [(1, 3, 0), (7, 3, 0), (8, 3, 1), (14, 6, 1), (15, 3, 2), (21, 4, 2), (21, 2, 0), (8, 2, 0)],
)
def test_bonus_column(stage_count: int, teams: int, column: int) -> None:
    assert ClassificationTP().column(stage_count, teams) == column


def test_bonus_uses_custom_table() -> None:
    table = ClassificationTP(
        bands=(3, 21),
        general=((1,), (10, 5)),
        sprint=((1,), (7,)),
        mountain=((1,), (6,)),
        team=((1,), (100,)),
    )
    rules = GrandTourRules(classification_tp=table)
    general = rank_general(RIDERS, {11: 0, 12: 5, 21: 9, 22: 9, 31: 9, 32: 9}, POSITION)
    sprint = points_rows({11: 0, 12: 0, 21: 0, 22: 0, 31: 1, 32: 0})
    mountain = points_rows({11: 0, 12: 0, 21: 0, 22: 0, 31: 0, 32: 0})
    best = best_position(SETUP.teams, POSITION)
    team = rank_teams(SETUP.teams, {11: 0, 12: 5, 21: 9, 22: 9, 31: 9, 32: 9}, best)
    bonus = classification_bonus(SETUP.teams, 4, general, sprint, mountain, team, rules)
    # GC 11, 12 -> team 1 gets 15; SC 31 -> team 3 gets 7; MC nobody has points; Team 1 -> 100.
    assert bonus == {1: 115, 2: 0, 3: 7}


def test_empty_rows() -> None:
    assert rank_general((), {}, {}) == ()
    assert rank_teams((), {}, {}) == ()
    assert award_jerseys((), (), (), GrandTourRules()) == {
        "yellow": None,
        "green": None,
        "polka_dot": None,
    }
    assert rest_day_awards((), (), (), GrandTourRules()) == ()


def test_rows_are_the_model_types() -> None:
    rows = rank_general(RIDERS, dict.fromkeys((11, 12, 21, 22, 31, 32), 0), POSITION)
    assert all(isinstance(r, RiderTimeRow) for r in rows)
    assert [r.name for r in rows] == ["RS", "BS", "GR", "RR", "BR", "GS"]
