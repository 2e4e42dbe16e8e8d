"""Formula D championship standings as pure functions (FD-70 to FD-77)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.formula_d import (
    ChampionshipDriver,
    FormulaDRules,
    RaceEntry,
    RaceResult,
    build_formula_d_rules,
    compute_standings,
    resolve_points,
)
from scoring.params import ParamError

DRIVERS = (
    ChampionshipDriver(1, "Ana", "Tejo"),
    ChampionshipDriver(2, "Rui", "Tejo"),
    ChampionshipDriver(3, "Eva", "Sado"),
    ChampionshipDriver(4, "Gil", "Sado"),
)
BOX = resolve_points("box-team-race")


def race(
    number: int, order: list[int], out: tuple[int, ...] = (), pole: int | None = None, laps: int = 1
) -> RaceResult:
    """A race result: drivers in classified order; those in ``out`` are eliminated."""
    entries = []
    for i, d in enumerate(order):
        eliminated = d in out
        entries.append(
            RaceEntry(
                d,
                i + 1,
                "eliminated" if eliminated else "finished",
                0 if eliminated else laps,
                pole=d == pole,
            )
        )
    return RaceResult(number, tuple(entries))


def rows(standings: Any) -> list[tuple[int, int]]:
    return [(d.driver, d.points) for d in standings.drivers]


def test_points_presets_and_custom_tables() -> None:
    assert resolve_points(None) == (10, 8, 6, 5, 4, 3, 2, 1)
    assert resolve_points("f1-2010")[:3] == (25, 18, 15)
    assert resolve_points("classic") == (10, 6, 4, 3, 2, 1)
    assert resolve_points([5, 3, 3, 0]) == (5, 3, 3, 0)
    for bad, code in (
        (["x"], "not_int_list"),
        ([1, 2], "points_increasing"),
        ("nascar", "unknown_preset"),
        ([-1], "min_value"),
    ):
        with pytest.raises(ParamError) as err:
            resolve_points(bad)
        assert err.value.code == code


def test_basic_standings_shape() -> None:
    s = compute_standings(
        DRIVERS, [race(1, [3, 1, 2, 4]), race(2, [1, 3, 4, 2])], points=BOX, rules=FormulaDRules()
    )
    data = s.to_json()
    assert data["after_race"] == 2
    # Ana and Eva: 18 each, one win and one 2nd each; Ana won the latest race (FD-76 (2)).
    assert data["drivers"][0] == {
        "rank": 1,
        "driver": 1,
        "name": "Ana",
        "team": "Tejo",
        "points": 18,
        "wins": 1,
        "results": [2, 1],
        "statuses": ["finished", "finished"],
    }
    assert [d["driver"] for d in data["drivers"]] == [1, 3, 4, 2]  # Gil beat Rui in race 2
    assert [d["rank"] for d in data["drivers"]] == [1, 2, 3, 4]
    # Teams tie on 29 with the same pooled positions; in race 2 Tejo's best car (1st) beat
    # Sado's (2nd): FD-76 (2) decides for teams too (FD-77, decisions-formula-d.md).
    sado = data["teams"][1].pop("tie_break")  # issue #17: why Sado is second
    assert sado["code"] == "recent_race_places"
    assert data["teams"] == [
        {"rank": 1, "team": "Tejo", "points": 29},
        {"rank": 2, "team": "Sado", "points": 29},
    ]


def test_positions_beyond_the_table_score_nothing() -> None:
    s = compute_standings(DRIVERS, [race(1, [1, 2, 3, 4])], points=(3, 1), rules=FormulaDRules())
    assert dict(rows(s)) == {1: 3, 2: 1, 3: 0, 4: 0}


def test_finishers_only_and_the_switch() -> None:
    # FD-71: eliminated Gil is 3rd but scores nothing unless points_finishers_only is off.
    r = [race(1, [1, 2, 4, 3], out=(4, 3))]
    on = compute_standings(DRIVERS, r, points=BOX, rules=FormulaDRules())
    off = compute_standings(
        DRIVERS, r, points=BOX, rules=FormulaDRules(points_finishers_only=False)
    )
    assert dict(rows(on))[4] == 0 and dict(rows(off))[4] == 6
    assert on.drivers[2].results == (None,) and on.drivers[2].statuses == ("eliminated",)


def test_pole_bonus() -> None:
    r = [race(1, [1, 2, 3, 4], pole=4)]
    s = compute_standings(DRIVERS, r, points=BOX, rules=FormulaDRules(pole_bonus=2))
    assert dict(rows(s))[4] == 5 + 2


def test_countback_most_wins_then_seconds() -> None:
    # Ana and Eva both score 18 with one win and one 2nd each: the countback is level, so
    # the most recent race where they differ decides (Eva won race 2).
    r = [race(1, [1, 3, 2, 4]), race(2, [3, 1, 4, 2])]
    s = compute_standings(DRIVERS, r, points=(10, 8, 0, 0), rules=FormulaDRules())
    assert rows(s)[:2] == [(3, 18), (1, 18)]
    # Rui (a 3rd and a 4th: 6) vs Gil (a 4th and a 3rd: 6) with points for 3rd and 4th.
    s2 = compute_standings(DRIVERS, r, points=(0, 0, 3, 3), rules=FormulaDRules())
    assert [d.driver for d in s2.drivers][:2] == [4, 2]  # Gil was 3rd in race 2


def test_countback_wins_beat_points_order_in_list() -> None:
    # Gil (one win, 10) vs Rui (8+2=10 without a win): Gil ranks first despite list order.
    r = [race(1, [4, 1, 2, 3], out=()), race(2, [1, 2, 3, 4])]
    s = compute_standings(DRIVERS, r, points=(10, 2, 0, 0), rules=FormulaDRules())
    order = [d.driver for d in s.drivers]
    assert order.index(4) < order.index(2)


def test_countback_ignores_eliminated_positions() -> None:
    # FD-76: eliminated = no position. Rui has a 3rd; Gil a 4th and a 2nd place while
    # eliminated, which does not count: Rui ranks above Gil.
    r = [race(1, [1, 3, 2, 4]), race(2, [1, 4, 3, 2], out=(4, 3, 2))]
    s = compute_standings(DRIVERS, r, points=(0,), rules=FormulaDRules())
    order = [d.driver for d in s.drivers]
    assert order.index(2) < order.index(4)
    assert next(d for d in s.drivers if d.driver == 4).results == (4, None)


def test_driver_list_order_is_the_last_tie_break() -> None:
    s = compute_standings(DRIVERS, [RaceResult(1, ())], points=BOX, rules=FormulaDRules())
    assert [d.driver for d in s.drivers] == [1, 2, 3, 4]
    assert [d.rank for d in s.drivers] == [1, 2, 3, 4]


def test_drop_worst_including_races_not_started() -> None:
    # FD-74: Gil missed race 2 (0) and that is dropped; at most races - 1 are dropped.
    r = [race(1, [4, 1, 2, 3]), race(2, [1, 2, 3]), race(3, [1, 4, 2, 3])]
    rules, errors = build_formula_d_rules({"drop_worst": 1})
    assert errors == {}
    s = compute_standings(DRIVERS, r, points=BOX, rules=rules)
    gil = next(d for d in s.drivers if d.driver == 4)
    assert gil.points == 18 and gil.dropped == (2,)
    assert gil.statuses == ("finished", "not_entered", "finished")
    only_one = compute_standings(DRIVERS, r[:1], points=BOX, rules=FormulaDRules(drop_worst=5))
    assert dict(rows(only_one))[4] == 10


def test_teams_do_not_drop_results() -> None:
    r = [race(1, [4, 1, 2, 3]), race(2, [1, 2, 3])]
    s = compute_standings(DRIVERS, r, points=BOX, rules=FormulaDRules(drop_worst=1))
    assert {t.team: t.points for t in s.teams} == {"Tejo": 8 + 6 + 10 + 8, "Sado": 10 + 5 + 6}


def test_team_tie_broken_by_pooled_countback_then_name() -> None:
    drivers = (ChampionshipDriver(1, "A", "Zeta"), ChampionshipDriver(2, "B", "Alfa"))
    s = compute_standings(drivers, [race(1, [1, 2])], points=(5, 5), rules=FormulaDRules())
    assert [t.team for t in s.teams] == ["Zeta", "Alfa"]  # the win decides
    tie = compute_standings(drivers, [RaceResult(1, ())], points=(5, 5), rules=FormulaDRules())
    assert [t.team for t in tie.teams] == ["Alfa", "Zeta"]  # then the name


def test_team_tie_goes_to_the_most_recent_race_before_the_name() -> None:
    # FD-77 breaks team ties "as in FD-76", so its step (2) applies: equal points and pooled
    # countback (each team has a 1st, 2nd, 3rd and 4th), then the most recent race where the
    # teams' classified positions differ, best car first, and only then the team name.
    tejo_first = race(1, [1, 3, 4, 2])  # Tejo 1st and 4th, Sado 2nd and 3rd
    sado_first = race(2, [3, 1, 2, 4])  # Sado 1st and 4th, Tejo 2nd and 3rd
    s = compute_standings(
        DRIVERS, [tejo_first, sado_first], points=(4, 3, 2, 1), rules=FormulaDRules()
    )
    assert [(t.team, t.points) for t in s.teams] == [("Sado", 10), ("Tejo", 10)]
    swapped = [RaceResult(1, sado_first.entries), RaceResult(2, tejo_first.entries)]
    s = compute_standings(DRIVERS, swapped, points=(4, 3, 2, 1), rules=FormulaDRules())
    assert [(t.team, t.points) for t in s.teams] == [("Tejo", 10), ("Sado", 10)]  # not the name


def test_after_race_and_empty() -> None:
    r = [race(1, [1, 2, 3, 4]), race(2, [4, 3, 2, 1])]
    assert (
        compute_standings(DRIVERS, r, points=BOX, rules=FormulaDRules(), after_race=1).after_race
        == 1
    )
    empty = compute_standings(DRIVERS, [], points=BOX, rules=FormulaDRules())
    assert empty.to_json() == {"after_race": None, "drivers": [], "teams": []}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.permutations([1, 2, 3, 4]), min_size=1, max_size=6),
    st.integers(min_value=0, max_value=3),
)
def test_ranks_are_a_permutation_and_points_sum(orders: list[list[int]], drop: int) -> None:
    races = [race(i + 1, list(o)) for i, o in enumerate(orders)]
    s = compute_standings(DRIVERS, races, points=BOX, rules=FormulaDRules(drop_worst=drop))
    assert [d.rank for d in s.drivers] == [1, 2, 3, 4]
    assert sorted(d.driver for d in s.drivers) == [1, 2, 3, 4]
    pts = [d.points for d in s.drivers]
    assert pts == sorted(pts, reverse=True)
    if drop == 0:
        assert sum(pts) == len(races) * sum(BOX[:4])
        assert sum(t.points for t in s.teams) == sum(pts)
    # Standings after race k equal a fresh computation over the first k races.
    k = len(races) // 2 + 1
    assert compute_standings(
        DRIVERS, races, points=BOX, rules=FormulaDRules(drop_worst=drop), after_race=k
    ) == compute_standings(DRIVERS, races[:k], points=BOX, rules=FormulaDRules(drop_worst=drop))
