"""The neutral points championship (scoring.points): league scoring, presets and row checks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.formula_d import ChampionshipDriver, RaceEntry, RaceResult, build_formula_d_rules
from scoring.formula_d import compute_standings as fd_standings
from scoring.params import ParamError
from scoring.points import (
    LEAGUE_POINTS_PRESETS,
    Entrant,
    Finish,
    Race,
    Scale,
    compute_standings,
    parse_finishes,
    points_table,
    validate_finishing_order,
)

DRIVERS = (Entrant(1, "Ana", "Red"), Entrant(2, "Rui", "Red"), Entrant(3, "Eva"))
HEAT_LIKE = (9, 6, 4, 3, 2, 1)


def race(number: int, order: list[int], dnf: tuple[int, ...] = (), bonus: Any = None) -> Race:
    bonus = bonus or {}
    return Race(
        number,
        tuple(
            Finish(d, i + 1, "dnf" if d in dnf else "finished", bonus.get(d, 0))
            for i, d in enumerate(order)
        ),
    )


def table(standings: Any) -> list[tuple[str, int]]:
    return [(d.name, d.points) for d in standings.drivers]


def test_presets_default_and_custom_tables() -> None:
    assert points_table(None) == LEAGUE_POINTS_PRESETS["f1-2010"]
    assert points_table("f1-2010") == (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
    assert points_table("classic") == (10, 6, 4, 3, 2, 1)
    assert points_table([9, 6, 4, 3, 2, 1]) == HEAT_LIKE
    assert "heat" not in LEAGUE_POINTS_PRESETS  # no citable source (decisions-leagues.md)
    for bad, code in (
        ("box-team-race", "unknown_preset"),
        ([3, 5], "points_increasing"),
        ([], "empty_list"),
        ([1, -1], "min_value"),
        ([1.5], "not_int_list"),
    ):
        with pytest.raises(ParamError) as err:
            points_table(bad)
        assert err.value.code == code


def test_finishers_score_dnf_does_not_by_default() -> None:
    s = compute_standings(DRIVERS, [race(1, [3, 1, 2], dnf=(2,))], Scale(HEAT_LIKE))
    assert table(s) == [("Eva", 9), ("Ana", 6), ("Rui", 0)]
    assert s.drivers[2].statuses == ("dnf",)
    assert s.drivers[2].results == (None,)  # a dnf has no finishing position (FD-76)
    assert s.to_json()["after_race"] == 1
    scored = compute_standings(DRIVERS, [race(1, [3, 1, 2], dnf=(2,))], Scale(HEAT_LIKE, False))
    assert table(scored)[2] == ("Rui", 4)  # points_finishers_only false: by classified position


def test_bonus_adds_to_the_race_total_even_for_a_dnf() -> None:
    s = compute_standings(
        DRIVERS, [race(1, [1, 2, 3], dnf=(3,), bonus={3: 2, 2: 1})], Scale(HEAT_LIKE)
    )
    assert table(s) == [("Ana", 9), ("Rui", 7), ("Eva", 2)]
    assert [t.to_json() for t in s.teams] == [{"rank": 1, "team": "Red", "points": 16}]


def test_drop_worst_counts_races_not_entered_and_keeps_one() -> None:
    races = [race(1, [1, 2, 3]), race(2, [2, 1]), race(3, [3, 2, 1])]
    s = compute_standings(DRIVERS, races, Scale(HEAT_LIKE, drop_worst=1))
    eva = next(d for d in s.drivers if d.name == "Eva")
    assert eva.race_totals == (4, 0, 9)
    assert eva.dropped == (2,)  # the race she did not start
    assert eva.statuses == ("finished", "not_entered", "finished")
    one = compute_standings(DRIVERS, races[:1], Scale(HEAT_LIKE, drop_worst=5))
    assert table(one)[0] == ("Ana", 9)  # at most races - 1 dropped (FD-74)


def test_countback_then_most_recent_race_then_list_order() -> None:
    # Ana and Rui: one win and one 2nd each; Rui was ahead in the latest race.
    races = [race(1, [1, 2, 3]), race(2, [2, 1, 3])]
    assert [d.name for d in compute_standings(DRIVERS, races, Scale(HEAT_LIKE)).drivers] == [
        "Rui",
        "Ana",
        "Eva",
    ]
    # Every tie-break equal: the league's driver-list order.
    s = compute_standings(DRIVERS, [race(1, [3])], Scale(HEAT_LIKE))
    assert [(d.rank, d.name) for d in s.drivers] == [(1, "Eva"), (2, "Ana"), (3, "Rui")]


def test_after_race_and_no_races() -> None:
    races = [race(1, [1, 2, 3]), race(2, [3, 2, 1])]
    assert compute_standings(DRIVERS, races, Scale(HEAT_LIKE), after_race=1).after_race == 1
    empty = compute_standings(DRIVERS, [], Scale(HEAT_LIKE)).to_json()
    assert empty == {"after_race": None, "drivers": [], "teams": []}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.permutations([1, 2, 3, 4]), min_size=1, max_size=5),
    st.integers(0, 3),
    st.booleans(),
    st.lists(st.integers(1, 4), max_size=5),
)
def test_formula_d_standings_are_the_neutral_ones(
    orders: list[list[int]], drop: int, finishers_only: bool, poles: list[int]
) -> None:
    """Formula D scores through the neutral entry point: the same orders, the same standings."""
    drivers = [ChampionshipDriver(i, f"D{i}", "T" if i % 2 else None) for i in range(1, 5)]
    rules, errors = build_formula_d_rules(
        {"drop_worst": drop, "points_finishers_only": finishers_only, "pole_bonus": 2}
    )
    assert not errors
    fd_races, races = [], []
    for n, order in enumerate(orders, start=1):
        pole = poles[n - 1] if n <= len(poles) else None
        out = order[-1]  # the last car is out: FD eliminated, a league dnf
        fd_races.append(
            RaceResult(
                n,
                tuple(
                    RaceEntry(d, p, "eliminated" if d == out else "finished", 1, pole=d == pole)
                    for p, d in enumerate(order, start=1)
                ),
            )
        )
        races.append(
            Race(
                n,
                tuple(
                    Finish(d, p, "dnf" if d == out else "finished", 2 if d == pole else 0)
                    for p, d in enumerate(order, start=1)
                ),
            )
        )
    points = (10, 8, 6, 5)
    fd = fd_standings(drivers, fd_races, points=points, rules=rules)
    league = compute_standings(drivers, races, Scale(points, finishers_only, drop))
    assert [(d.driver, d.points, d.results) for d in fd.drivers] == [
        (d.driver, d.points, d.results) for d in league.drivers
    ]
    assert fd.teams == league.teams


def codes(rows: Any, *, entered: tuple[int, ...] = (1, 2, 3), bonus: bool = False) -> list[Any]:
    known = (1, 2, 3, 4)
    issues = validate_finishing_order(rows, entered=entered, known=known, bonus_allowed=bonus)
    return [(i.index, i.field, i.code) for i in issues]


def rows(*spec: tuple[int, int, str], **extra: Any) -> list[dict[str, Any]]:
    return [{"driver": d, "position": p, "status": s, **extra} for d, p, s in spec]


def test_a_valid_order_and_its_parse() -> None:
    good = rows((2, 1, "finished"), (1, 2, "finished"), (3, 3, "dnf"))
    assert codes(good) == []
    assert parse_finishes(good[::-1]) == (
        Finish(2, 1),
        Finish(1, 2),
        Finish(3, 3, "dnf"),
    )
    with_bonus = [{**good[0], "bonus": 2}, *good[1:]]
    assert codes(with_bonus, bonus=True) == []
    assert parse_finishes(with_bonus)[0].bonus == 2


def test_every_entered_driver_exactly_once() -> None:
    assert codes(rows((1, 1, "finished"), (1, 2, "finished"), (2, 3, "finished"))) == [
        (1, "driver", "duplicate_driver"),
        (None, "driver", "missing_driver"),
    ]
    assert codes(rows((1, 1, "finished"), (4, 2, "finished")), entered=(1, 2)) == [
        (1, "driver", "not_entered"),
        (None, "driver", "missing_driver"),
    ]
    assert codes(rows((9, 1, "finished")), entered=(1,))[0] == (0, "driver", "unknown_driver")


def test_positions_exactly_one_to_n_and_dnf_after_finishers() -> None:
    assert codes(rows((1, 1, "finished"), (2, 1, "finished"), (3, 4, "finished"))) == [
        (0, "position", "duplicate_position"),
        (1, "position", "duplicate_position"),
        (2, "position", "position_range"),
    ]
    assert codes(rows((1, 1, "dnf"), (2, 2, "finished"), (3, 3, "dnf"))) == [
        (1, "position", "dnf_ahead"),
    ]


def test_row_shapes_and_bonus() -> None:
    assert codes({"driver": 1}) == [(None, None, "not_list")]
    assert codes(["x"], entered=()) == [(0, None, "not_object")]
    bad = [{"driver": "1", "position": True, "status": "out", "laps": 2, "bonus": 1}]
    assert codes(bad, entered=()) == [
        (0, "laps", "unknown_field"),
        (0, "bonus", "bonus_not_allowed"),
        (0, "driver", "not_int"),
        (0, "position", "not_int"),
        (0, "status", "invalid_status"),
    ]
    assert codes([{}], entered=())[:1] == [(0, "driver", "required")]
    no_bonus = rows((1, 1, "finished"), bonus=1)
    assert codes(no_bonus, entered=(1,)) == [(0, "bonus", "bonus_not_allowed")]
    for value in (-1, 1.5, "2", True):
        assert codes(rows((1, 1, "finished"), bonus=value), entered=(1,), bonus=True) == [
            (0, "bonus", "bonus_range")
        ]
    # A null bonus is no bonus, allowed or not.
    assert codes(rows((1, 1, "finished"), bonus=None), entered=(1,)) == []
