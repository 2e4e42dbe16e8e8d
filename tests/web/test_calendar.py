"""The club calendar (``/clubs/<slug>/calendar.ics``, RFC 5545) and the upcoming events of the
club and competition pages (issue #18 item 5). Parsed back with the ``icalendar`` library."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar
from rest_framework.authtoken.models import Token

from tests.championships import helpers as championships
from tests.conftest import tour_payload

pytestmark = pytest.mark.django_db


def _soon(days: int) -> str:
    return (timezone.now() + timedelta(days=days)).replace(microsecond=0).isoformat()


@pytest.fixture
def dated(clients: Any) -> dict[str, Any]:
    """A public tour (stage 1 dated, stage 2 dated with a name needing escapes), a private
    championship (race 1 dated), and another club's public tour (dated)."""
    payload = tour_payload()
    payload["stages"][0]["date"] = _soon(3)
    payload["stages"][1]["date"] = _soon(10)
    payload["stages"][1]["name"] = "Col; de la Croix, Fer \\ très longue étape " + "x" * 60
    public = clients["organiser"].post("/api/tours/", payload, format="json").json()
    races = championships.payload()["races"]
    races[0]["date"] = _soon(5)
    private = championships.create(clients["organiser"], public=False, races=races)
    other = tour_payload(club="porto", name="Volta do Porto")
    other["stages"][0]["date"] = _soon(4)
    assert clients["outsider"].post("/api/tours/", other, format="json").status_code == 201
    return {"tour": public, "championship": private}


def _parse(response: Any) -> list[Any]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content
    assert b"\r\n" in body and all(len(line) <= 75 for line in body.split(b"\r\n"))  # folded
    calendar = Calendar.from_ical(body)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    return list(calendar.walk("VEVENT"))


def test_public_events_only_without_a_token(web: dict[str, Client], dated: dict[str, Any]) -> None:
    events = _parse(web["anonymous"].get("/clubs/velo-lisboa/calendar.ics"))
    tour = dated["tour"]
    assert [str(e["SUMMARY"]) for e in events] == [
        "Tour de Lisboa 2026 — Stage 1: Avenue Corso Paseo",
        "Tour de Lisboa 2026 — Stage 2: Col; de la Croix, Fer \\ très longue étape " + "x" * 60,
    ]
    first = events[0]
    assert str(first["URL"]) == f"http://testserver/tours/{tour['id']}/stages/1/"
    assert first["DTSTART"].dt == timezone.datetime.fromisoformat(tour["stages"][0]["date"])
    assert first["DURATION"].dt == timedelta(hours=2)
    assert first["DTSTAMP"].dt is not None
    assert "Velo Club Lisboa" in str(first["DESCRIPTION"])
    assert b"Col\\; de la Croix\\, Fer \\\\ tr" in web["anonymous"].get(
        "/clubs/velo-lisboa/calendar.ics"
    ).content.replace(b"\r\n ", b"")  # RFC 5545 escaping (lines unfolded)


def test_uids_are_stable_and_unique(
    web: dict[str, Client], dated: dict[str, Any], clients: Any
) -> None:
    url = "/clubs/velo-lisboa/calendar.ics"
    first = [str(e["UID"]) for e in _parse(web["anonymous"].get(url))]
    tour = dated["tour"]
    moved = clients["organiser"].patch(
        f"/api/tours/{tour['id']}/stages/2/", {"date": _soon(1)}, format="json"
    )
    assert moved.status_code == 200
    again = [str(e["UID"]) for e in _parse(web["anonymous"].get(url))]
    assert sorted(again) == sorted(first) and len(set(first)) == 2
    assert again == [first[1], first[0]]  # stage 2 moved before stage 1: soonest first


def test_the_organisers_token_adds_private_competitions(
    web: dict[str, Client], users: Any, dated: dict[str, Any]
) -> None:
    url = "/clubs/velo-lisboa/calendar.ics"
    organiser = Token.objects.create(user=users["organiser"])
    events = _parse(web["anonymous"].get(f"{url}?token={organiser.key}"))
    summaries = [str(e["SUMMARY"]) for e in events]
    assert summaries[1] == "Formula D Winter Cup — Race 1"
    assert len(summaries) == 3
    response = web["anonymous"].get(f"{url}?token={organiser.key}")
    assert "private" in response["Cache-Control"]
    # A scorekeeper's or another club's organiser's token: public events only.
    for role in ("scorekeeper", "outsider"):
        token = Token.objects.create(user=users[role])
        assert len(_parse(web["anonymous"].get(f"{url}?token={token.key}"))) == 2
    # The session alone never shows private events (calendar apps have none anyway).
    assert len(_parse(web["organiser"].get(url))) == 2
    assert web["anonymous"].get(f"{url}?token=nope").status_code == 401
    assert web["anonymous"].get("/clubs/nowhere/calendar.ics").status_code == 404
    assert web["anonymous"].post(url).status_code == 405


def test_pages_show_the_upcoming_events(web: dict[str, Client], dated: dict[str, Any]) -> None:
    tour = dated["tour"]
    club = web["anonymous"].get("/clubs/velo-lisboa/").content.decode()
    assert "Upcoming" in club and "/clubs/velo-lisboa/calendar.ics" in club
    assert f'href="/tours/{tour["id"]}/stages/1/"' in club
    assert "Formula D Winter Cup" not in club  # private: readers outside the club do not see it
    member = web["scorekeeper"].get("/clubs/velo-lisboa/").content.decode()
    assert "Formula D Winter Cup — Race 1" in member
    moment = timezone.localtime(timezone.datetime.fromisoformat(tour["stages"][0]["date"]))
    assert moment.strftime("%Y, %H:%M") in club  # "5 Dec 2026, 19:00": the site's date form
    page = web["anonymous"].get(f"/tours/{tour['id']}/").content.decode()
    assert "Upcoming" in page and "Stage 2: Col; de la Croix" in page
    assert "Volta do Porto" not in page
    pt = Client(HTTP_ACCEPT_LANGUAGE="pt")
    assert "Próximos" in pt.get("/clubs/velo-lisboa/").content.decode()


def test_a_competition_without_dates_shows_no_upcoming_list(
    web: dict[str, Client], clients: Any
) -> None:
    tour = clients["organiser"].post("/api/tours/", tour_payload(), format="json").json()
    page = web["anonymous"].get(f"/tours/{tour['id']}/").content.decode()
    assert 'class="upcoming"' not in page
    club = web["anonymous"].get("/clubs/velo-lisboa/").content.decode()
    assert "No dated events ahead." in club
    events = _parse(web["anonymous"].get("/clubs/velo-lisboa/calendar.ics"))
    assert events == []
