"""POST …/races/{n}/results/: roles, every FD-79 rejection, order, versions, corrections."""

from __future__ import annotations

from typing import Any

import pytest

from tests.championships.helpers import create, ids, race_rows, standings, submit
from tests.result_checks import assert_nothing_stored, assert_refused
from tournament.championships.models import Race, RaceResultVersion
from tournament.competitions.models import AuditEntry, IdempotencyKey

pytestmark = pytest.mark.django_db

ORDER = ["Ana", "Rui", "Eva"]


@pytest.fixture
def champ(clients) -> dict[str, Any]:
    return create(clients["organiser"])


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("scorekeeper", 202),
        ("organiser", 202),
        ("superuser", 202),
    ],
)
def test_submit_roles(clients, champ, role, expected):
    response = submit(clients[role], champ, 1, race_rows(champ, 1, ORDER))
    assert response.status_code == expected
    race = Race.objects.get(competition_id=champ["id"], number=1)
    assert race.version == (1 if expected == 202 else 0)


def test_submitted_results_are_stored_in_order_and_resolved(clients, champ):
    rows = race_rows(champ, 1, ["Eva", "Ana", "Rui"], out=("Rui",))
    rows[0]["pole"] = True
    rows[1]["wp_left"] = 4
    response = submit(clients["scorekeeper"], champ, 1, list(reversed(rows)))
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["number"] == 1 and body["version"] == 1
    race = clients["anonymous"].get(f"/api/championships/{champ['id']}/races/1/").json()
    assert (race["status"], race["source"], race["error"]) == ("resolved", "submitted", "")
    assert [(r["name"], r["position"], r["status"]) for r in race["results"]] == [
        ("Eva", 1, "finished"),
        ("Ana", 2, "finished"),
        ("Rui", 3, "eliminated"),
    ]
    assert race["results"][0]["pole"] is True and race["results"][1]["wp_left"] == 4
    assert race["results"][2]["elimination_order"] is None  # as submitted (FD-79: implied)
    assert standings(clients["anonymous"], champ).json()["after_race"] == 1


def _row(champ: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"driver": ids(champ)["Ana"], "position": 1, "status": "finished", "laps": 2, **fields}


Rejection = tuple[int, list[Any], tuple[Any, ...]]

# FD-79 rejections that change one field of one row of race 1's valid rows:
# case -> (row, field, value); the error is expected on that row's field.
FIELD_EDITS: dict[str, tuple[int, str, Any]] = {
    "duplicate_position": (1, "position", 1),
    "positions_not_1_to_n": (2, "position", 4),
    "unknown_driver": (2, "driver", 10**9),
    "laps_exceed": (0, "laps", 3),
    "finisher_with_fewer_laps": (0, "laps", 1),
    "negative": (0, "laps", -1),
    "not_an_integer": (0, "position", "1"),
    "float": (1, "laps", 2.0),
    "elimination_order_for_finisher": (0, "elimination_order", 1),
    "wp_left_too_high": (0, "wp_left", 19),
    "wp_left_zero_for_finisher": (0, "wp_left", 0),
    "pole_not_boolean": (0, "pole", "yes"),
    "unknown_field": (0, "time", 12),
    "bad_status": (1, "status", "retired"),
}


def _eliminated(champ: dict[str, Any], *out: str) -> list[Any]:
    return [dict(r) for r in race_rows(champ, 1, ORDER, out=out)]


