"""GET /api/tours/{id}/standings/: shape, ?after_stage, grand_tour.md's worked example, queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.grand_tour import drawn_start_order
from tests.api.helpers import create, engine_setup, fresh_standings, payload, rows_in_order, submit
from tests.conftest import stage_rows

KEYS = {
    "after_stage",
    "general",
    "sprint",
    "mountain",
    "team",
    "jerseys",
    "tour_points",
    "exhaustion",
    "next_start_order",
}
ROW_KEYS = {
    "general": {"rank", "rider", "name", "team", "time", "gap"},
    "sprint": {"rank", "rider", "name", "team", "points"},
    "mountain": {"rank", "rider", "name", "team", "points"},
    "team": {"rank", "team", "name", "time", "gap"},
    "tour_points": {"rank", "team", "name", "podium", "rest_days", "classification", "total"},
    "exhaustion": {"rider", "cards"},
}


def standings(client: Any, tour_id: int, query: str = "") -> Any:
    return client.get(f"/api/tours/{tour_id}/standings/{query}")


def test_before_any_stage(clients, tour):
    response = standings(clients["anonymous"], tour["id"])
    assert response.status_code == 200
    body = response.json()
    assert set(body) >= KEYS
    assert body["after_stage"] is None
    for key in ROW_KEYS:
        assert body[key] == [], key
    assert body["jerseys"] == {"yellow": None, "green": None, "polka_dot": None}
    # Stage 1's drawn order (GT-10.1) from the tour's seed.
    team_ids = [t["id"] for t in tour["teams"]]
    assert sorted(body["next_start_order"]) == sorted(team_ids)
    assert body["next_start_order"] == list(drawn_start_order(engine_setup(tour), 1))


def test_shape_after_a_stage(clients, tour):
    submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour))
    body = standings(clients["anonymous"], tour["id"]).json()
    assert set(body) >= KEYS
    assert body["after_stage"] == 1
    riders = sorted(r["id"] for t in tour["teams"] for r in t["riders"])
    teams = sorted(t["id"] for t in tour["teams"])
    for key, keys in ROW_KEYS.items():
        # issue #17: a row level with the one above also carries its tie_break.
        assert all(set(row) - {"tie_break"} == keys for row in body[key]), key
        ids = sorted(
            row["team" if key in ("team", "tour_points") else "rider"] for row in body[key]
        )
        assert ids == (teams if key in ("team", "tour_points") else riders), key
        if key != "exhaustion":
            # GT-5.5: ranks 1..n, never shared.
            assert [row["rank"] for row in body[key]] == list(range(1, len(ids) + 1)), key
    assert set(body["jerseys"]) == {"yellow", "green", "polka_dot"}
    assert sorted(body["next_start_order"]) == teams
    assert all(isinstance(row["time"], int) for row in body["general"] + body["team"])


@pytest.mark.parametrize(
    "query",
    [
        "?after_stage=0",
        "?after_stage=2",
        "?after_stage=-1",
        "?after_stage=abc",
        "?after_stage=1.5",
        "?after_stage=99999999999999999999",
    ],
)
def test_after_stage_out_of_range_is_a_400(clients, tour, query):
    submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour))
    response = standings(clients["anonymous"], tour["id"], query)
    assert response.status_code == 400, response.content
    assert "after_stage" in response.json()


def test_after_stage_before_any_stage_is_a_400(clients, tour):
    assert standings(clients["anonymous"], tour["id"], "?after_stage=1").status_code == 400


def test_after_stage_reads_earlier_standings(clients, tour):
    rows = [stage_rows(tour), stage_rows(tour, order=[5, 4, 3, 2, 1, 0])]
    for number, r in enumerate(rows, start=1):
        assert submit(clients["scorekeeper"], tour["id"], number, r).status_code == 202
    expected = fresh_standings(tour, rows)
    assert standings(clients["anonymous"], tour["id"], "?after_stage=1").json() == expected[0]
    assert standings(clients["anonymous"], tour["id"], "?after_stage=2").json() == expected[1]
    assert standings(clients["anonymous"], tour["id"]).json() == expected[1]
    assert standings(clients["anonymous"], tour["id"], "?after_stage=3").status_code == 400


# --- grand_tour.md's worked example --------------------------------------------------------------


@pytest.fixture
def example(clients):
    """Teams Red (RR, RS), Blue (BR, BS), Green (GR, GS); Rest Day after stage 1."""
    data = payload(stages=2, rest_days_after=[1])
    detail = create(clients["organiser"], data)
    ids = {}
    for team in detail["teams"]:
        rouleur, sprinteur = team["riders"]
        ids[team["name"][0] + "R"] = rouleur["id"]
        ids[team["name"][0] + "S"] = sprinteur["id"]
    # Stage 1: position, rider, time, sprint, mountain (grand_tour.md).
    sheet = [
        ("RS", 0, 0, 4, 0),
        ("BS", 0, 0, 3, 0),
        ("GR", 0, 20, 0, 3),
        ("RR", 1, 10, 0, 1),
        ("BR", 1, 10, 2, 0),
        ("GS", 2, 30, 0, 0),
    ]
    rows = [
        {
            "rider": ids[who],
            "position": p,
            "minutes": m,
            "seconds": s,
            "sprint_points": sp,
            "mountain_points": mp,
            "exhaustion": 4,
        }
        for p, (who, m, s, sp, mp) in enumerate(sheet, start=1)
    ]
    return detail, ids, rows


def team_names(detail: dict[str, Any]) -> dict[int, str]:
    return {t["id"]: t["name"] for t in detail["teams"]}


def test_worked_example(clients, example):
    detail, ids, rows = example
    assert submit(clients["scorekeeper"], detail["id"], 1, rows).status_code == 202
    body = standings(clients["anonymous"], detail["id"]).json()
    assert body["after_stage"] == 1
    name = {v: k for k, v in ids.items()}
    team = team_names(detail)

    # GC: RS and BS tie at 0, RS crossed first; RR ahead of BR (70) by position.
    assert [(name[r["rider"]], r["rank"], r["time"], r["gap"]) for r in body["general"]] == [
        ("RS", 1, 0, 0),
        ("BS", 2, 0, 0),
        ("GR", 3, 20, 20),
        ("RR", 4, 70, 70),
        ("BR", 5, 70, 70),
        ("GS", 6, 150, 150),
    ]
    # SC: RS 4, BS 3, BR 2, then the riders without points in stage order.
    assert [(name[r["rider"]], r["points"]) for r in body["sprint"]] == [
        ("RS", 4),
        ("BS", 3),
        ("BR", 2),
        ("GR", 0),
        ("RR", 0),
        ("GS", 0),
    ]
    # MC: GR 3, RR 1, then RS, BS, BR, GS.
    assert [(name[r["rider"]], r["points"]) for r in body["mountain"]] == [
        ("GR", 3),
        ("RR", 1),
        ("RS", 0),
        ("BS", 0),
        ("BR", 0),
        ("GS", 0),
    ]
    # Team: Red 70 and Blue 70 tie, Red's RS crossed first; Green 170.
    assert [(team[t["team"]], t["rank"], t["time"], t["gap"]) for t in body["team"]] == [
        ("Red", 1, 70, 0),
        ("Blue", 2, 70, 0),
        ("Green", 3, 170, 100),
    ]
    # Jerseys: Yellow RS; Green to BS (RS wears yellow); Polka GR.
    assert body["jerseys"] == {"yellow": ids["RS"], "green": ids["BS"], "polka_dot": ids["GR"]}
    # Podium Red 3, Blue 2, Green 1; Rest Day: GC and SC leader RS (Red +2), MC leader GR.
    # Red 5, Blue 2, Green 2; Blue ahead of Green by BS (2nd) before GR (3rd) (GT-9.3).
    assert [
        (team[t["team"]], t["rank"], t["podium"], t["rest_days"], t["classification"], t["total"])
        for t in body["tour_points"]
    ] == [("Red", 1, 3, 2, 0, 5), ("Blue", 2, 2, 0, 0, 2), ("Green", 3, 1, 1, 0, 2)]
    # GT-7: 4 cards keep 2; on the Rest Day all but RS and GR (who earned Rest Day TP) discard
    # again: 1.
    cards = {name[e["rider"]]: e["cards"] for e in body["exhaustion"]}
    assert cards == {"RS": 2, "GR": 2, "BS": 1, "RR": 1, "BR": 1, "GS": 1}
    # Stage 2 is before tp_order_from_stage: drawn from the seed.
    assert body["next_start_order"] == list(drawn_start_order(engine_setup(detail), 2))
    assert body == fresh_standings(detail, [rows])[0]


def test_worked_example_to_the_end_of_the_tour(clients, example):
    # Stage 2 repeats stage 1; then GT-9.1's first column (1-7 stages) pays the bonuses.
    detail, ids, rows = example
    submit(clients["scorekeeper"], detail["id"], 1, rows)
    assert submit(clients["scorekeeper"], detail["id"], 2, rows).status_code == 202
    body = standings(clients["anonymous"], detail["id"]).json()
    name = {v: k for k, v in ids.items()}
    team = team_names(detail)
    assert body["after_stage"] == 2
    assert [(name[r["rider"]], r["time"]) for r in body["general"]] == [
        ("RS", 0),
        ("BS", 0),
        ("GR", 40),
        ("RR", 140),
        ("BR", 140),
        ("GS", 300),
    ]
    # GC 3, 2, 1: RS, BS, GR; SC 2, 1: RS, BS; MC 2, 1: GR, RR; Team 1: Red.
    # Red: podium 6, Rest Day 2, bonus 3+2+1+1; Blue: 4, 0, 2+1; Green: 2, 1, 1+2.
    assert [
        (team[t["team"]], t["rank"], t["podium"], t["rest_days"], t["classification"], t["total"])
        for t in body["tour_points"]
    ] == [("Red", 1, 6, 2, 7, 15), ("Blue", 2, 4, 0, 3, 7), ("Green", 3, 2, 1, 3, 6)]
    assert body["jerseys"] == {"yellow": ids["RS"], "green": ids["BS"], "polka_dot": ids["GR"]}
    assert body["next_start_order"] is None
    # After the last stage: the final counts after the normal discard (4 → 2).
    assert {e["cards"] for e in body["exhaustion"]} == {2}
    assert body == fresh_standings(detail, [rows, rows])[1]


# --- the number of queries does not grow with the tour ------------------------------------------


def resolved_tour(clients: Any, stage_count: int, team_count: int) -> dict[str, Any]:
    detail = create(clients["organiser"], payload(stages=stage_count, team_count=team_count))
    times = [0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100][: 2 * team_count]
    for number in range(1, stage_count + 1):
        response = submit(
            clients["scorekeeper"], detail["id"], number, rows_in_order(detail, times=times)
        )
        assert response.status_code == 202, response.content
    return detail


def count_queries(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(ctx.captured_queries)


def test_standings_queries_do_not_grow_with_stages_or_riders(clients):
    small = create(clients["organiser"], payload(stages=2, team_count=2))
    large = create(clients["organiser"], payload(stages=21, team_count=6))
    for role in ("anonymous", "organiser"):
        client = clients[role]
        before = [count_queries(client, f"/api/tours/{t['id']}/standings/") for t in (small, large)]
        assert before[0] == before[1], before
    small = resolved_tour(clients, 2, 2)
    large = resolved_tour(clients, 21, 6)
    for role in ("anonymous", "organiser"):
        client = clients[role]
        for query in ("", "?after_stage=1", "?after_stage=2"):
            counts = [
                count_queries(client, f"/api/tours/{t['id']}/standings/{query}")
                for t in (small, large)
            ]
            assert counts[0] == counts[1], (role, query, counts)
            assert counts[0] <= 3, counts
    body = clients["anonymous"].get(f"/api/tours/{large['id']}/standings/").json()
    assert body["after_stage"] == 21 and len(body["general"]) == 12


def test_tp_start_order_from_tp_order_from_stage(clients):
    # GT-10.2 from stage 2 on: fewest TP first; Blue and Green tie on 2 TP and Blue's BS (2nd
    # in the GC) beats Green's GR (3rd), so Blue places later: Green, Blue, Red.
    detail = create(
        clients["organiser"],
        payload(stages=2, rest_days_after=[1], rules={"tp_order_from_stage": 2}),
    )
    red, blue, green = (t["id"] for t in detail["teams"])
    rr, rs, br, bs, gr, gs = (r["id"] for t in detail["teams"] for r in t["riders"])
    sheet = [
        (rs, 0, 4, 0),
        (bs, 0, 3, 0),
        (gr, 20, 0, 3),
        (rr, 70, 0, 1),
        (br, 70, 2, 0),
        (gs, 150, 0, 0),
    ]
    rows = [
        {
            "rider": r,
            "position": p,
            "minutes": t // 60,
            "seconds": t % 60,
            "sprint_points": sp,
            "mountain_points": mp,
        }
        for p, (r, t, sp, mp) in enumerate(sheet, start=1)
    ]
    submit(clients["scorekeeper"], detail["id"], 1, rows)
    body = standings(clients["anonymous"], detail["id"]).json()
    assert [t["total"] for t in body["tour_points"]] == [5, 2, 2]
    assert body["next_start_order"] == [green, blue, red]


def test_no_points_no_sprint_or_mountain_jersey(clients, tour):
    # GT-6.3 (jersey_needs_points) and GT-8.1: without points nobody wears green or polka and
    # only the GC leader earns Rest Day TP.
    rows = stage_rows(tour)
    submit(clients["scorekeeper"], tour["id"], 1, rows)
    body = standings(clients["anonymous"], tour["id"]).json()
    assert body["jerseys"] == {"yellow": rows[0]["rider"], "green": None, "polka_dot": None}
    assert sum(t["rest_days"] for t in body["tour_points"]) == 1
