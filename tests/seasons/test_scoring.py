"""scoring/seasons.py: a season's points, countback, name order and tie-breaks (no database)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seasons import TEMPLATES, points_for, season_standings

TABLE = [10, 8, 6, 5, 4, 3, 2, 1]


def test_points_by_rank_and_nothing_past_the_table() -> None:
    assert [points_for(TABLE, r) for r in (1, 2, 8, 9, None)] == [10, 8, 1, 0, 0]
    assert points_for([], 1) == 0


def test_points_then_countback_then_name() -> None:
    names = {1: "Ana", 2: "rui", 3: "Eva", 4: "Gil", 5: "Bea"}
    results = {
        1: [1, 2, None],  # 18
        2: [2, 1, None],  # 18, same countback as Ana: name order (a before r, case folded)
        3: [None, None, 1],  # 10
        4: [3, 3, 3],  # 18 from three 3rd places: Ana and rui have a 1st
        5: [4, None, 2],  # 13
    }
    rows = season_standings(points=TABLE, names=names, results=results)
    assert [(r.rank, r.name, r.points) for r in rows] == [
        (1, "Ana", 18),
        (2, "rui", 18),
        (3, "Gil", 18),
        (4, "Bea", 13),
        (5, "Eva", 10),
    ]
    assert rows[0].tie_break is None
    first_tie = rows[1].to_json()["tie_break"]
    assert first_tie["code"] == "season_name" and first_tie["rule"] == "SEASON-3"
    assert first_tie["text"] == "Same points and countback; name order (SEASON-3)"
    gil = rows[2].to_json()["tie_break"]
    assert (gil["code"], gil["params"]) == ("more_wins", {"count": 1, "other_count": 0})
    assert gil["text"] == "Same points; more wins: 1 against 0 (SEASON-2)"
    assert rows[3].tie_break is None and rows[4].tie_break is None  # not level with the row above
    assert rows[0].to_json()["results"] == [1, 2, None]


def test_countback_goes_down_the_places() -> None:
    # Both 16 points with no win: Rui has two 2nd places, Ana one 2nd and a 3rd... then 4th.
    names = {1: "Ana", 2: "Rui"}
    rows = season_standings(
        points=[10, 8, 8, 0], names=names, results={1: [2, 3, 4], 2: [2, 2, None]}
    )
    assert [r.name for r in rows] == ["Rui", "Ana"]
    tie = rows[1].to_json()["tie_break"]
    assert (tie["code"], tie["params"]) == (
        "more_places",
        {"place": 2, "count": 2, "other_count": 1},
    )
    assert tie["text"] == "Same points; more 2nd places: 2 against 1 (SEASON-2)"


def test_a_player_without_points_still_has_a_row() -> None:
    rows = season_standings(points=[5], names={1: "Ana", 2: "Rui"}, results={1: [1], 2: [4]})
    assert [(r.name, r.points, r.results) for r in rows] == [("Ana", 5, (1,)), ("Rui", 0, (4,))]


def test_same_name_after_folding_shares_the_rank() -> None:
    rows = season_standings(points=[3], names={1: "Ana", 2: "ANA"}, results={1: [1], 2: [1]})
    assert [r.rank for r in rows] == [1, 1]
    assert rows[1].to_json()["tie_break"]["text"] == (
        "Same points, countback and name: they share 1st (SEASON-3)"
    )
    assert set(TEMPLATES) == {"season_name", "season_shared"}


ranks = st.one_of(st.none(), st.integers(min_value=1, max_value=6))


@settings(max_examples=40, deadline=None)
@given(
    table=st.lists(st.integers(min_value=0, max_value=20), min_size=1, max_size=6),
    results=st.dictionaries(
        st.integers(min_value=1, max_value=30),
        st.lists(ranks, min_size=3, max_size=3),
        max_size=8,
    ),
)
def test_properties(table: list[int], results: dict[int, list[int | None]]) -> None:
    names = {p: f"P{p:02d}" for p in results}
    rows = season_standings(points=table, names=names, results=results)
    # Every player once; points are the table's; ranks 1..n in order (names are distinct).
    assert sorted(r.player_id for r in rows) == sorted(results)
    for row in rows:
        assert row.points == sum(points_for(table, r) for r in results[row.player_id])
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert all(a.points >= b.points for a, b in itertools.pairwise(rows))
    # A tie-break exactly where a row is level on points with the row above.
    for above, row in itertools.pairwise(rows):
        assert (row.tie_break is not None) == (above.points == row.points)
    # The order does not depend on the order the players are given in.
    flipped = dict(reversed(list(results.items())))
    again = season_standings(points=table, names=names, results=flipped)
    assert [r.player_id for r in again] == [r.player_id for r in rows]
