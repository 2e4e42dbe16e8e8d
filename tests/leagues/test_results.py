"""League races: results (every rejection), standings, simulate (400), history, export/import."""

from __future__ import annotations

from typing import Any

import pytest

from tests.leagues.helpers import create, ids, rows, standings, submit
from tests.result_checks import assert_nothing_stored, assert_refused
from tournament.competitions.models import AuditEntry, IdempotencyKey
from tournament.leagues.models import Race, RaceResultVersion

pytestmark = pytest.mark.django_db

ORDER = ["Ana", "Rui", "Eva"]


@pytest.fixture
def league(clients) -> dict[str, Any]:
    return create(clients["organiser"])


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 401), ("outsider", 403), ("scorekeeper", 202), ("organiser", 202)],
)
def test_submit_roles(clients, league, role, expected):
    assert submit(clients[role], league, 1, rows(league, ORDER)).status_code == expected
    assert Race.objects.get(competition_id=league["id"], number=1).version == (expected == 202)


def test_results_are_stored_in_order_and_resolved(clients, league):
    results = rows(league, ["Eva", "Ana", "Rui"], dnf=("Rui",), Eva=1)
    response = submit(clients["scorekeeper"], league, 1, results[::-1])
    assert response.status_code == 202, response.content
    assert response.json()["version"] == 1
    race = clients["anonymous"].get(f"/api/leagues/{league['id']}/races/1/").json()
    assert (race["status"], race["source"], race["error"], race["name"]) == (
        "resolved",
        "submitted",
        "",
        "USA",
    )
    assert [(r["name"], r["position"], r["status"], r["bonus"]) for r in race["results"]] == [
        ("Eva", 1, "finished", 1),
        ("Ana", 2, "finished", 0),
        ("Rui", 3, "dnf", 0),
    ]
    body = standings(clients["anonymous"], league).json()
    assert body["after_race"] == 1
    assert [(d["name"], d["points"], d["results"], d["statuses"]) for d in body["drivers"]] == [
        ("Eva", 10, [1], ["finished"]),  # 9 + a bonus point
        ("Ana", 6, [2], ["finished"]),
        ("Rui", 0, [None], ["dnf"]),  # points_finishers_only: a dnf scores nothing
    ]
    assert body["teams"] == [{"rank": 1, "team": "Red", "points": 6}]


MISSING = object()
#: case -> (row, field, value) set on race 1's valid rows; the 400 names results[row][field].
EDITS: dict[str, tuple[int, str, Any]] = {
    "duplicate_position": (1, "position", 1),
    "position_beyond_n": (2, "position", 4),
    "position_zero": (0, "position", 0),
    "listed_twice": (2, "driver", "Ana"),  # a name: replaced by the driver's id
    "unknown_driver": (2, "driver", 10**9),
    "bad_status": (1, "status", "eliminated"),
    "missing_position": (1, "position", MISSING),
    "string_position": (0, "position", "1"),
    "negative_bonus": (0, "bonus", -1),
    "float_bonus": (0, "bonus", 1.5),
    "bonus_beyond_the_bound": (0, "bonus", 10**6),
    "unknown_field": (0, "laps", 2),
}


def _whole(league: dict[str, Any], case: str) -> tuple[int, Any, tuple[Any, ...]]:
    """(race number, rows, path to the error) for the rejections of a whole list."""
    valid = rows(league, ORDER)
    return {
        "entered_driver_missing": (1, valid[:2], ("results",)),
        "not_entered": (2, rows(league, ["Ana", "Rui"]), ("results", 1, "driver")),  # Italy
        "dnf_ahead_of_finisher": (1, rows(league, ORDER, ("Rui",)), ("results", 2, "position")),
        "row_not_an_object": (1, [valid[0], "Rui", valid[2]], ("results", 1)),
        "empty": (1, [], ("results",)),
        "not_a_list": (1, {"driver": ids(league)["Ana"]}, ("results",)),
    }[case]


def _reject(league: dict[str, Any], case: str) -> tuple[int, Any, tuple[Any, ...]]:
    if case not in EDITS:
        return _whole(league, case)
    index, field, value = EDITS[case]
    base = rows(league, ORDER)
    if value is MISSING:
        del base[index][field]
    else:
        base[index][field] = ids(league)[value] if field == "driver" and value in ORDER else value
    return 1, base, ("results", index, field)


WHOLE = ["entered_driver_missing", "not_entered", "dnf_ahead_of_finisher"]
CASES = [*EDITS, *WHOLE, "row_not_an_object", "empty", "not_a_list"]


