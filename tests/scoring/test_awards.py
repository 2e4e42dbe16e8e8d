"""End-of-tour awards (scoring/grand_tour/awards.py) on hand-made tours."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.grand_tour import GrandTourRules, StageResults, TourSetup, compute_standings
from scoring.grand_tour.awards import Award, tour_awards
from tests.scoring.gt_builders import make_setup, rider_id, simple_stage, stage

ORDER = ("RR", "RS", "BR", "BS", "GR", "GS")


def awards_of(setup: TourSetup, stages: Sequence[StageResults]) -> dict[str, Award]:
    standings = compute_standings(setup, stages, GrandTourRules())
    return {a.key: a for a in tour_awards(setup, stages, standings)}


def orders(setup: TourSetup, *lines: Sequence[str]) -> list[StageResults]:
    return [simple_stage(setup, n, line) for n, line in enumerate(lines, start=1)]


def test_most_stage_wins_second_places_and_podiums() -> None:
    setup = make_setup(teams=3, stages=3)
    stages = orders(
        setup,
        ("RR", "BS", "GR", "RS", "BR", "GS"),
        ("RR", "BS", "GR", "RS", "BR", "GS"),
        ("GS", "BR", "RR", "RS", "BS", "GR"),
    )
    got = awards_of(setup, stages)
    assert got["most_stage_wins"] == Award("most_stage_wins", 2, rider=rider_id(setup, "RR"))
    assert got["most_second_places"] == Award("most_second_places", 2, rider=rider_id(setup, "BS"))
    assert got["most_podiums"] == Award("most_podiums", 3, rider=rider_id(setup, "RR"))


def test_ties_give_no_award() -> None:
    setup = make_setup(teams=3, stages=2)
    stages = orders(
        setup, ("RR", "BS", "GR", "RS", "BR", "GS"), ("BS", "RR", "GS", "RS", "BR", "GR")
    )
    got = awards_of(setup, stages)
    # one win and one second place each: a tie; RR and BS both on two podiums.
    assert "most_stage_wins" not in got
    assert "most_second_places" not in got
    assert "most_podiums" not in got


def test_a_single_win_is_not_a_haul() -> None:
    setup = make_setup(teams=2, stages=2)
    stages = orders(setup, ("RR", "BS", "BR", "RS"), ("BR", "RS", "RR", "BS"))
    got = awards_of(setup, stages)
    assert "most_stage_wins" not in got  # figure 1 < 2: meaningless


def test_biggest_stage_loss_counts_from_the_fastest_rider() -> None:
    setup = make_setup(teams=2, stages=2)
    one = stage(
        setup,
        1,
        [("RR", "0:10", 0, 0), ("BS", "0:10", 0, 0), ("BR", "1:10", 0, 0), ("RS", "0:40", 0, 0)],
    )
    two = stage(
        setup,
        2,
        [("BS", "0:00", 0, 0), ("RR", "0:20", 0, 0), ("RS", "0:30", 0, 0), ("BR", "0:50", 0, 0)],
    )
    got = awards_of(setup, [one, two])
    assert got["biggest_stage_loss"] == Award(
        "biggest_stage_loss", 60, rider=rider_id(setup, "BR"), stage=1
    )


def test_no_time_lost_anywhere_is_no_loss_award_and_equal_losses_tie() -> None:
    setup = make_setup(teams=2, stages=1)
    level = orders(setup, ("RR", "BS", "BR", "RS"))
    assert "biggest_stage_loss" not in awards_of(setup, level)
    tied = [
        stage(
            setup,
            1,
            [
                ("RR", "0:00", 0, 0),
                ("BS", "0:10", 0, 0),
                ("BR", "0:30", 0, 0),
                ("RS", "0:30", 0, 0),
            ],
        )
    ]
    assert "biggest_stage_loss" not in awards_of(setup, tied)


def test_closest_teammates() -> None:
    setup = make_setup(teams=3, stages=1)
    one = stage(
        setup,
        1,
        [
            ("RR", "0:00", 0, 0),
            ("RS", "0:10", 0, 0),
            ("BR", "0:20", 0, 0),
            ("GR", "0:30", 0, 0),
            ("BS", "1:20", 0, 0),
            ("GS", "1:30", 0, 0),
        ],
    )
    got = awards_of(setup, [one])
    assert got["closest_teammates"] == Award("closest_teammates", 10, team=1)


def test_closest_teammates_tie_and_a_lone_team() -> None:
    setup = make_setup(teams=2, stages=1)
    one = stage(
        setup,
        1,
        [("RR", "0:00", 0, 0), ("RS", "0:10", 0, 0), ("BR", "0:20", 0, 0), ("BS", "0:30", 0, 0)],
    )
    assert "closest_teammates" not in awards_of(setup, [one])
    alone = make_setup(teams=1, stages=1)
    got = awards_of(alone, [stage(alone, 1, [("RR", "0:00", 0, 0), ("RS", "0:10", 0, 0)])])
    assert "closest_teammates" not in got  # nothing to be closer than


def test_longest_run_without_podium() -> None:
    setup = make_setup(teams=3, stages=4)
    stages = orders(
        setup,
        ("RR", "BR", "GS", "RS", "BS", "GR"),
        ("GR", "RS", "BS", "RR", "BR", "GS"),
        ("RR", "GS", "BR", "RS", "BS", "GR"),
        ("RS", "BS", "GR", "RR", "BR", "GS"),
    )
    # GR: podium on 2 and 4; BS: 2 and 4; RR 1, 3; GS: 1, 3; BR: 1, 3; RS: 2, 4 → all runs ≤ 1.
    assert "longest_run_without_podium" not in awards_of(setup, stages)
    stages[3] = simple_stage(setup, 4, ("RS", "BS", "RR", "GR", "BR", "GS"))
    got = awards_of(setup, stages)
    assert got["longest_run_without_podium"] == Award(
        "longest_run_without_podium", 2, rider=rider_id(setup, "GR")
    )


def test_biggest_climber_and_lanterne_rouge() -> None:
    setup = make_setup(teams=2, stages=2)
    one = stage(
        setup,
        1,
        [("RR", "0:00", 0, 0), ("BS", "0:10", 0, 0), ("RS", "0:20", 0, 0), ("BR", "1:00", 0, 0)],
    )
    two = stage(
        setup,
        2,
        [("BR", "0:00", 0, 0), ("RR", "0:10", 0, 0), ("BS", "0:15", 0, 0), ("RS", "1:00", 0, 0)],
    )
    got = awards_of(setup, [one, two])
    # after stage 1: RR, BS, RS, BR; final: RR 10, BS 25, BR 60, RS 80 → BR gains one place.
    assert got["biggest_climber"] == Award("biggest_climber", 1, rider=rider_id(setup, "BR"))
    assert got["lanterne_rouge"] == Award("lanterne_rouge", 70, rider=rider_id(setup, "RS"))
    assert "biggest_stage_loss" not in got  # BR on stage 1 and RS on stage 2 both lost 60 s


def test_two_climbers_level_is_no_award() -> None:
    setup = make_setup(teams=2, stages=2)
    one = stage(
        setup,
        1,
        [("RR", "0:00", 0, 0), ("BS", "0:10", 0, 0), ("RS", "0:20", 0, 0), ("BR", "0:30", 0, 0)],
    )
    two = stage(
        setup,
        2,
        [("BR", "0:00", 0, 0), ("RS", "0:00", 0, 0), ("RR", "0:50", 0, 0), ("BS", "0:50", 0, 0)],
    )
    # final: BR 30, RS 20, RR 50, BS 60 → RS, BR, RR, BS: RS and BR both gain two places.
    assert "biggest_climber" not in awards_of(setup, [one, two])


def test_nobody_climbing_and_everyone_level_are_meaningless() -> None:
    setup = make_setup(teams=2, stages=2)
    level = orders(setup, ("RR", "BS", "BR", "RS"), ("RR", "BS", "BR", "RS"))
    got = awards_of(setup, level)
    assert "biggest_climber" not in got
    assert "lanterne_rouge" not in got  # everyone on the same time: nobody is last by any gap
    assert "biggest_stage_loss" not in got


def test_no_awards_before_the_last_stage() -> None:
    setup = make_setup(teams=2, stages=3)
    stages = orders(setup, ("RR", "BS", "BR", "RS"), ("RR", "BS", "BR", "RS"))
    standings = compute_standings(setup, stages, GrandTourRules())
    assert tour_awards(setup, stages, standings) == ()
