"""Issue #17 part 3: standings rows level with the row above say which rule ordered them."""

from __future__ import annotations

import itertools
import random
from typing import Any

from scoring.formula_d import ChampionshipDriver, FormulaDRules, compute_standings
from scoring.grand_tour import GrandTourRules
from scoring.grand_tour import compute_standings as tour_standings
from scoring.grand_tour.serialization import standings_from_json, standings_to_json
from scoring.points.championship import Entrant, Finish, Race, Scale
from scoring.points.championship import compute_standings as points_standings
from scoring.rally.championship import ChampionshipSettings, championship_standings
from scoring.rally.rules import RallyRules
from scoring.rally.sheet import StageEntry
from scoring.rally.standings import RallyDriver, StageSheet, rally_standings
from scoring.tie_break import TEMPLATES, TieBreak, ordinal
from tests.scoring.gt_builders import make_setup, rider_id, simple_stage, stage
from tests.scoring.test_formula_d_standings import BOX, race


def test_english_sentences_and_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    tb = TieBreak("gt_time_stage_place", "GT-5.5", {"stage": 4, "place": 2, "other_place": 5})
    assert tb.text() == "Same time; better place on stage 4: 2nd against 5th (GT-5.5)"
    assert TieBreak("more_wins", "FD-76", {"count": 2, "other_count": 1}).text() == (
        "Same points; more wins: 2 against 1 (FD-76)"
    )
    stage_time = TieBreak("rally_stage_time", "RM-44", {"stage": 1, "time": 65, "other_time": 70})
    assert stage_time.text() == "Same rally time; better time on stage 1: 1:05 against 1:10 (RM-44)"
    places = TieBreak(
        "recent_race_places", "FD-77", {"race": 2, "places": (1, 4), "other_places": (2, None)}
    )
    assert places.text() == (
        "Same points and countback; better-placed cars in race 2: 1st, 4th against 2nd, "
        "not entered (FD-77)"
    )
    assert set(TEMPLATES) >= {"more_wins", "shared_stage_time"}
    assert TieBreak.from_json(tb.to_json()) == tb
    assert TieBreak.from_json(None) is None


def test_grand_tour_ties_name_the_last_stage_places() -> None:
    setup = make_setup(teams=2, stages=3)
    rules = GrandTourRules()
    # Stage 1: RR and BS on the same time; stage 2 everyone equal; BS crossed 1st on stage 2.
    first = stage(
        setup,
        1,
        [("RR", "1:00", 3, 0), ("BS", "1:00", 0, 2), ("RS", "1:10", 3, 0), ("BR", "1:20", 0, 2)],
    )
    second = simple_stage(setup, 2, ["BS", "BR", "RR", "RS"])
    after = tour_standings(setup, [first, second], rules)[-1]
    general = after.general
    assert [r.rider for r in general[:2]] == [rider_id(setup, "BS"), rider_id(setup, "RR")]
    assert general[0].tie_break is None
    assert general[1].tie_break == TieBreak(
        "gt_time_stage_place", "GT-5.5", {"stage": 2, "place": 1, "other_place": 3}
    )
    assert general[2].tie_break is None and general[3].tie_break is None  # not level
    # Sprint: RR and RS on 3 points; RR was 3rd, RS 4th on stage 2.
    sprint = after.sprint
    assert sprint[1].tie_break is not None
    assert sprint[1].tie_break.code == "gt_points_stage_place"
    assert sprint[1].tie_break.params == {"stage": 2, "place": 3, "other_place": 4}
    # Teams: Blue 2:00 + 2:20 against Red 2:00 + 2:10 (every rider 1:00 on stage 2): not level.
    assert all(row.tie_break is None for row in after.team)
    data = standings_to_json(after)
    assert "tie_break" not in data["general"][0]
    assert data["general"][1]["tie_break"]["text"] == (
        "Same time; better place on stage 2: 1st against 3rd (GT-5.5)"
    )
    assert standings_from_json(data) == after  # the snapshot round trip keeps them
    old = standings_to_json(after)
    for row in old["general"]:
        row.pop("tie_break", None)
    assert standings_from_json(old).general[1].tie_break is None  # older snapshots read