@pytest.mark.parametrize("case", CASES)
def test_every_rejection_is_a_400_and_stores_nothing(clients, league, case):
    if case == "not_entered":
        assert submit(clients["scorekeeper"], league, 1, rows(league, ORDER)).status_code == 202
    number, results, path = _reject(league, case)
    before = AuditEntry.objects.count()
    response = submit(clients["scorekeeper"], league, number, results)
    assert_refused(response, path)
    race = Race.objects.get(competition_id=league["id"], number=number)
    assert_nothing_stored(race, RaceResultVersion, before)


def test_bonus_only_when_the_league_has_bonus_points(clients):
    league = create(clients["organiser"], bonus_points=False)
    response = submit(clients["scorekeeper"], league, 1, rows(league, ORDER, Ana=1))
    assert response.status_code == 400
    assert list(response.json()["results"][0]) == ["bonus"]
    assert response.json()["results"][1:] == [{}, {}]
    assert submit(clients["scorekeeper"], league, 1, rows(league, ORDER)).status_code == 202
    race = clients["anonymous"].get(f"/api/leagues/{league['id']}/races/1/").json()
    assert all("bonus" not in row for row in race["results"])


def test_order_version_guard_and_idempotency(clients, league):
    sk = clients["scorekeeper"]
    early = submit(sk, league, 2, rows(league, ["Ana", "Eva"]))
    assert early.status_code == 409 and not RaceResultVersion.objects.exists()
    assert submit(sk, league, 1, rows(league, ORDER), version=0).status_code == 202
    stale = submit(sk, league, 1, rows(league, ORDER[::-1]), version=0)
    assert stale.status_code == 409 and stale.json()["detail"] == "version conflict"
    assert stale.json()["current"]["version"] == 1
    url = f"/api/leagues/{league['id']}/races/1/results/"
    body = {"results": rows(league, ORDER[::-1]), "version": 1}
    headers = {"HTTP_IDEMPOTENCY_KEY": "usa-fix"}
    first = sk.post(url, body, format="json", **headers)
    again = sk.post(url, body, format="json", **headers)
    assert first.status_code == again.status_code == 202 and again.json() == first.json()
    assert Race.objects.get(competition_id=league["id"], number=1).version == 2
    assert IdempotencyKey.objects.count() == 1


def test_standings_drop_worst_teams_after_race_and_corrections(clients):
    league = create(clients["organiser"], drop_worst=1, points_finishers_only=False)
    sk = clients["scorekeeper"]
    submit(sk, league, 1, rows(league, ["Rui", "Ana", "Eva"], dnf=("Eva",), Ana=2))
    submit(sk, league, 2, rows(league, ["Eva", "Ana"]))
    submit(sk, league, 3, rows(league, ["Ana", "Eva", "Rui"]))
    body = standings(clients["anonymous"], league).json()
    assert body["after_race"] == 3
    table = {d["name"]: d for d in body["drivers"]}
    # Ana: 8 (6 + bonus 2), 6, 9 -> drop 6 -> 17; Eva: 4 (dnf scores: finishers_only off), 9, 6
    # -> drop 4 -> 15; Rui: 9, not entered (0), 4 -> drop 0 -> 13.
    assert [(d["name"], d["points"]) for d in body["drivers"]] == [
        ("Ana", 17),
        ("Eva", 15),
        ("Rui", 13),
    ]
    assert table["Ana"]["race_points"] == [8, 6, 9] and table["Ana"]["dropped"] == [2]
    assert table["Rui"]["statuses"] == ["finished", "not_entered", "finished"]
    assert table["Eva"]["results"] == [None, 1, 2] and table["Eva"]["wins"] == 1
    assert table["Ana"]["progression"] == [8, 8, 17]  # race 2 drops its 6 at once
    # Teams keep every race (FD-77): Red = Ana 23 + Rui 13.
    assert body["teams"] == [{"rank": 1, "team": "Red", "points": 36}]
    assert standings(clients["anonymous"], league, after=1).json()["after_race"] == 1
    assert standings(clients["anonymous"], league, after=9).status_code == 400
    bad = clients["anonymous"].get(f"/api/leagues/{league['id']}/standings/?after_race=x")
    assert bad.status_code == 400
    # A correction of race 1 recomputes every later snapshot.
    assert submit(sk, league, 1, rows(league, ["Eva", "Ana", "Rui"])).status_code == 202
    fixed = {d["name"]: d for d in standings(clients["anonymous"], league).json()["drivers"]}
    assert fixed["Eva"]["race_points"] == [9, 9, 6] and fixed["Eva"]["points"] == 18
    after_two = standings(clients["anonymous"], league, after=2).json()
    assert after_two["after_race"] == 2 and after_two["drivers"][0]["name"] == "Eva"


