"""GET /api/rallies/{id}/standings/: RM-42..46 through the API, ?after_stage, query count."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.rallies.helpers import create_rally, ids, sheet, standings, submit


def test_before_any_stage(clients):
    rally = create_rally(clients["organiser"])
    response = standings(clients["anonymous"], rally["id"])
    assert response.status_code == 200
    assert response.json() == {"after_stage": None, "overall": [], "stages": []}


def test_overall_gaps_stage_wins_shared_ranks_and_stage_times(clients):
    rally = create_rally(clients["organiser"], drivers=[{"name": n} for n in "ABCD"])
    a, b, c, d = ids(rally)
    rid = rally["id"]
    submit(clients["scorekeeper"], rid, 1, sheet(rally, 300, 300, 310, "5:20"))
    penalty = {"time": 290, "penalties": [{"seconds": 30, "reason": "cut"}]}
    submit(clients["scorekeeper"], rid, 2, sheet(rally, 320, 330, penalty, 300))
    body = standings(clients["anonymous"], rid).json()
    assert body["after_stage"] == 2
    # Totals a 620, b 630, c 630, d 620: RM-44 tie-break on stage 1 (a 300 < d 320), then
    # b and c: stage 1 300 < 310. Times include penalties (RM-42).
    assert [(r["rank"], r["driver"], r["time"], r["gap"]) for r in body["overall"]] == [
        (1, a, 620, 0),
        (2, d, 620, 0),
        (3, b, 630, 10),
        (4, c, 630, 10),
    ]
    assert {r["driver"]: r["stage_wins"] for r in body["overall"]} == {a: 1, b: 1, c: 0, d: 1}
    assert all(r["out_after_stage"] is None for r in body["overall"])
    s1, s2 = body["stages"]
    # Stage 1: a and b share the fastest time (RM-42): both win, ranks 1, 1, 3.
    assert (s1["number"], s1["winner"], s1["winners"]) == (1, a, [a, b])
    assert [(t["driver"], t["time"], t["rank"]) for t in s1["times"]] == [
        (a, 300, 1),
        (b, 300, 1),
        (c, 310, 3),
        (d, 320, 4),
    ]
    assert (s2["winner"], s2["winners"]) == (d, [d])
    assert [(t["driver"], t["time"]) for t in s2["times"]] == [
        (d, 300),
        (a, 320),
        (c, 320),
        (b, 330),
    ]
    after_one = standings(clients["anonymous"], rid, "?after_stage=1").json()
    assert after_one["after_stage"] == 1
    assert [r["driver"] for r in after_one["overall"]] == [a, b, c, d]
    assert [r["rank"] for r in after_one["overall"]] == [1, 1, 3, 4]


def test_without_super_rally_a_retired_driver_is_out_and_listed_last(clients):
    rally = create_rally(clients["organiser"], rules={"super_rally": False})
    ana, rui, sara = ids(rally)
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, {"status": "retired"}, 290))
    body = standings(clients["anonymous"], rally["id"]).json()
    assert body["overall"] == [
        {
            "rank": 1,
            "driver": sara,
            "name": "Sara",
            "time": 290,
            "gap": 0,
            "stage_wins": 1,
            "out_after_stage": None,
        },
        {
            "rank": 2,
            "driver": ana,
            "name": "Ana",
            "time": 300,
            "gap": 10,
            "stage_wins": 0,
            "out_after_stage": None,
        },
        {
            "rank": None,
            "driver": rui,
            "name": "Rui",
            "time": None,
            "gap": None,
            "stage_wins": 0,
            "out_after_stage": 1,
        },
    ]


def test_super_rally_base_fastest_and_penalty_come_from_the_rules(clients):
    rally = create_rally(
        clients["organiser"], rules={"super_rally_base": "fastest", "super_rally_penalty_s": 60}
    )
    ana, rui, sara = ids(rally)
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, {"status": "retired"}, 290))
    body = standings(clients["anonymous"], rally["id"]).json()
    assert [(r["driver"], r["rank"], r["time"]) for r in body["overall"]] == [
        (sara, 1, 290),
        (ana, 2, 300),
        (rui, 3, 350),
    ]
    times = body["stages"][0]["times"]
    assert times[-1]["driver"] == rui and times[-1]["rank"] is None


@pytest.mark.parametrize(
    "query",
    [
        "?after_stage=0",
        "?after_stage=3",
        "?after_stage=x",
        "?after_stage=-1",
        "?after_stage=99999999999",
    ],
)
def test_after_stage_outside_the_resolved_run_is_a_400(clients, query):
    rally = create_rally(clients["organiser"])
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 300, 310, 320))
    response = standings(clients["anonymous"], rally["id"], query)
    assert response.status_code == 400
    assert "after_stage" in response.json()


def test_after_stage_before_any_result_is_a_400(clients):
    rally = create_rally(clients["organiser"])
    assert standings(clients["anonymous"], rally["id"], "?after_stage=1").status_code == 400


def _queries(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_stages_or_drivers(clients):
    small = create_rally(
        clients["organiser"], drivers=[{"name": "A"}, {"name": "B"}], stages=[{"name": "1"}]
    )
    submit(clients["scorekeeper"], small["id"], 1, sheet(small, 100, 200))
    names = [{"name": f"Driver {i}"} for i in range(12)]
    big = create_rally(
        clients["organiser"], name="Big", drivers=names, stages=[{"name": str(n)} for n in range(6)]
    )
    for number in range(1, 7):
        submit(
            clients["scorekeeper"],
            big["id"],
            number,
            sheet(big, *(100 + 7 * i + number for i in range(12))),
        )
    assert standings(clients["anonymous"], big["id"]).json()["after_stage"] == 6
    for role in ("anonymous", "organiser", "outsider"):
        client = clients[role]
        counts = {
            _queries(client, f"/api/rallies/{small['id']}/standings/"),
            _queries(client, f"/api/rallies/{big['id']}/standings/"),
            _queries(client, f"/api/rallies/{big['id']}/standings/?after_stage=3"),
        }
        assert len(counts) == 1, (role, counts)
    # The detail reads (list, rally, stage) do not grow either.
    assert _queries(clients["anonymous"], f"/api/rallies/{small['id']}/") == _queries(
        clients["anonymous"], f"/api/rallies/{big['id']}/"
    )
