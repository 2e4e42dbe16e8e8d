"""POST …/races/{n}/results/: roles, every FD-79 rejection, order, versions, corrections."""

from __future__ import annotations

from typing import Any

import pytest

from tests.championships.helpers import create, ids, race_rows, standings, submit
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


def _reject(champ: dict[str, Any], case: str) -> tuple[int, list[Any], tuple[Any, ...]]:
    """(race number, rows, path to the expected error) for each FD-79 rejection."""
    by = ids(champ)
    base = race_rows(champ, 1, ORDER)
    rows: list[Any] = [dict(r) for r in base]
    number = 1
    path: tuple[Any, ...]
    if case == "duplicate_position":
        rows[1]["position"] = 1
        path = ("results", 1, "position")
    elif case == "positions_not_1_to_n":
        rows[2]["position"] = 4
        path = ("results", 2, "position")
    elif case == "unknown_driver":
        rows[2]["driver"] = 10**9
        path = ("results", 2, "driver")
    elif case == "not_entered":
        number = 2  # race 2: Ana and Eva only
        rows = race_rows(champ, 2, ["Ana", "Rui"])
        path = ("results", 1, "driver")
    elif case == "listed_twice":
        rows[2]["driver"] = by["Ana"]
        path = ("results", 2, "driver")
    elif case == "entered_driver_missing":
        rows = rows[:2]
        path = ("results",)
    elif case == "eliminated_ahead_of_finisher":
        rows = race_rows(champ, 1, ORDER, out=("Rui",))
        path = ("results", 2, "position")
    elif case == "eliminated_not_in_fd41_order":
        rows = race_rows(champ, 1, ORDER, out=("Rui", "Eva"))
        rows[2]["laps"] = 1  # more laps, ranked below one with fewer
        path = ("results", 2, "laps")
    elif case == "laps_exceed":
        rows[0]["laps"] = 3
        path = ("results", 0, "laps")
    elif case == "finisher_with_fewer_laps":
        rows[0]["laps"] = 1
        path = ("results", 0, "laps")
    elif case == "eliminated_with_all_laps":
        rows = race_rows(champ, 1, ORDER, out=("Eva",))
        rows[2]["laps"] = 2
        path = ("results", 2, "laps")
    elif case == "negative":
        rows[0]["laps"] = -1
        path = ("results", 0, "laps")
    elif case == "not_an_integer":
        rows[0]["position"] = "1"
        path = ("results", 0, "position")
    elif case == "float":
        rows[1]["laps"] = 2.0
        path = ("results", 1, "laps")
    elif case == "elimination_order_repeated":
        rows = race_rows(champ, 1, ORDER, out=("Rui", "Eva"))
        rows[1]["elimination_order"] = rows[2]["elimination_order"] = 1
        path = ("results", 2, "elimination_order")
    elif case == "elimination_order_gap":
        rows = race_rows(champ, 1, ORDER, out=("Rui", "Eva"))
        rows[1]["elimination_order"], rows[2]["elimination_order"] = 3, 1
        path = ("results", 1, "elimination_order")
    elif case == "elimination_order_contradicts_positions":
        rows = race_rows(champ, 1, ORDER, out=("Rui", "Eva"))
        rows[1]["elimination_order"], rows[2]["elimination_order"] = 1, 2
        path = ("results", 2, "elimination_order")
    elif case == "elimination_order_for_finisher":
        rows[0]["elimination_order"] = 1
        path = ("results", 0, "elimination_order")
    elif case == "wp_left_too_high":
        rows[0]["wp_left"] = 19
        path = ("results", 0, "wp_left")
    elif case == "wp_left_zero_for_finisher":
        rows[0]["wp_left"] = 0
        path = ("results", 0, "wp_left")
    elif case == "wp_left_for_eliminated":
        rows = race_rows(champ, 1, ORDER, out=("Eva",))
        rows[2]["wp_left"] = 3
        path = ("results", 2, "wp_left")
    elif case == "two_poles":
        rows[0]["pole"] = rows[2]["pole"] = True
        path = ("results",)
    elif case == "pole_not_boolean":
        rows[0]["pole"] = "yes"
        path = ("results", 0, "pole")
    elif case == "unknown_field":
        rows[0]["time"] = 12
        path = ("results", 0, "time")
    elif case == "missing_status":
        del rows[1]["status"]
        path = ("results", 1, "status")
    elif case == "bad_status":
        rows[1]["status"] = "retired"
        path = ("results", 1, "status")
    elif case == "row_not_an_object":
        rows[1] = "Rui"
        path = ("results", 1)
    elif case == "empty":
        rows = []
        path = ("results",)
    else:  # "not_a_list"
        rows = {"driver": by["Ana"]}  # type: ignore[assignment]
        path = ("results",)
    return number, rows, path


CASES = [
    "duplicate_position",
    "positions_not_1_to_n",
    "unknown_driver",
    "not_entered",
    "listed_twice",
    "entered_driver_missing",
    "eliminated_ahead_of_finisher",
    "eliminated_not_in_fd41_order",
    "laps_exceed",
    "finisher_with_fewer_laps",
    "eliminated_with_all_laps",
    "negative",
    "not_an_integer",
    "float",
    "elimination_order_repeated",
    "elimination_order_gap",
    "elimination_order_contradicts_positions",
    "elimination_order_for_finisher",
    "wp_left_too_high",
    "wp_left_zero_for_finisher",
    "wp_left_for_eliminated",
    "two_poles",
    "pole_not_boolean",
    "unknown_field",
    "missing_status",
    "bad_status",
    "row_not_an_object",
    "empty",
    "not_a_list",
]


@pytest.mark.parametrize("case", CASES)
def test_every_fd79_rejection_is_a_400_and_stores_nothing(clients, champ, case):
    if case == "not_entered":
        assert (
            submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ORDER)).status_code == 202
        )
    number, rows, path = _reject(champ, case)
    before = AuditEntry.objects.count()
    response = submit(clients["scorekeeper"], champ, number, rows)
    assert response.status_code == 400, response.content
    body: Any = response.json()
    for key in path:
        body = body[key]
    messages = body if isinstance(body, list) else [m for ms in body.values() for m in ms]
    assert messages and all(isinstance(m, str) and m for m in messages), response.json()
    race = Race.objects.get(competition_id=champ["id"], number=number)
    assert (race.version, race.status, race.results) == (0, "planned", [])
    assert not RaceResultVersion.objects.filter(event=race).exists()
    assert AuditEntry.objects.count() == before


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
