"""The automatic driver's use of optional dice: boost (RM-14) and a first die repeating the gear
(RM-11 parameter). Both are laid only where the turn they give is better value."""

from __future__ import annotations

import random
from functools import cache

from rm_lab import Lab, lab_track

from games.rallyman.layout import SAMPLE_STAGES, load_layout
from games.rallyman.policy import AutoDriver
from games.rallyman.simulate import CarEntry, simulate_stage
from games.rallyman.track import Track, build_track
from scoring.params import build_rules
from scoring.rally.rules import RallyRules


def rules(**data: object) -> RallyRules:
    built, errors = build_rules(RallyRules, data)
    assert not errors
    return built


@cache
def sample(name: str) -> Track:
    return build_track(load_layout(name))


CORNER = {"kind": "corner", "turn": "left", "inside": [3, 3, 3, 3], "outside": [4, 4, 4, 4, 4]}


def test_driver_boosts_when_it_crosses_the_line_in_a_higher_gear() -> None:
    # Three rows to the line: 1-2-3 and 4 over the line (20 s card), or with the boost
    # 2-3-4 and 5 over the line (15 s card, RM-41: the final card counts in full).
    lab = Lab(lab_track({"kind": "straight", "rows": 3}), rules=rules(boost_enabled=True))
    lab.place(1, "A.0.start-left")
    plan = AutoDriver().plan(lab.ctx())
    assert plan.steps[0].boost and [s.gear for s in plan.steps] == [2, 3, 4, 5]  # RM-14: 0 -> 2
    lab = Lab(lab_track({"kind": "straight", "rows": 3}))  # boost disabled (RM-2)
    lab.place(1, "A.0.start-left")
    assert [s.gear for s in AutoDriver().plan(lab.ctx()).steps] == [1, 2, 3, 4]


def test_driver_skips_the_boost_when_it_costs_a_row() -> None:
    # Undamaged: without the boost the gear-1 die is one more row; the boost die is not worth it.
    lab = Lab(lab_track({"kind": "straight", "rows": 10}), rules=rules(boost_enabled=True))
    lab.place(1, "A.0.start-left")
    assert not any(s.boost for s in AutoDriver().plan(lab.ctx()).steps)


def test_driver_does_not_boost_past_a_corner_limit() -> None:
    track = lab_track({"kind": "straight", "rows": 1}, CORNER, {"kind": "straight", "rows": 2})
    lab = Lab(track, rules=rules(boost_enabled=True))
    lab.place(1, "A.1.r0-left", gear=2)
    plan = AutoDriver().plan(lab.ctx())
    assert not any(s.boost for s in plan.steps)  # gear 4 would overspeed the inside lane (3)


def test_driver_repeats_its_gear_to_hold_a_corner_limit() -> None:
    track = lab_track({"kind": "straight", "rows": 1}, CORNER, {"kind": "straight", "rows": 2})
    for repeat in (False, True):
        lab = Lab(track, rules=rules(first_die_may_repeat_gear=repeat))
        lab.place(1, "A.2.inside0", gear=3)
        # The leader's orange coast die has two hazard faces, as many as the gear-3 die.
        steps = AutoDriver().plan(lab.ctx(leader=True)).steps
        if repeat:
            assert steps[0].gear == 3 and not steps[0].coast  # RM-11: gear 3 again
            assert sum(s.coast for s in steps) == 2  # both coast dice still laid later
        else:
            assert steps[0].coast


def mean_time(rules_: RallyRules, seeds: int = 12) -> float:
    total = count = 0
    for name in SAMPLE_STAGES:
        for seed in range(seeds):
            run = simulate_stage(
                sample(name), [CarEntry(c) for c in range(1, 5)], rules_, random.Random(seed)
            )
            for car in run.cars:
                assert car.status == "finished"
                total += car.net_time or 0
                count += 1
    return total / count


def test_boost_and_repeat_pay_over_many_stages() -> None:
    base = mean_time(RallyRules())
    assert mean_time(rules(boost_enabled=True)) < base - 3
    assert mean_time(rules(first_die_may_repeat_gear=True)) < base