def test_grand_tour_team_and_tour_points_ties() -> None:
    setup = make_setup(teams=2, stages=1)
    only = simple_stage(setup, 1, ["RR", "BR", "BS", "RS"])
    after = tour_standings(setup, [only], GrandTourRules())[-1]
    team = after.team
    assert team[1].tie_break is not None
    assert team[1].tie_break.code == "gt_team_time_stage_place"
    assert team[1].tie_break.params == {"stage": 1, "place": 1, "other_place": 2}
    tp = after.tour_points
    if tp[0].total == tp[1].total:
        assert tp[1].tie_break is not None and tp[1].tie_break.code == "gt_tp_stage_place"
    else:
        assert tp[1].tie_break is None


def test_formula_d_countback_recent_race_and_entry_order() -> None:
    drivers = (
        ChampionshipDriver(1, "Ana", "Tejo"),
        ChampionshipDriver(2, "Rui", "Tejo"),
        ChampionshipDriver(3, "Eva", "Sado"),
        ChampionshipDriver(4, "Gil", "Sado"),
    )
    rules = FormulaDRules()
    # Ana and Eva: one 1st and one 2nd each; Ana won race 2.
    s = compute_standings(
        drivers, [race(1, [3, 1, 2, 4]), race(2, [1, 3, 4, 2])], points=BOX, rules=rules
    )
    eva = s.drivers[1]
    assert eva.driver == 3 and eva.tie_break is not None
    assert eva.tie_break.code == "recent_race_place"
    assert eva.tie_break.params == {"race": 2, "place": 1, "other_place": 2}
    assert eva.tie_break.text() == (
        "Same points and countback; better place in race 2: 1st against 2nd (FD-76)"
    )
    # Rui and Gil on the same points (3rd+4th each), same countback, Gil better in race 2.
    assert s.drivers[3].tie_break is not None
    assert s.drivers[3].tie_break.code == "recent_race_place"


def _points(
    results: list[list[tuple[int, int, str]]], drop: int = 0, points: tuple[int, ...] = (3, 2, 1)
) -> Any:
    entrants = [Entrant(d, f"D{d}", "T1" if d % 2 else "T2") for d in (1, 2, 3, 4)]
    races = [
        Race(n, tuple(Finish(d, p, status) for d, p, status in rows))
        for n, rows in enumerate(results, start=1)
    ]
    return points_standings(entrants, races, Scale(points, True, drop))


def test_points_more_wins_recent_race_more_places_and_not_entered() -> None:
    fin, dnf = "finished", "dnf"
    # Race 1: D1, D3, D2, D4; race 2: D2, D3, D1 (D4 not entered). 3-2-1: D1, D2, D3 on 4.
    s = _points(
        [
            [(1, 1, fin), (3, 2, fin), (2, 3, fin), (4, 4, fin)],
            [(2, 1, fin), (3, 2, fin), (1, 3, fin)],
        ]
    )
    assert [(d.driver, d.points) for d in s.drivers] == [(2, 4), (1, 4), (3, 4), (4, 0)]
    codes = [
        (d.tie_break.code, dict(d.tie_break.params)) if d.tie_break else None for d in s.drivers
    ]
    assert codes == [
        None,
        ("recent_race_place", {"race": 2, "place": 1, "other_place": 3}),
        ("more_wins", {"count": 1, "other_count": 0}),
        None,
    ]
    # Non-finishers have no countback position; a car not entered ranks last (FD-76 (2)).
    s = _points(
        [
            [(1, 1, fin), (2, 2, fin), (3, 3, dnf), (4, 4, dnf)],
            [(1, 1, fin), (2, 2, fin), (3, 3, dnf)],
        ],
        points=(1,),
    )
    assert [(d.driver, d.points) for d in s.drivers] == [(1, 2), (2, 0), (3, 0), (4, 0)]
    d2, d3, d4 = s.drivers[1:]
    assert d2.tie_break is None
    assert d3.tie_break == TieBreak(
        "more_places", "FD-76", {"place": 2, "count": 2, "other_count": 0}
    )
    assert d3.tie_break.text() == "Same points; more 2nd places: 2 against 0 (FD-76)"
    assert d4.tie_break == TieBreak(
        "recent_race_place", "FD-76", {"race": 2, "place": 3, "other_place": None}
    )
    assert d4.tie_break.text().endswith("race 2: 3rd against not entered (FD-76)")


