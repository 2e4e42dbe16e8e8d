"""POST /api/rallies/{id}/stages/{n}/results/ and GET …/stages/{n}/: RM-52..54, roles, 409s,
versions, corrections and a later stage that no longer validates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.rallies.helpers import create_rally, ids, sheet, stage, standings, submit
from tournament.rallies.models import RallyStage, RallyStageResultVersion, RallyStandings

Rows = list[dict[str, Any]]


def assert_nothing_stored(rally: dict[str, Any], number: int = 1) -> None:
    event = RallyStage.objects.get(competition_id=rally["id"], number=number)
    assert (event.version, event.status, event.results) == (0, "planned", [])
    assert not RallyStageResultVersion.objects.filter(event=event).exists()
    assert not RallyStandings.objects.filter(competition_id=rally["id"]).exists()


@pytest.fixture
def rally(clients: dict[str, Any]) -> dict[str, Any]:
    return create_rally(clients["organiser"])


def test_a_sheet_with_time_mss_and_log_answers_202_and_the_detail_has_the_times(clients, rally):
    ana, rui, sara = ids(rally)
    rows = [
        {"driver": ana, "time": 312},
        {
            "driver": rui,
            "log": "1 2 3 4 4 5 0 3 4 t2",
            "penalties": [{"seconds": 10, "reason": "jump start"}],
        },
        {"driver": sara, "time": "4:21", "log": "1 2 3 4 5 5 4 3 4 5 6 t4"},  # RM-56 row 1
    ]
    response = submit(clients["scorekeeper"], rally["id"], 1, rows)
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["number"], body["name"], body["layout"], body["version"]) == (
        1,
        "SS1 Pena",
        "gravel-flats",
        1,
    )
    assert body["status"] in ("submitted", "resolved")
    detail = stage(clients["anonymous"], rally["id"], 1)
    assert (detail["status"], detail["source"], detail["error"]) == ("resolved", "submitted", "")
    # Stored in finishing order (stage time), with every computed time (RM-42, RM-52).
    by_driver = {row["driver"]: row for row in detail["results"]}
    assert [row["driver"] for row in detail["results"]] == [sara, rui, ana]
    # 1 2 3 4 4 5 0 3 4: 50+40+30+20+20+15+60+30+20 = 285 s of cards, 2 tokens → 283 s net.
    assert {
        k: by_driver[rui][k]
        for k in (
            "status",
            "time",
            "log",
            "net_time",
            "penalty_time",
            "stage_time",
            "cards",
            "tokens",
        )
    } == {
        "status": "finished",
        "time": None,
        "log": "1 2 3 4 4 5 0 3 4 t2",
        "net_time": 283,
        "penalty_time": 10,
        "stage_time": 293,
        "cards": 285,
        "tokens": 2,
    }
    assert by_driver[rui]["penalties"] == [{"seconds": 10, "reason": "jump start"}]
    assert (by_driver[sara]["time"], by_driver[sara]["cards"], by_driver[sara]["tokens"]) == (
        261,
        265,
        4,
    )
    assert by_driver[ana] | {} == {
        "driver": ana,
        "status": "finished",
        "time": 312,
        "log": None,
        "penalties": [],
        "net_time": 312,
        "penalty_time": 0,
        "stage_time": 312,
        "cards": None,
        "tokens": None,
        "warnings": [],
    }
    versions = list(RallyStageResultVersion.objects.filter(event__competition_id=rally["id"]))
    assert [(v.number, v.source, v.created_by.username) for v in versions] == [
        (1, "submitted", "scorekeeper")
    ]


def test_a_retired_driver_gets_the_super_rally_time(clients, rally):
    ana, rui, sara = ids(rally)
    rows = [
        {"driver": ana, "time": 300},
        {"driver": rui, "time": 340},
        {"driver": sara, "status": "retired", "penalties": [{"seconds": 5, "reason": "late"}]},
    ]
    assert submit(clients["scorekeeper"], rally["id"], 1, rows).status_code == 202
    detail = stage(clients["anonymous"], rally["id"], 1)
    retired = detail["results"][-1]
    assert (retired["driver"], retired["status"], retired["stage_time"]) == (sara, "retired", None)
    body = standings(clients["anonymous"], rally["id"]).json()
    # RM-46: the slowest finisher's 340 s + 300 s, plus her own 5 s penalty.
    assert [(r["driver"], r["time"]) for r in body["overall"]] == [
        (ana, 300),
        (rui, 340),
        (sara, 645),
    ]


def test_rm54_too_many_tokens_is_accepted_with_a_warning(clients, rally):
    ana, rui, sara = ids(rally)
    rows = [
        {"driver": ana, "log": "6 6 t9"},
        {"driver": rui, "time": 300},
        {"driver": sara, "time": 300},
    ]
    # Two turns could earn at most (6 gear + 2 coast) x 2 = 16 tokens; 9 is fine, 17 is flagged.
    assert (
        submit(clients["scorekeeper"], rally["id"], 1, rows).json()["results"][0]["warnings"] == []
    )
    rows[0]["log"] = "6 6 t17"
    response = submit(clients["scorekeeper"], rally["id"], 1, rows)
    assert response.status_code == 202
    row = next(r for r in response.json()["results"] if r["driver"] == ana)
    assert row["net_time"] == 3
    assert row["warnings"] and "17" in row["warnings"][0]


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("scorekeeper", 202),
        ("organiser", 202),
        ("superuser", 202),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_submit(clients, rally, role, code):
    response = submit(clients[role], rally["id"], 1, sheet(rally, 300, 310, 320))
    assert response.status_code == code, response.content
    if code != 202:
        assert_nothing_stored(rally)


@pytest.mark.parametrize("number", [0, 4, 99])
def test_unknown_stage_is_a_404(clients, rally, number):
    for role in ("scorekeeper", "anonymous"):
        assert submit(clients[role], rally["id"], number, sheet(rally, 1, 2, 3)).status_code == 404
        assert clients[role].get(f"/api/rallies/{rally['id']}/stages/{number}/").status_code == 404


# --- RM-53: every rejection is a 400 at the right place, nothing stored --------------------------


def _row(index: int, **values: Any) -> Callable[[Rows], Rows]:
    def change(rows: Rows) -> Rows:
        rows[index].update(values)
        return rows

    return change


def _without(index: int, *keys: str) -> Callable[[Rows], Rows]:
    def change(rows: Rows) -> Rows:
        for key in keys:
            rows[index].pop(key, None)
        return rows

    return change


REJECTIONS: list[tuple[str, Callable[[Rows], Rows], list[Any]]] = [
    # 1. unknown driver
    ("unknown driver", _row(2, driver=987654), ["results", 2, "driver"]),
    ("driver not an id", _row(2, driver="Sara"), ["results", 2, "driver"]),
    # 2. missing driver
    ("missing driver", lambda rows: rows[:2], ["results"]),
    # 3. duplicate
    ("driver twice", lambda rows: [*rows, dict(rows[0])], ["results", 3, "driver"]),
    # 4. negative, not whole, malformed m:ss
    ("negative time", _row(0, time=-5), ["results", 0, "time"]),
    ("fractional time", _row(0, time=300.5), ["results", 0, "time"]),
    ("seconds 60", _row(0, time="4:60"), ["results", 0, "time"]),
    ("other string", _row(0, time="five minutes"), ["results", 0, "time"]),
    ("h:mm:ss", _row(0, time="1:04:21"), ["results", 0, "time"]),
    ("boolean time", _row(0, time=True), ["results", 0, "time"]),
    (
        "negative penalty",
        _row(0, penalties=[{"seconds": -5, "reason": "x"}]),
        ["results", 0, "penalties", 0, "seconds"],
    ),
    (
        "fractional penalty",
        _row(0, penalties=[{"seconds": 1.5, "reason": "x"}]),
        ["results", 0, "penalties", 0, "seconds"],
    ),
    # 5. neither time nor log
    ("no time", _without(0, "time"), ["results", 0, "time"]),
    # 6. retired with a time or a log
    ("retired with time", _row(0, status="retired"), ["results", 0, "time"]),
    (
        "retired with log",
        lambda rows: _row(0, status="retired", log="1 2")(_without(0, "time")(rows)),
        ["results", 0, "log"],
    ),
    # 7. logs that break RM-55
    ("gear 7", lambda r: _row(0, log="1 2 7")(_without(0, "time")(r)), ["results", 0, "log"]),
    ("unknown item", lambda r: _row(0, log="1 x 3")(_without(0, "time")(r)), ["results", 0, "log"]),
    (
        "tokens not last",
        lambda r: _row(0, log="1 t2 3")(_without(0, "time")(r)),
        ["results", 0, "log"],
    ),
    (
        "tokens twice",
        lambda r: _row(0, log="1 3 t2 t3")(_without(0, "time")(r)),
        ["results", 0, "log"],
    ),
    ("no turns", lambda r: _row(0, log="t3")(_without(0, "time")(r)), ["results", 0, "log"]),
    ("empty log", lambda r: _row(0, log="  ")(_without(0, "time")(r)), ["results", 0, "log"]),
    ("0s", lambda r: _row(0, log="1 0s")(_without(0, "time")(r)), ["results", 0, "log"]),
    # 8. time and log disagree
    (
        "time and log differ",
        _row(0, time=262, log="1 2 3 4 5 5 4 3 4 5 6 t4"),
        ["results", 0, "time"],
    ),
    # 9. net time 0 or less
    ("zero time", _row(0, time=0), ["results", 0, "time"]),
    (
        "log below zero",
        lambda r: _row(0, log="6 t20")(_without(0, "time")(r)),
        ["results", 0, "time"],
    ),
    # 10. penalties need seconds and a reason
    (
        "zero penalty",
        _row(0, penalties=[{"seconds": 0, "reason": "x"}]),
        ["results", 0, "penalties", 0, "seconds"],
    ),
    ("no reason", _row(0, penalties=[{"seconds": 10}]), ["results", 0, "penalties", 0, "reason"]),
    (
        "blank reason",
        _row(0, penalties=[{"seconds": 10, "reason": "  "}]),
        ["results", 0, "penalties", 0, "reason"],
    ),
    ("penalty not an object", _row(0, penalties=[10]), ["results", 0, "penalties", 0]),
    ("penalties not a list", _row(0, penalties="10 s"), ["results", 0, "penalties"]),
    # and the shape of a row
    ("unknown field", _row(0, position=1), ["results", 0, "position"]),
    ("bad status", _row(0, status="crashed"), ["results", 0, "status"]),
    ("row not an object", lambda rows: [*rows[:2], 7], ["results", 2]),
]


@pytest.mark.parametrize(
    ("change", "path"), [(c, p) for _n, c, p in REJECTIONS], ids=[n for n, _c, _p in REJECTIONS]
)
def test_rm53_rejections_are_a_400_and_store_nothing(clients, rally, change, path):
    rows = change(sheet(rally, 300, 310, 320))
    response = submit(clients["scorekeeper"], rally["id"], 1, rows)
    assert response.status_code == 400, response.content
    node: Any = response.json()
    for step in path:
        node = node[step]
    assert node and all(isinstance(m, str) for m in node), response.json()
    assert_nothing_stored(rally)


def test_every_error_is_listed_at_once_and_names_the_driver(clients, rally):
    ana = ids(rally)[0]
    rows = [{"driver": ana, "time": -1}, {"driver": ana, "time": "4:99"}]
    body = submit(clients["scorekeeper"], rally["id"], 1, rows).json()
    assert body["results"][0]["time"] and body["results"][1]["time"]
    assert "Ana" in body["results"][1]["driver"][0]
    # RM-53.2 for the two drivers without a row, named, as sheet-level errors.
    assert any("Rui" in m for m in body["non_field_errors"])
    assert any("Sara" in m for m in body["non_field_errors"])


@pytest.mark.parametrize(
    "body", [{}, {"results": []}, {"results": "x"}, {"results": [], "version": -1}]
)
def test_a_body_without_rows_is_a_400(clients, rally, body):
    response = clients["scorekeeper"].post(
        f"/api/rallies/{rally['id']}/stages/1/results/", body, format="json"
    )
    assert response.status_code == 400
    assert_nothing_stored(rally)


def test_a_driver_out_of_the_rally_is_rejected_on_later_stages(clients):
    rally = create_rally(clients["organiser"], rules={"super_rally": False})
    rows = sheet(rally, 300, 310, {"status": "retired"})
    assert submit(clients["scorekeeper"], rally["id"], 1, rows).status_code == 202
    response = submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 300, 310, 320))
    assert response.status_code == 400
    assert "Sara" in response.json()["results"][2]["driver"][0]
    event = RallyStage.objects.get(competition_id=rally["id"], number=2)
    assert (event.version, event.status) == (0, "planned")
    # Without her the sheet is complete (RM-52: the entrants minus those out).
    response = submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 300, 310, 320)[:2])
    assert response.status_code == 202, response.content


# --- order, versions, corrections ---------------------------------------------------------------


def test_results_out_of_order_are_a_409(clients, rally):
    response = submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 300, 310, 320))
    assert response.status_code == 409
    assert_nothing_stored(rally, 2)
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    assert submit(clients["scorekeeper"], rally["id"], 3, sheet(rally, 1, 2, 3)).status_code == 409
    assert submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 1, 2, 3)).status_code == 202


def test_version_guard_and_idempotency_key_come_from_the_shared_workflow(clients, rally):
    rows = sheet(rally, 300, 310, 320)
    url = f"/api/rallies/{rally['id']}/stages/1/results/"
    sk = clients["scorekeeper"]
    first = sk.post(url, {"results": rows, "version": 0}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 202
    again = sk.post(url, {"results": rows, "version": 0}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert (again.status_code, again.json()["version"]) == (202, 1)
    stale = sk.post(url, {"results": rows, "version": 0}, format="json")
    assert stale.status_code == 409
    assert stale.json()["detail"] == "version conflict"
    assert stale.json()["current"]["version"] == 1
    assert RallyStageResultVersion.objects.count() == 1


def test_a_correction_recomputes_and_keeps_the_old_version(clients, rally):
    ana, rui, sara = ids(rally)
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 300, 310, 320))
    assert standings(clients["anonymous"], rally["id"]).json()["overall"][0]["driver"] == ana
    response = submit(clients["organiser"], rally["id"], 1, sheet(rally, 400, 310, 200))
    assert response.status_code == 202
    assert response.json()["version"] == 2
    body = standings(clients["anonymous"], rally["id"]).json()
    assert body["after_stage"] == 2
    assert [(r["driver"], r["time"]) for r in body["overall"]] == [
        (sara, 520),
        (rui, 620),
        (ana, 700),
    ]
    rows = RallyStageResultVersion.objects.filter(event__number=1).order_by("number")
    assert [v.rows[0]["stage_time"] for v in rows] == [300, 200]
    actions = [
        e["action"]
        for e in clients["organiser"].get(f"/api/rallies/{rally['id']}/history/").json()["results"]
    ]
    assert actions == ["results_corrected", "results_submitted", "results_submitted", "created"]


def test_a_correction_that_puts_a_driver_out_fails_the_later_stage_until_it_is_corrected(clients):
    rally = create_rally(clients["organiser"], rules={"super_rally": False})
    sara = ids(rally)[2]
    rid = rally["id"]
    for number in (1, 2, 3):
        assert (
            submit(clients["scorekeeper"], rid, number, sheet(rally, 300, 310, 320)).status_code
            == 202
        )
    # Stage 1 corrected: Sara retired, so without Super Rally she is out (RM-46) and stage 2,
    # which lists her, no longer validates: failed with the message; stage 3 waits.
    response = submit(clients["scorekeeper"], rid, 1, sheet(rally, 300, 310, {"status": "retired"}))
    assert response.status_code == 202
    s1, s2, s3 = (stage(clients["anonymous"], rid, n) for n in (1, 2, 3))
    assert s1["status"] == "resolved"
    assert s2["status"] == "failed"
    assert "Sara" in s2["error"] and "out of the rally" in s2["error"]
    assert s3["status"] == "submitted"
    assert s2["results"] and s2["version"] == 1  # the stored results stay
    body = standings(clients["anonymous"], rid).json()
    assert body["after_stage"] == 1
    assert body["overall"][-1] == {
        "rank": None,
        "driver": sara,
        "name": "Sara",
        "time": None,
        "gap": None,
        "stage_wins": 0,
        "out_after_stage": 1,
    }
    # Correcting stage 2 resolves it; stage 3 is re-validated and fails in its turn.
    assert submit(clients["scorekeeper"], rid, 2, sheet(rally, 300, 310, 0)[:2]).status_code == 202
    assert stage(clients["anonymous"], rid, 2)["status"] == "resolved"
    assert stage(clients["anonymous"], rid, 3)["status"] == "failed"
    assert submit(clients["scorekeeper"], rid, 3, sheet(rally, 300, 310, 0)[:2]).status_code == 202
    assert standings(clients["anonymous"], rid).json()["after_stage"] == 3


def test_the_detail_rows_can_be_posted_back_as_a_correction(clients, rally):
    rows = sheet(
        rally,
        300,
        {"log": "1 2 3 t1", "penalties": [{"seconds": 5, "reason": "x"}]},
        {"status": "retired"},
    )
    submit(clients["scorekeeper"], rally["id"], 1, rows)
    current = stage(clients["anonymous"], rally["id"], 1)
    response = submit(clients["scorekeeper"], rally["id"], 1, current["results"], version=1)
    assert response.status_code == 202, response.content
    assert response.json()["results"] == current["results"]
    assert response.json()["version"] == 2
