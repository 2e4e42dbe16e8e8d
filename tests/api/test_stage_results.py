"""POST /api/tours/{id}/stages/{n}/results/: 202, GT-11 rejections, 409s, roles, versions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api.helpers import create, fresh_standings, payload, rows_in_order, submit
from tests.conftest import make_client, stage_rows
from tournament.tours.models import Stage, StageResultVersion, StageStandings, Tour

Rows = list[dict[str, Any]]


def stage(tour: dict[str, Any], number: int) -> Stage:
    return Stage.objects.get(competition_id=tour["id"], number=number)


def assert_nothing_stored(tour: dict[str, Any], number: int = 1) -> None:
    event = stage(tour, number)
    assert (event.version, event.status, event.results) == (0, "planned", [])
    assert not StageResultVersion.objects.filter(event=event).exists()
    assert not StageStandings.objects.filter(competition_id=tour["id"], number=number).exists()


def test_accepted_results_answer_202_with_the_stage_detail(clients, tour):
    rows = stage_rows(tour, order=[5, 4, 3, 2, 1, 0])
    response = submit(clients["scorekeeper"], tour["id"], 1, rows)
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["number"], body["name"], body["course"], body["finish"]) == (
        1,
        "Avenue Corso Paseo",
        "abcdefghijklmnopqrstu",
        "flat",
    )
    assert (body["version"], body["source"], body["error"]) == (1, "submitted", "")
    assert body["status"] in ("submitted", "resolved")
    expected_times = [0, 0, 20, 70, 70, 150]
    assert [(r["rider"], r["position"], r["time"]) for r in body["results"]] == [
        (row["rider"], row["position"], t) for row, t in zip(rows, expected_times, strict=True)
    ]
    # The worker resolved it (eagerly here); the detail shows what was submitted, with ``time``.
    detail = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/").json()
    assert detail["status"] == "resolved"
    assert detail["results"] == [
        {**row, "time": t} for row, t in zip(rows, expected_times, strict=True)
    ]
    versions = list(StageResultVersion.objects.filter(event=stage(tour, 1)))
    assert [(v.number, v.source) for v in versions] == [(1, "submitted")]
    assert versions[0].created_by.username == "scorekeeper"


def test_results_are_stored_in_finishing_order(clients, tour):
    rows = stage_rows(tour)
    shuffled = [rows[3], rows[0], rows[5], rows[1], rows[4], rows[2]]
    body = submit(clients["scorekeeper"], tour["id"], 1, shuffled).json()
    assert [r["position"] for r in body["results"]] == [1, 2, 3, 4, 5, 6]


def test_optional_fields_default(clients, tour):
    rows = [
        {
            k: v
            for k, v in row.items()
            if k not in ("exhaustion", "sprint_points", "mountain_points")
        }
        for row in stage_rows(tour)
    ]
    response = submit(clients["scorekeeper"], tour["id"], 1, rows)
    assert response.status_code == 202, response.content
    got = response.json()["results"][0]
    assert (got["exhaustion"], got["sprint_points"], got["mountain_points"]) == (None, 0, 0)
    standings = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()
    assert {row["cards"] for row in standings["exhaustion"]} == {None}


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
def test_who_may_submit(clients, tour, role, code):
    response = submit(clients[role], tour["id"], 1, stage_rows(tour))
    assert response.status_code == code, response.content
    if code != 202:
        assert_nothing_stored(tour)


@pytest.mark.parametrize("number", [4, 99, 0])
def test_unknown_stage_is_a_404(clients, tour, number):
    for role in ("scorekeeper", "anonymous"):
        response = submit(clients[role], tour["id"], number, stage_rows(tour))
        assert response.status_code == 404


# --- GT-11: 400 with the error at the right place, nothing stored ------------------------------


def _set(index: int, **values: Any) -> Callable[[Rows, Any], Rows]:
    def change(rows: Rows, _other: Any) -> Rows:
        rows[index].update(values)
        return rows

    return change


def _drop_last(rows: Rows, _other: Any) -> Rows:
    return rows[:-1]


def _duplicate_rider(rows: Rows, _other: Any) -> Rows:
    rows[5]["rider"] = rows[0]["rider"]
    return rows


def _extra_row(rows: Rows, _other: Any) -> Rows:
    return [*rows, {**rows[-1], "position": 7}]


def _other_tours_rider(rows: Rows, other: Any) -> Rows:
    rows[2]["rider"] = other["teams"][0]["riders"][0]["id"]
    return rows


def _times(*times: tuple[int, int]) -> Callable[[Rows, Any], Rows]:
    def change(rows: Rows, _other: Any) -> Rows:
        for row, (minutes, seconds) in zip(rows, times, strict=True):
            row.update(minutes=minutes, seconds=seconds)
        return rows

    return change


# (change, row errors {index: field}, list-level errors expected)
GT11 = {
    # GT-11.1
    "missing-rider": (_drop_last, {}, True),
    "rider-twice": (_duplicate_rider, {}, True),
    "rider-of-another-tour": (_other_tours_rider, {2: "rider"}, True),
    "unknown-rider": (_set(4, rider=10**9), {4: "rider"}, True),
    "extra-row": (_extra_row, {}, True),
    # GT-11.2
    "position-twice": (_set(1, position=1), {1: "position"}, True),
    "position-past-n": (_set(5, position=7), {5: "position"}, True),
    "position-zero": (_set(0, position=0), {0: "position"}, True),
    # GT-11.3
    "negative-minutes": (_set(0, minutes=-1), {0: "minutes"}, False),
    "negative-seconds": (_set(0, seconds=-10), {0: "seconds"}, False),
    "negative-sprint": (_set(3, sprint_points=-1), {3: "sprint_points"}, False),
    "negative-mountain": (_set(3, mountain_points=-2), {3: "mountain_points"}, False),
    "seconds-60": (_set(5, seconds=60), {5: "seconds"}, False),
    "seconds-off-the-tile": (_set(2, seconds=25), {2: "seconds"}, False),
    # GT-11.4
    "seconds-decrease": (
        _times((0, 0), (0, 20), (0, 10), (1, 10), (1, 10), (2, 30)),
        {2: "seconds"},
        False,
    ),
    "minutes-decrease": (
        _times((0, 0), (0, 0), (1, 20), (0, 30), (1, 30), (2, 30)),
        {3: "minutes"},
        False,
    ),
    # GT-11.6
    "negative-exhaustion": (_set(4, exhaustion=-1), {4: "exhaustion"}, False),
}


@pytest.mark.parametrize("case", list(GT11))
def test_gt11_rejection_is_a_400_at_the_field_and_stores_nothing(clients, tour, case):
    change, row_errors, list_level = GT11[case]
    other = create(clients["outsider"], payload(club="porto"))
    rows = change(stage_rows(tour), other)
    response = submit(clients["scorekeeper"], tour["id"], 1, rows)
    assert response.status_code == 400, response.content
    body = response.json()
    assert_nothing_stored(tour)
    errors = body["results"]
    if row_errors:
        # Nested: one object per submitted row, the faulty field named in its row.
        assert isinstance(errors, list) and len(errors) == len(rows)
        for index, item in enumerate(errors):
            if index in row_errors:
                assert set(item) == {row_errors[index]}, body
                assert all(isinstance(m, str) and m for m in item[row_errors[index]])
            else:
                assert item == {}, body
        # List-level problems (a missing rider, a gap in positions) are non-field errors.
        assert bool(body.get("non_field_errors")) == list_level, body
    else:
        # Only list-level problems: the list's own messages.
        assert errors and all(isinstance(m, str) and m for m in errors), body
        assert set(body) == {"results"}


def test_error_messages_name_the_rider(clients, tour):
    rows = stage_rows(tour)
    rows[3]["exhaustion"] = -1
    body = submit(clients["scorekeeper"], tour["id"], 1, rows).json()
    name = tour["teams"][1]["riders"][1]["name"]  # entry index 3: Rui S
    assert name in body["results"][3]["exhaustion"][0]
    body = submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour)[:-1]).json()
    assert tour["teams"][2]["riders"][1]["name"] in body["results"][0]


def test_ascent_finish_uses_the_ascent_timing_tile(clients, tour):
    assert submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour)).status_code == 202
    # Stage 2 ends on U: 40, 30, 20, 10, 0 (GT-2.4); 50 is only on the flat side.
    rows = stage_rows(tour, times=[(0, 0), (0, 0), (0, 50), (1, 10), (1, 10), (2, 30)])
    response = submit(clients["scorekeeper"], tour["id"], 2, rows)
    assert response.status_code == 400
    assert set(response.json()["results"][2]) == {"seconds"}
    assert_nothing_stored(tour, 2)
    rows = stage_rows(tour, times=[(0, 0), (0, 0), (0, 40), (1, 10), (1, 10), (2, 30)])
    assert submit(clients["scorekeeper"], tour["id"], 2, rows).status_code == 202


def test_without_the_timing_tile_any_seconds_below_60_pass(clients):
    detail = create(clients["organiser"], payload(rules={"timing_tile": False}))
    rows = rows_in_order(detail, times=[0, 7, 25, 59, 61, 119])
    assert submit(clients["scorekeeper"], detail["id"], 1, rows).status_code == 202
    rows[2]["seconds"] = 60
    assert submit(clients["scorekeeper"], detail["id"], 1, rows).status_code == 400


def test_custom_timing_tile_values(clients):
    # GT-2.4 values are rule parameters; the flat Wide Finish keeps one square per value (FR-13).
    detail = create(clients["organiser"], payload(rules={"timing_flat": [45, 35, 25, 15, 5, 0]}))
    rows = rows_in_order(detail, times=[0, 0, 45, 65, 65, 125])
    assert submit(clients["scorekeeper"], detail["id"], 1, rows).status_code == 202
    rows = rows_in_order(detail, times=[0, 0, 50, 70, 70, 130])
    response = submit(clients["scorekeeper"], detail["id"], 1, rows)
    assert response.status_code == 400
    assert [set(item) for item in response.json()["results"]] == [
        set(),
        set(),
        {"seconds"},
        {"seconds"},
        {"seconds"},
        {"seconds"},
    ]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"results": []}, ["results"]),
        ({}, ["results"]),
        ({"results": "all"}, ["results"]),
        (
            {"results": [{"rider": "abc", "position": 1, "minutes": 0, "seconds": 0}]},
            ["results", 0, "rider"],
        ),
        ({"results": [{"rider": 1, "minutes": 0, "seconds": 0}]}, ["results", 0, "position"]),
        (
            {"results": [{"rider": 1, "position": 1, "minutes": 0, "seconds": 0.5}]},
            ["results", 0, "seconds"],
        ),
        (
            {"results": [{"rider": 1, "position": 1, "minutes": 10**30, "seconds": 0}]},
            ["results", 0, "minutes"],
        ),
        (
            {"results": [{"rider": 10**30, "position": 1, "minutes": 0, "seconds": 0}]},
            ["results", 0, "rider"],
        ),
    ],
    ids=[
        "empty",
        "missing",
        "not-a-list",
        "rider-not-int",
        "no-position",
        "fraction",
        "huge-minutes",
        "huge-rider",
    ],
)
def test_malformed_body_is_a_400(clients, tour, body, path):
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", body, format="json"
    )
    assert response.status_code == 400, response.content
    node: Any = response.json()
    for key in path:
        node = node[key]
    assert node
    assert_nothing_stored(tour)


def test_a_row_error_after_a_good_row_is_nested_at_its_index(clients, tour):
    rows = stage_rows(tour)
    rows[4]["minutes"] = "soon"
    body = submit(clients["scorekeeper"], tour["id"], 1, rows).json()
    assert body["results"][4]["minutes"]
    assert body["results"][:4] == [{}, {}, {}, {}]


# --- GT-11.5: order of stages -------------------------------------------------------------------


def test_stage_out_of_order_is_a_409(clients, tour):
    response = submit(clients["scorekeeper"], tour["id"], 2, stage_rows(tour))
    assert response.status_code == 409
    assert "detail" in response.json()
    assert_nothing_stored(tour, 2)
    submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour))
    response = submit(clients["scorekeeper"], tour["id"], 3, stage_rows(tour))
    assert response.status_code == 409
    assert_nothing_stored(tour, 3)


def test_out_of_order_with_bad_rows_is_a_409(clients, tour):
    # The stage order is the competition's state: it is checked before the rows.
    response = submit(clients["scorekeeper"], tour["id"], 3, stage_rows(tour)[:2])
    assert response.status_code == 409


def test_next_stage_is_accepted_while_the_previous_one_waits(clients, users, tour):
    # Stage 1 stored but its resolution not run yet (no on-commit callbacks for this client).
    no_worker = make_client(None, users["scorekeeper"])
    assert submit(no_worker, tour["id"], 1, stage_rows(tour)).status_code == 202
    assert stage(tour, 1).status == "submitted"
    response = submit(
        clients["scorekeeper"], tour["id"], 2, stage_rows(tour, order=[1, 0, 2, 3, 4, 5])
    )
    assert response.status_code == 202, response.content
    # Stage 2 waits for stage 1 (API.md: standings use the resolved run from stage 1).
    assert stage(tour, 2).status == "submitted"
    standings = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()
    assert standings["after_stage"] is None
    # Stage 1's resolution cascades to stage 2.
    assert submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour)).status_code == 202
    assert (stage(tour, 1).status, stage(tour, 2).status) == ("resolved", "resolved")
    assert (
        clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()["after_stage"] == 2
    )


# --- versions ------------------------------------------------------------------------------------


def test_version_guards_a_first_submission(clients, tour):
    response = submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour), version=0)
    assert response.status_code == 202
    assert response.json()["version"] == 1


def test_stale_version_is_a_409_with_the_current_stage(clients, tour):
    first = submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour)).json()
    rows = stage_rows(tour, order=[1, 0, 2, 3, 4, 5])
    for stale in (0, 2, 7):
        response = submit(clients["organiser"], tour["id"], 1, rows, version=stale)
        assert response.status_code == 409, response.content
        body = response.json()
        assert set(body) == {"detail", "current"}
        assert body["detail"] == "version conflict"
        current = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/").json()
        assert body["current"] == current
        assert body["current"]["version"] == 1
        assert body["current"]["results"] == first["results"]
    assert StageResultVersion.objects.filter(event=stage(tour, 1)).count() == 1
    # The right version goes through.
    response = submit(clients["organiser"], tour["id"], 1, rows, version=1)
    assert response.status_code == 202
    assert response.json()["version"] == 2


def test_stale_version_on_an_empty_stage(clients, tour):
    response = submit(clients["scorekeeper"], tour["id"], 1, stage_rows(tour), version=1)
    assert response.status_code == 409
    assert response.json()["current"]["version"] == 0
    assert_nothing_stored(tour)


def test_resubmission_while_submitted_adds_a_version(clients, users, tour):
    no_worker = make_client(None, users["scorekeeper"])
    submit(no_worker, tour["id"], 1, stage_rows(tour))
    rows = stage_rows(tour, order=[2, 1, 0, 3, 4, 5])
    response = submit(clients["scorekeeper"], tour["id"], 1, rows)
    assert response.json()["version"] == 2
    assert stage(tour, 1).status == "resolved"
    standings = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()
    assert standings == fresh_standings(tour, [rows])[0]


# --- corrections ---------------------------------------------------------------------------------


def test_correction_keeps_history_and_recomputes_later_stages(clients, tour):
    url = f"/api/tours/{tour['id']}"
    one = stage_rows(tour, sprint_points=1)
    two = stage_rows(
        tour, order=[3, 2, 1, 0, 5, 4], times=[(0, 0), (0, 0), (0, 30), (1, 0), (1, 20), (2, 40)]
    )
    for i, row in enumerate(two):
        row["mountain_points"] = 5 - i
    assert submit(clients["scorekeeper"], tour["id"], 1, one).status_code == 202
    assert submit(clients["scorekeeper"], tour["id"], 2, two).status_code == 202
    before = clients["anonymous"].get(f"{url}/standings/").json()
    assert before == fresh_standings(tour, [one, two])[1]
    snapshot_before = StageStandings.objects.get(competition_id=tour["id"], number=2).data

    # Correct stage 1: a different finishing order and points.
    corrected = stage_rows(tour, order=[5, 4, 3, 2, 1, 0], exhaustion=5)
    corrected[0]["sprint_points"] = 4
    response = submit(clients["organiser"], tour["id"], 1, corrected, version=1)
    assert response.status_code == 202, response.content
    assert response.json()["version"] == 2

    # Both versions are kept, each with its own rows.
    versions = list(StageResultVersion.objects.filter(event=stage(tour, 1)).order_by("number"))
    assert [(v.number, v.created_by.username) for v in versions] == [
        (1, "scorekeeper"),
        (2, "organiser"),
    ]
    assert [r["rider"] for r in versions[0].rows] == [r["rider"] for r in one]
    assert [r["rider"] for r in versions[1].rows] == [r["rider"] for r in corrected]
    # The later stage keeps its stored results and version and is resolved again.
    s1, s2 = stage(tour, 1), stage(tour, 2)
    assert (s1.status, s1.version, s2.status, s2.version) == ("resolved", 2, "resolved", 1)
    assert StageResultVersion.objects.filter(event=s2).count() == 1
    # Stage 2's snapshot was recomputed from the corrected stage 1.
    expected = fresh_standings(tour, [corrected, two])
    snapshot_after = StageStandings.objects.get(competition_id=tour["id"], number=2).data
    assert snapshot_after != snapshot_before
    assert snapshot_after == expected[1]
    assert clients["anonymous"].get(f"{url}/standings/").json() == expected[1]
    assert clients["anonymous"].get(f"{url}/standings/?after_stage=1").json() == expected[0]
    assert (
        clients["anonymous"].get(f"{url}/stages/1/").json()["results"][0]["rider"]
        == (corrected[0]["rider"])
    )


def test_correcting_the_last_stage_changes_only_its_snapshot(clients, tour):
    rows = [stage_rows(tour), stage_rows(tour, order=[1, 0, 2, 3, 4, 5])]
    for n, r in enumerate(rows, start=1):
        submit(clients["scorekeeper"], tour["id"], n, r)
    first = StageStandings.objects.get(competition_id=tour["id"], number=1)
    corrected = stage_rows(tour, order=[4, 5, 2, 3, 0, 1])
    assert submit(clients["scorekeeper"], tour["id"], 2, corrected).status_code == 202
    assert StageStandings.objects.get(competition_id=tour["id"], number=1).data == first.data
    standings = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()
    assert standings == fresh_standings(tour, [rows[0], corrected])[1]


def test_rejected_correction_changes_nothing(clients, tour):
    rows = stage_rows(tour)
    submit(clients["scorekeeper"], tour["id"], 1, rows)
    submit(clients["scorekeeper"], tour["id"], 2, rows)
    bad = stage_rows(tour)
    bad[0]["position"] = 2
    response = submit(clients["scorekeeper"], tour["id"], 1, bad)
    assert response.status_code == 400
    s1 = stage(tour, 1)
    assert (s1.version, s1.status) == (1, "resolved")
    assert StageResultVersion.objects.filter(event=s1).count() == 1
    assert Tour.objects.get(pk=tour["id"]).standings_through == 2


def test_unparsable_json_is_a_400(clients, tour):
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert "detail" in response.json()
    assert_nothing_stored(tour)