def test_points_entry_order_team_name_and_more_places() -> None:
    fin = "finished"
    s = _points([[(1, 2, fin), (2, 2, fin), (3, 1, fin), (4, 1, fin)]], points=(5, 3))
    # Equal positions cannot happen in a real race, but the ranking still says why.
    assert s.drivers[1].tie_break is not None and s.drivers[1].tie_break.code == "entry_order"
    s = _points(
        [
            [(1, 1, fin), (2, 2, fin), (3, 3, fin), (4, 4, fin)],
            [(4, 1, fin), (3, 2, fin), (2, 3, fin), (1, 4, fin)],
        ],
        points=(1, 1, 1, 1),
    )
    assert all(d.points == 2 for d in s.drivers)
    # D1 1st+4th, D2 2nd+3rd, D3 3rd+2nd, D4 4th+1st: D4 won the last race; D1's win beats
    # D3; D3 beat D2 in race 2.
    assert [d.driver for d in s.drivers] == [4, 1, 3, 2]
    assert [d.tie_break.code if d.tie_break else None for d in s.drivers] == [
        None, "recent_race_place", "more_wins", "recent_race_place",
    ]  # fmt: skip
    teams = s.teams
    assert teams[0].points == teams[1].points and teams[1].tie_break is not None
    assert teams[1].tie_break.rule == "FD-77"
    assert s.to_json()["teams"][1]["tie_break"]["code"] == teams[1].tie_break.code


def test_rally_overall_stage_and_championship_ties() -> None:
    drivers = (RallyDriver(7, "Ana"), RallyDriver(8, "Rui"), RallyDriver(9, "Sara"))

    def fin(driver: int, time: int) -> StageEntry:
        return StageEntry(driver, "finished", time, ())

    sheets = [
        StageSheet(1, (fin(7, 60), fin(8, 65), fin(9, 65))),
        StageSheet(2, (fin(7, 70), fin(8, 65), fin(9, 65))),
    ]
    rally = rally_standings(drivers, sheets, RallyRules())
    overall = rally.overall
    # All on 130 s: Ana better on stage 1; Rui and Sara the same on every stage: shared.
    assert [r.rank for r in overall] == [1, 2, 2]
    assert overall[1].tie_break == TieBreak(
        "rally_stage_time", "RM-44", {"stage": 1, "time": 60, "other_time": 65}
    )
    assert overall[2].tie_break == TieBreak("shared_rally_time", "RM-44", {"rank": 2})
    times = rally.stages[0].times
    assert times[1].tie_break is None
    assert times[2].tie_break == TieBreak("shared_stage_time", "RM-42", {"rank": 2})
    data = rally.to_json()
    assert data["overall"][2]["tie_break"]["text"] == (
        "Same rally time and the same time on every stage: they share 2nd (RM-44)"
    )
    assert data["stages"][0]["times"][2]["tie_break"]["code"] == "shared_stage_time"
    champ = championship_standings([rally], ChampionshipSettings(points=(10, 6, 6)))
    rows = champ.drivers
    assert rows[2].tie_break == TieBreak("shared_points", "RM-51", {"rank": 2})
    other = rally_standings(
        drivers, [StageSheet(1, (fin(7, 60), fin(8, 70), fin(9, 65)))], RallyRules()
    )
    champ = championship_standings([rally, other], ChampionshipSettings(points=(10, 6, 6)))
    # Ana 20; Rui (shared 2nd, 3rd) and Sara (shared 2nd, 2nd) on 12: Sara has more 2nd places.
    sara, rui = champ.drivers[1], champ.drivers[2]
    assert (sara.name, rui.name) == ("Sara", "Rui")
    assert rui.tie_break == TieBreak(
        "more_places", "RM-51", {"place": 2, "count": 2, "other_count": 1}
    )


