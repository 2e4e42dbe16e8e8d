"""Event dates (API.md, "Dates, calendar, printouts, share cards"): every kind of event takes an
optional ``date`` at creation and by ``PATCH`` on the event (organisers, any time); details show
it (``null`` when unset); export and import carry it; the history records each change."""

from __future__ import annotations

from typing import Any

import pytest

from tests.championships import helpers as championships
from tests.conftest import stage_rows, tour_payload
from tests.leagues import helpers as leagues
from tests.rallies import helpers as rallies

pytestmark = pytest.mark.django_db

WHEN = "2026-12-05T19:00:00Z"
LATER = "2026-12-12T20:30:00+01:00"  # 19:30 UTC
#: kind -> (collection, event word, create payload with event 2 dated, event list key)
KINDS: dict[str, tuple[str, str, Any, str]] = {
    "tour": ("tours", "stages", tour_payload, "stages"),
    "championship": ("championships", "races", championships.payload, "races"),
    "league": ("leagues", "races", leagues.payload, "races"),
    "rally": ("rallies", "stages", rallies.rally_payload, "stages"),
}


def _create(client: Any, kind: str, **date: Any) -> dict[str, Any]:
    collection, _word, build, events = KINDS[kind]
    body = build()
    body[events][1].update(date)
    response = client.post(f"/api/{collection}/", body, format="json")
    assert response.status_code == 201, response.content
    detail: dict[str, Any] = response.json()
    return detail


def _event_url(kind: str, detail: dict[str, Any], number: int) -> str:
    collection, word, _build, _events = KINDS[kind]
    return f"/api/{collection}/{detail['id']}/{word}/{number}/"


@pytest.mark.parametrize("kind", list(KINDS))
def test_create_with_a_date_and_read_it_everywhere(clients: Any, kind: str) -> None:
    detail = _create(clients["organiser"], kind, date="2026-12-05T20:00:00+01:00")
    events = detail[KINDS[kind][3]]
    assert [e["date"] for e in events] == [None, WHEN, None]  # the same moment, shown in UTC+0
    first = clients["anonymous"].get(_event_url(kind, detail, 1)).json()
    second = clients["anonymous"].get(_event_url(kind, detail, 2)).json()
    assert first["date"] is None
    assert second["date"] == WHEN


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize(
    "bad", ["2026-12-05T19:00:00", "2026-12-05", "tomorrow", "2026-13-05T19:00Z", 5]
)
def test_a_bad_date_at_creation_is_a_400_and_nothing_is_stored(
    clients: Any, kind: str, bad: Any
) -> None:
    collection, _word, build, events = KINDS[kind]
    body = build()
    body[events][1]["date"] = bad
    response = clients["organiser"].post(f"/api/{collection}/", body, format="json")
    assert response.status_code == 400, response.content
    assert "date" in response.json()[events][1], response.json()
    assert clients["organiser"].get(f"/api/{collection}/").json()["count"] == 0


@pytest.mark.parametrize("kind", list(KINDS))
def test_patch_the_date_any_time_and_the_history_records_it(clients: Any, kind: str) -> None:
    detail = _create(clients["organiser"], kind)
    url = _event_url(kind, detail, 2)
    response = clients["organiser"].patch(url, {"date": LATER}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["date"] == "2026-12-12T19:30:00Z"
    assert response.json()["number"] == 2
    cleared = clients["organiser"].patch(url, {"date": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["date"] is None
    history = clients["organiser"].get(f"/api/{KINDS[kind][0]}/{detail['id']}/history/").json()
    dated = [e for e in history["results"] if e["event"] == 2]
    assert [e["changes"]["date"] for e in dated] == [
        ["2026-12-12T19:30:00+00:00", None],
        [None, "2026-12-12T19:30:00+00:00"],
    ]
    assert all(e["user"] == "organiser" for e in dated)
    # The same date again changes nothing and records nothing.
    clients["organiser"].patch(url, {"date": None}, format="json")
    again = clients["organiser"].get(f"/api/{KINDS[kind][0]}/{detail['id']}/history/").json()
    assert again["count"] == history["count"]


def test_patch_after_results_are_stored(clients: Any, tour: dict[str, Any]) -> None:
    """A date is not set-up: a resolved stage still takes one (the set-up PATCH would be 409)."""
    rows = stage_rows(tour)
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": rows}, format="json"
    )
    assert response.status_code == 202
    url = f"/api/tours/{tour['id']}/stages/1/"
    response = clients["organiser"].patch(url, {"date": WHEN}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["date"] == WHEN and body["status"] == "resolved" and body["version"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"date": "2026-12-05T19:00:00"}, "date"),
        ({"date": "next friday"}, "date"),
        ({}, "date"),
        ({"date": WHEN, "name": "Renamed"}, "name"),
    ],
)
def test_a_bad_patch_is_a_400_and_changes_nothing(
    clients: Any, tour: dict[str, Any], body: dict[str, Any], field: str
) -> None:
    url = f"/api/tours/{tour['id']}/stages/2/"
    response = clients["organiser"].patch(url, body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert clients["organiser"].get(url).json()["date"] is None


@pytest.mark.parametrize(
    ("role", "code"),
    [("scorekeeper", 403), ("outsider", 403), ("anonymous", 401), ("superuser", 200)],
)
def test_only_organisers_patch_a_date(
    clients: Any, tour: dict[str, Any], role: str, code: int
) -> None:
    url = f"/api/tours/{tour['id']}/stages/2/"
    response = clients[role].patch(url, {"date": WHEN}, format="json")
    assert response.status_code == code, response.content
    expected = WHEN if code == 200 else None
    assert clients["anonymous"].get(url).json()["date"] == expected


def test_private_and_unknown_events_are_404(clients: Any) -> None:
    secret = _create(clients["organiser"], "tour")
    response = clients["organiser"].patch(
        f"/api/tours/{secret['id']}/", {"public": False}, format="json"
    )
    assert response.status_code == 200
    url = f"/api/tours/{secret['id']}/stages/2/"
    assert clients["outsider"].patch(url, {"date": WHEN}, format="json").status_code == 404
    assert clients["anonymous"].patch(url, {"date": WHEN}, format="json").status_code == 404
    missing = f"/api/tours/{secret['id']}/stages/9/"
    assert clients["organiser"].patch(missing, {"date": WHEN}, format="json").status_code == 404


@pytest.mark.parametrize("kind", list(KINDS))
def test_export_and_import_carry_the_dates(clients: Any, kind: str) -> None:
    collection, _word, _build, events = KINDS[kind]
    detail = _create(clients["organiser"], kind, date=WHEN)
    document = clients["organiser"].get(f"/api/{collection}/{detail['id']}/export/").json()
    response = clients["organiser"].post(
        f"/api/{collection}/import/", {"club": "velo-lisboa", "document": document}, format="json"
    )
    assert response.status_code == 201, response.content
    assert [e["date"] for e in response.json()[events]] == [None, WHEN, None]
