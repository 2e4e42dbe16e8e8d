"""RM-47 to RM-51: rally championship scoring as pure functions."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rally.championship import (
    ChampionshipSettings,
    championship_standings,
    normalize_name,
    parse_championship_settings,
)
from scoring.rally.rules import RallyRules
from scoring.rally.sheet import StageEntry
from scoring.rally.standings import (
    RallyDriver,
    RallyInputError,
    RallyStandings,
    StageSheet,
    rally_standings,
)

RULES = RallyRules()


def rally(times: dict[str, list[int | None]], ids: int = 0) -> RallyStandings:
    """A rally from ``{name: [stage times or None for retired]}``, entry order as given."""
    drivers = [RallyDriver(ids + i, name) for i, name in enumerate(times)]
    stages = len(next(iter(times.values())))
    sheets = [
        StageSheet(
            k + 1,
            tuple(
                StageEntry(d.id, "finished", t[k])
                if t[k] is not None
                else StageEntry(d.id, "retired")
                for d, t in zip(drivers, times.values(), strict=True)
            ),
        )
        for k in range(stages)
    ]
    return rally_standings(drivers, sheets, RULES)


def settings(**data: Any) -> ChampionshipSettings:
    built, errors = parse_championship_settings(data)
    assert not errors, errors
    return built


def table(standings: Any) -> list[tuple[int, str, int]]:
    return [(r.rank, r.name, r.points) for r in standings.drivers]


def test_presets_and_api_shape() -> None:
    r1 = rally({"Ana": [100], "Rui": [110], "Eva": [120]})
    r2 = rally({"Rui": [100], "Ana": [110]})
    data = championship_standings([r1, r2], settings()).to_json()
    assert data["after_rally"] == 2
    assert data["drivers"][0] == {
        "rank": 1,
        "name": "Ana",
        "points": 43,
        "wins": 1,
        "results": [1, 2],
        "scores": [25, 18],
        "power_stage_points": [0, 0],
        "dropped": [],
    }
    assert [(d["name"], d["points"], d["results"]) for d in data["drivers"]] == [
        ("Ana", 43, [1, 2]),
        ("Rui", 43, [2, 1]),
        ("Eva", 15, [3, None]),
    ]
    assert [d["rank"] for d in data["drivers"]] == [1, 1, 3]  # countback equal too: shared
    assert table(championship_standings([r1], settings(points="wrc-2025"))) == [
        (1, "Ana", 25),
        (2, "Rui", 17),
        (3, "Eva", 15),
    ]


def test_rm47_custom_table_and_past_its_end() -> None:
    r = rally({"A": [1], "B": [2], "C": [3]})
    assert table(championship_standings([r], settings(points=[3, 1]))) == [
        (1, "A", 3),
        (2, "B", 1),
        (3, "C", 0),
    ]


def test_rm48_power_stage_points_on_the_last_stage_finishers() -> None:
    r = rally({"A": [100, 50], "B": [90, 50], "C": [95, None], "D": [120, 40]})
    got = championship_standings([r], settings(power_stage=True, power_stage_points=[3, 2, 1]))
    rows = {d.name: d for d in got.drivers}
    assert rows["D"].power_stage_points == (3,)
    assert rows["A"].power_stage_points == rows["B"].power_stage_points == (2,)  # shared
    assert rows["C"].power_stage_points == (0,)  # retired on the power stage
    assert rows["B"].points == 25 + 2 and rows["D"].points == 15 + 3


def test_rm49_ties_share_points_unclassified_score_zero() -> None:
    r = rally({"A": [100], "B": [100], "C": [None]})
    no_sr = RallyRules(super_rally=False)
    drivers = list(r.drivers)
    sheets = [
        StageSheet(
            1,
            (
                StageEntry(drivers[0].id, "finished", 100),
                StageEntry(drivers[1].id, "finished", 100),
                StageEntry(drivers[2].id, "retired"),
            ),
        )
    ]
    out = rally_standings(drivers, sheets, no_sr)
    got = championship_standings([out], settings())
    assert table(got) == [(1, "A", 25), (1, "B", 25), (3, "C", 0)]
    assert got.drivers[2].results == (None,)


def test_rm50_drop_worst_includes_absences_at_most_rallies_minus_one() -> None:
    r1 = rally({"A": [1], "B": [2]})
    r2 = rally({"B": [1]})
    r3 = rally({"A": [2], "B": [1]})
    got = championship_standings([r1, r2, r3], settings(drop_worst=1))
    rows = {d.name: d for d in got.drivers}
    assert rows["A"].scores == (25, 0, 18) and rows["A"].dropped == (2,)
    assert rows["A"].points == 43
    assert rows["B"].scores == (18, 25, 25) and rows["B"].points == 50
    only = championship_standings([r1], settings(drop_worst=3))
    assert only.drivers[0].points == 25 and only.drivers[0].dropped == ()


def test_rm51_countback_over_every_rally_including_dropped() -> None:
    r1 = rally({"A": [1], "B": [2], "C": [3]})
    r2 = rally({"C": [1], "B": [2], "A": [3]})
    r3 = rally({"B": [1], "A": [2], "C": [3]})
    got = championship_standings([r1, r2, r3], settings(points=[2, 1, 0]))
    # A: 2+0+1 = 3, B: 1+1+2 = 4, C: 0+2+0 = 2 -> no tie at the top
    assert table(got) == [(1, "B", 4), (2, "A", 3), (3, "C", 2)]
    tie = championship_standings([r1, r2], settings(points=[2, 1, 0]))
    # A and C both 2 points and one win each; B 2 points with no win -> after them
    assert table(tie) == [(1, "A", 2), (1, "C", 2), (3, "B", 2)]


def test_drivers_are_matched_by_normalised_name() -> None:
    r1 = rally({"  Ana   Silva ": [100], "Rui": [110]})
    r2 = rally({"ana silva": [120], "RUI": [100]}, ids=10)
    got = championship_standings([r1, r2], settings())
    assert [(d.name, d.results) for d in got.drivers] == [("Ana Silva", (1, 2)), ("Rui", (2, 1))]
    assert normalize_name("  ÉVA \t Côte ") == normalize_name("éva côte")


def test_duplicate_names_in_one_rally_are_refused() -> None:
    with pytest.raises(RallyInputError):
        championship_standings([rally({"Ana": [1], " ana": [2]})], settings())


def test_no_rally_yet() -> None:
    assert championship_standings([], settings()).to_json() == {"after_rally": None, "drivers": []}


@pytest.mark.parametrize(
    ("data", "key", "code"),
    [
        ({"points": "f1"}, "points", "unknown_preset"),
        ({"points": [1, 2]}, "points", "points_increasing"),
        ({"points": []}, "points", "empty_list"),
        ({"power_stage_points": [1, -1]}, "power_stage_points", "min_value"),
        ({"drop_worst": -1}, "drop_worst", "min_value"),
        ({"hazard_limit": 3}, "hazard_limit", "unknown_param"),
    ],
)
def test_settings_errors(data: dict[str, Any], key: str, code: str) -> None:
    _, errors = parse_championship_settings(data)
    assert [e.code for e in errors[key]] == [code]


def test_settings_json() -> None:
    assert settings(points=[10, 5]).to_json() == {
        "points": [10, 5],
        "power_stage": False,
        "power_stage_points": [5, 4, 3, 2, 1],
        "drop_worst": 0,
    }
    assert settings().to_json()["points"] == "wrc-2010"


names = st.sampled_from(["Ana", "Rui", "Eva", "Gil", "Bea"])


@given(
    st.lists(st.dictionaries(names, st.integers(1, 5), min_size=1), min_size=1, max_size=4),
    st.integers(0, 3),
    st.booleans(),
)
def test_properties(results: list[dict[str, int]], drop: int, power: bool) -> None:
    rallies = [rally({n: [t] for n, t in r.items()}) for r in results]
    got = championship_standings(rallies, settings(drop_worst=drop, power_stage=power))
    seen = {n for r in results for n in r}
    assert sorted(d.name for d in got.drivers) == sorted(seen)
    points = [d.points for d in got.drivers]
    assert points == sorted(points, reverse=True)
    assert got.drivers[0].rank == 1
    for d in got.drivers:
        assert len(d.results) == len(rallies)
        assert d.points == sum(s for i, s in enumerate(d.scores) if i + 1 not in d.dropped)
        assert len(d.dropped) == min(drop, len(rallies) - 1)