def _random_points_case(rng: random.Random) -> tuple[list[Entrant], list[Race], Scale]:
    n = rng.randint(2, 5)
    entrants = [Entrant(d, f"D{d}", rng.choice((None, "A", "B"))) for d in range(1, n + 1)]
    races = []
    for number in range(1, rng.randint(1, 4) + 1):
        starters = [d for d in range(1, n + 1) if rng.random() < 0.9] or [1]
        rng.shuffle(starters)
        out = rng.randint(0, len(starters))
        races.append(
            Race(
                number,
                tuple(
                    Finish(d, i + 1, "finished" if i < out else "dnf", rng.choice((0, 0, 1)))
                    for i, d in enumerate(starters)
                ),
            )
        )
    table = tuple(sorted((rng.randint(0, 4) for _ in range(rng.randint(1, 4))), reverse=True))
    return entrants, races, Scale(table, rng.random() < 0.5, rng.randint(0, 2))


def _check_points_break(above: Any, below: Any, tb: TieBreak | None, last: int) -> None:
    if above.points != below.points:
        assert tb is None
        return
    assert tb is not None and tb.rule == "FD-76"
    if tb.code in ("more_wins", "more_places"):
        place = 1 if tb.code == "more_wins" else tb.params["place"]

        def count(row: Any) -> int:
            return sum(1 for p in row.results if p == place)

        assert (count(above), count(below)) == (tb.params["count"], tb.params["other_count"])
        assert tb.params["count"] > tb.params["other_count"]
        for earlier in range(1, place):
            assert sum(1 for p in above.results if p == earlier) == sum(
                1 for p in below.results if p == earlier
            )
    elif tb.code == "recent_race_place":
        assert 1 <= tb.params["race"] <= last
        other = tb.params["other_place"]
        assert other is None or tb.params["place"] < other
    else:
        assert tb.code == "entry_order"


def test_points_tie_breaks_agree_with_the_order_on_random_championships() -> None:
    rng = random.Random(17)
    for _ in range(300):
        entrants, races, scale = _random_points_case(rng)
        s = points_standings(entrants, races, scale)
        for i, row in enumerate(s.drivers):
            if i == 0:
                assert row.tie_break is None
                continue
            _check_points_break(s.drivers[i - 1], row, row.tie_break, races[-1].number)
        for i, team in enumerate(s.teams[1:], start=1):
            level = s.teams[i - 1].points == team.points
            assert (team.tie_break is not None) == level
            if team.tie_break is not None:
                assert team.tie_break.rule == "FD-77"


def test_grand_tour_tie_breaks_on_random_tours() -> None:
    rng = random.Random(5)
    rules = GrandTourRules()
    for _ in range(40):
        setup = make_setup(teams=rng.randint(2, 4), stages=3)
        stages = []
        for number in range(1, 4):
            names = [r.name for r in setup.riders]
            rng.shuffle(names)
            lines = [(name, f"0:{rng.choice((0, 10))}0", rng.randint(0, 1), 0) for name in names]
            lines.sort(key=lambda line: line[1])  # times never decrease down the order
            stages.append(stage(setup, number, lines))
        after = tour_standings(setup, stages, rules)[-1]
        position = {row.rider: row.position for row in stages[-1].rows}
        tables: tuple[tuple[Any, str], ...] = ((after.general, "time"), (after.sprint, "points"))
        for rows, figure in tables:
            for above, row in itertools.pairwise(rows):
                level = getattr(above, figure) == getattr(row, figure)
                assert (row.tie_break is not None) == level
                if row.tie_break is not None:
                    params = row.tie_break.params
                    assert params["stage"] == 3
                    assert (params["place"], params["other_place"]) == (
                        position[above.rider],
                        position[row.rider],
                    )
                    assert params["place"] < params["other_place"]