def _not_entered(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    return 2, race_rows(champ, 2, ["Ana", "Rui"]), ("results", 1, "driver")  # race 2: Ana, Eva


def _listed_twice(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    rows[2]["driver"] = ids(champ)["Ana"]
    return 1, rows, ("results", 2, "driver")


def _eliminated_not_in_fd41_order(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    rows = _eliminated(champ, "Rui", "Eva")
    rows[2]["laps"] = 1  # more laps, ranked below one with fewer
    return 1, rows, ("results", 2, "laps")


def _eliminated_with_all_laps(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    rows = _eliminated(champ, "Eva")
    rows[2]["laps"] = 2
    return 1, rows, ("results", 2, "laps")


def _elimination_orders(first: int, second: int, path: tuple[Any, ...]) -> Any:
    def case(champ: dict[str, Any], rows: list[Any]) -> Rejection:
        rows = _eliminated(champ, "Rui", "Eva")
        rows[1]["elimination_order"], rows[2]["elimination_order"] = first, second
        return 1, rows, path

    return case


def _wp_left_for_eliminated(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    rows = _eliminated(champ, "Eva")
    rows[2]["wp_left"] = 3
    return 1, rows, ("results", 2, "wp_left")


def _two_poles(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    rows[0]["pole"] = rows[2]["pole"] = True
    return 1, rows, ("results",)


def _missing_status(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    del rows[1]["status"]
    return 1, rows, ("results", 1, "status")


def _row_not_an_object(champ: dict[str, Any], rows: list[Any]) -> Rejection:
    rows[1] = "Rui"
    return 1, rows, ("results", 1)


# The other rejections, each built from race 1's valid rows.
BUILT: dict[str, Any] = {
    "not_entered": _not_entered,
    "listed_twice": _listed_twice,
    "entered_driver_missing": lambda champ, rows: (1, rows[:2], ("results",)),
    "eliminated_ahead_of_finisher": lambda champ, rows: (
        1,
        _eliminated(champ, "Rui"),
        ("results", 2, "position"),
    ),
    "eliminated_not_in_fd41_order": _eliminated_not_in_fd41_order,
    "eliminated_with_all_laps": _eliminated_with_all_laps,
    "elimination_order_repeated": _elimination_orders(1, 1, ("results", 2, "elimination_order")),
    "elimination_order_gap": _elimination_orders(3, 1, ("results", 1, "elimination_order")),
    "elimination_order_contradicts_positions": _elimination_orders(
        1, 2, ("results", 2, "elimination_order")
    ),
    "wp_left_for_eliminated": _wp_left_for_eliminated,
    "two_poles": _two_poles,
    "missing_status": _missing_status,
    "row_not_an_object": _row_not_an_object,
    "empty": lambda champ, rows: (1, [], ("results",)),
    "not_a_list": lambda champ, rows: (1, {"driver": ids(champ)["Ana"]}, ("results",)),
}


def _reject(champ: dict[str, Any], case: str) -> Rejection:
    """(race number, rows, path to the expected error) for each FD-79 rejection."""
    rows: list[Any] = [dict(r) for r in race_rows(champ, 1, ORDER)]
    if case in FIELD_EDITS:
        row, field, value = FIELD_EDITS[case]
        rows[row][field] = value
        return 1, rows, ("results", row, field)
    return BUILT[case](champ, rows)


CASES = [*FIELD_EDITS, *BUILT]


@pytest.mark.parametrize("case", CASES)
def test_every_fd79_rejection_is_a_400_and_stores_nothing(clients, champ, case):
    if case == "not_entered":
        assert (
            submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ORDER)).status_code == 202
        )
    number, rows, path = _reject(champ, case)
    before = AuditEntry.objects.count()
    response = submit(clients["scorekeeper"], champ, number, rows)
    assert_refused(response, path)
    race = Race.objects.get(competition_id=champ["id"], number=number)
    assert_nothing_stored(race, RaceResultVersion, before)


def test_rows_with_errors_are_nested_per_row(clients, champ):
    rows = race_rows(champ, 1, ORDER)
    rows[1]["position"] = 7
    body = submit(clients["scorekeeper"], champ, 1, rows).json()
    assert body["results"][0] == {} and body["results"][2] == {}
    assert list(body["results"][1]) == ["position"]


def test_results_for_a_later_race_first_are_a_409(clients, champ):
    response = submit(clients["scorekeeper"], champ, 2, race_rows(champ, 2, ["Ana", "Eva"]))
    assert response.status_code == 409
    assert response.json()["detail"]
    assert not RaceResultVersion.objects.exists()
    # Once race 1 has stored results (whatever its status), race 2 is accepted.
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ORDER))
    assert (
        submit(clients["scorekeeper"], champ, 2, race_rows(champ, 2, ["Ana", "Eva"])).status_code
        == 202
    )


def test_unknown_race_is_a_404_before_the_role(clients, champ):
    rows = race_rows(champ, 1, ORDER)
    assert submit(clients["anonymous"], champ, 4, rows).status_code == 404
    assert submit(clients["scorekeeper"], champ, 4, rows).status_code == 404
    assert clients["anonymous"].get(f"/api/championships/{champ['id']}/races/0/").status_code == 404


def test_version_guard_and_idempotency_key(clients, champ):
    rows = race_rows(champ, 1, ORDER)
    assert submit(clients["scorekeeper"], champ, 1, rows, version=0).status_code == 202
    stale = submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ORDER[::-1]), version=0)
    assert stale.status_code == 409
    assert stale.json()["detail"] == "version conflict"
    assert stale.json()["current"]["version"] == 1
    headers = {"HTTP_IDEMPOTENCY_KEY": "race-1-fix"}
    url = f"/api/championships/{champ['id']}/races/1/results/"
    body = {"results": race_rows(champ, 1, ORDER[::-1]), "version": 1}
    first = clients["scorekeeper"].post(url, body, format="json", **headers)
    again = clients["scorekeeper"].post(url, body, format="json", **headers)
    assert first.status_code == again.status_code == 202
    assert again.json() == first.json()
    assert Race.objects.get(competition_id=champ["id"], number=1).version == 2
    assert IdempotencyKey.objects.count() == 1


def test_a_correction_recomputes_later_standings(clients, champ):
    sk = clients["scorekeeper"]
    submit(sk, champ, 1, race_rows(champ, 1, ORDER))
    submit(sk, champ, 2, race_rows(champ, 2, ["Eva", "Ana"]))
    submit(sk, champ, 3, race_rows(champ, 3, ORDER))
    before = standings(clients["anonymous"], champ).json()
    assert before["after_race"] == 3
    assert [(d["name"], d["points"]) for d in before["drivers"]] == [
        ("Ana", 28),
        ("Eva", 22),
        ("Rui", 16),
    ]
    # Race 1 corrected: Eva won, Ana out on lap 1.
    fixed = race_rows(champ, 1, ["Eva", "Rui", "Ana"], out=("Ana",))
    fixed[2]["laps"] = 1
    assert submit(sk, champ, 1, fixed).status_code == 202
    after = standings(clients["anonymous"], champ).json()
    assert after["after_race"] == 3
    assert [(d["name"], d["points"], d["results"]) for d in after["drivers"]] == [
        ("Eva", 26, [1, 1, 3]),
        ("Ana", 18, [None, 2, 1]),
        ("Rui", 16, [2, None, 2]),
    ]
    later = standings(clients["anonymous"], champ, after=2).json()
    # Ana and Rui tie on 8 with one 2nd place each; FD-76 (2): race 2, where Rui did not start.
    assert [(d["name"], d["points"]) for d in later["drivers"]] == [
        ("Eva", 20),
        ("Ana", 8),
        ("Rui", 8),
    ]
    statuses = [
        clients["anonymous"].get(f"/api/championships/{champ['id']}/races/{n}/").json()
        for n in (1, 2, 3)
    ]
    assert [(r["status"], r["version"]) for r in statuses] == [
        ("resolved", 2),
        ("resolved", 1),
        ("resolved", 1),
    ]
    history = clients["organiser"].get(f"/api/championships/{champ['id']}/history/").json()
    assert history["results"][0]["action"] == "results_corrected"
    assert history["results"][0]["event"] == 1