def test_there_is_no_simulator(clients, league):
    url = f"/api/leagues/{league['id']}/races/1/simulate/"
    assert clients["anonymous"].post(url).status_code == 401
    assert clients["outsider"].post(url).status_code == 403
    response = clients["scorekeeper"].post(url)
    assert response.status_code == 400 and response.json()["detail"]
    race = Race.objects.get(competition_id=league["id"], number=1)
    assert (race.version, race.status) == (0, "planned")
    assert clients["anonymous"].get(f"/api/leagues/{league['id']}/races/1/replay/").status_code in (
        404,
        405,
    )


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 401), ("outsider", 403), ("scorekeeper", 403), ("organiser", 200)],
)
def test_history_and_export_are_for_organisers(clients, league, role, expected):
    base = f"/api/leagues/{league['id']}"
    assert clients[role].get(f"{base}/history/").status_code == expected
    assert clients[role].get(f"{base}/export/").status_code == expected


def test_history_records_submissions_and_corrections(clients, league):
    sk = clients["scorekeeper"]
    submit(sk, league, 1, rows(league, ORDER))
    submit(sk, league, 1, rows(league, ["Rui", "Ana", "Eva"]))
    body = clients["organiser"].get(f"/api/leagues/{league['id']}/history/").json()
    assert [(e["action"], e["event"]) for e in body["results"]] == [
        ("results_corrected", 1),
        ("results_submitted", 1),
        ("created", None),
    ]
    assert body["results"][0]["user"] == "scorekeeper"
    changed = body["results"][0]["changes"]["changed"]
    assert sorted(c["position"] for c in changed) == [[1, 2], [2, 1]]


def _named(data: dict[str, Any]) -> Any:
    """Standings without database ids (driver rows are matched by name)."""
    drivers = [{k: v for k, v in row.items() if k != "driver"} for row in data["drivers"]]
    return {**data, "drivers": drivers}


def test_export_and_import_round_trip(clients, league):
    sk = clients["scorekeeper"]
    submit(sk, league, 1, rows(league, ["Eva", "Ana", "Rui"], dnf=("Rui",), Eva=2))
    submit(sk, league, 2, rows(league, ["Ana", "Eva"]))
    submit(sk, league, 1, rows(league, ["Ana", "Rui", "Eva"]))
    document = clients["organiser"].get(f"/api/leagues/{league['id']}/export/").json()
    assert document["kind"] == "league"
    assert "seed" not in document["competition"]
    assert document["competition"]["game"] == league["game"]
    assert [len(e["versions"]) for e in document["events"]] == [2, 1]
    assert document["events"][0]["versions"][0]["rows"][0]["driver"] == "Eva"
    response = clients["outsider"].post(
        "/api/leagues/import/", {"club": "porto", "document": document}, format="json"
    )
    assert response.status_code == 201, response.content
    copy = response.json()
    assert copy["club"] == "porto" and copy["id"] != league["id"]
    for key in ("name", "game", "points", "drop_worst", "bonus_points", "points_finishers_only"):
        assert copy[key] == league[key], key
    assert [r["drivers"] for r in copy["races"]] == [r["drivers"] for r in league["races"]]
    original = standings(clients["organiser"], league).json()
    assert _named(standings(clients["outsider"], copy).json()) == _named(original)
    race = Race.objects.get(competition_id=copy["id"], number=1)
    assert RaceResultVersion.objects.filter(event=race).count() == 2
    # Only organisers of the target club import.
    again = clients["scorekeeper"].post(
        "/api/leagues/import/", {"club": "velo-lisboa", "document": document}, format="json"
    )
    assert again.status_code == 403


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("pt", "Esta liga não dá pontos de bónus."),
        ("es", "Esta liga no da puntos de bonificación."),
        ("fr", "Cette ligue ne donne pas de points de bonus."),
    ],
)
def test_errors_speak_the_readers_language(clients, lang, expected):
    league = create(clients["organiser"], bonus_points=False)
    response = clients["scorekeeper"].post(
        f"/api/leagues/{league['id']}/races/1/results/",
        {"results": rows(league, ORDER, Eva=1)},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    assert response.json()["results"][2] == {"bonus": [expected]}


def test_export_and_import_commands(clients, league, tmp_path):
    from django.core.management import call_command

    submit(clients["scorekeeper"], league, 1, rows(league, ORDER, Eva=1))
    path = tmp_path / "league.json"
    call_command("export_competition", "league", str(league["id"]), "-o", str(path))
    assert '"kind": "league"' in path.read_text()
    call_command("import_competition", "porto", str(path))
    copy = Race.objects.exclude(competition_id=league["id"]).get(number=1)
    assert copy.competition.club.slug == "porto" and copy.version == 1
