"""The league set-up pages: ``/clubs/<slug>/leagues/new/`` and ``/leagues/<id>/edit/``
(issue #15, items 3 and 4), for every role; page create equals API create; errors on their box.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.setup_helpers import (
    admin_client,
    assert_organisers_only,
    assert_page_create_equals_api_create,
    assert_refused,
    assert_refused_on_box,
    submit_results,
)
from tournament.leagues.models import Driver, League, Race

NEW = "/clubs/velo-lisboa/leagues/new/"

pytestmark = pytest.mark.django_db


def form(**changes: str) -> dict[str, str]:
    data = {
        "name": "Heat Spring League",
        "public": "on",
        "game": "Heat: Pedal to the Metal",
        "points": "custom",
        "points-custom": "9 6 4 3 2 1",
        "drop_worst": "1",
        "points_finishers_only": "on",
        "bonus_points": "on",
        "drivers-0-name": "Ana",
        "drivers-0-team": "Red",
        "drivers-1-name": "Rui",
        "drivers-1-team": "Red",
        "drivers-2-name": "Eva",
        "races-0-name": "USA",
        "races-0-date": "2026-12-05T19:00:00+00:00",
        "races-1-name": "Italy",
        "races-1-drivers": "Ana, Eva",
        "races-2-name": "",
    }
    data.update(changes)
    return data


def test_roles(web: dict[str, Client]) -> None:
    assert_organisers_only(web, NEW, form(), League)
    page = web["organiser"].get(NEW).content.decode()
    assert 'data-points-table="f1-2010"' in page and 'name="bonus_points"' in page


def test_page_create_equals_api_create(web: dict[str, Client], clients: dict[str, Any]) -> None:
    response = web["organiser"].post(NEW, form())
    league = League.objects.get()
    assert response["Location"] == f"/leagues/{league.pk}/"
    api = clients["organiser"].post(
        "/api/leagues/",
        {
            "club": "velo-lisboa",
            "name": "Heat Spring League",
            "game": "Heat: Pedal to the Metal",
            "points": [9, 6, 4, 3, 2, 1],
            "drop_worst": 1,
            "points_finishers_only": True,
            "bonus_points": True,
            "drivers": [
                {"name": "Ana", "team": "Red"},
                {"name": "Rui", "team": "Red"},
                {"name": "Eva"},
            ],
            "races": [
                {"name": "USA", "date": "2026-12-05T19:00:00+00:00"},
                {"name": "Italy", "drivers": ["Ana", "Eva"]},
            ],
        },
        format="json",
    )
    assert_page_create_equals_api_create(clients, "leagues", league.pk, api)


@pytest.mark.parametrize(
    ("changes", "box", "fragment"),
    [
        ({"name": ""}, "name", "may not be blank"),
        ({"points": "custom", "points-custom": "1, 2"}, "points-custom", "must not increase"),
        ({"points": "nope"}, "points", "Unknown points preset"),
        ({"races-1-drivers": "Ana, Bob"}, "races-1-drivers", "Bob is not a driver"),
        ({"races-1-drivers": ", ,"}, "races-1-drivers", ""),  # no names: everyone, accepted
        ({"drivers-2-name": "ana"}, "drivers-2-name", "unique"),
        ({"drop_worst": "-1"}, "drop_worst", "greater than or equal to 0"),
        ({"races-0-date": "next Friday"}, "races-0-date", "Datetime has wrong format"),
    ],
)
def test_bad_input_lands_on_its_box(
    web: dict[str, Client], changes: dict[str, str], box: str, fragment: str
) -> None:
    response = web["organiser"].post(NEW, form(**changes))
    if not fragment:
        assert response.status_code == 302
        return
    assert_refused_on_box(response, box, fragment)
    assert not League.objects.exists() and not Driver.objects.exists() and not Race.objects.exists()


def test_edit_then_lock(web: dict[str, Client], clients: dict[str, Any]) -> None:
    web["organiser"].post(NEW, form())
    league = League.objects.get()
    url = f"/leagues/{league.pk}/edit/"
    assert_refused(web, url)
    page = web["organiser"].get(url).content.decode()
    assert 'value="Ana, Eva"' in page and 'value="2026-12-05T19:00"' in page  # Lisbon, UTC+0
    response = web["organiser"].post(url, form(**{"races-2-name": "Spain", "game": "Heat"}))
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.game == "Heat" and league.races.count() == 3
    assert league.races.get(number=1).date is not None  # the date survives the edit
    detail = clients["organiser"].get(f"/api/leagues/{league.pk}/").json()
    rows = [
        {"driver": pk, "position": n, "status": "finished"}
        for n, pk in enumerate(detail["races"][0]["driver_ids"], start=1)
    ]
    submit_results(clients, f"/api/leagues/{league.pk}/races/1/results/", rows)
    page = web["organiser"].get(url).content.decode()
    assert "The set-up is locked." in page and "Italy" in page and 'name="game"' not in page
    assert web["organiser"].post(url, {"name": "Heat Autumn", "public": "on"}).status_code == 302
    league.refresh_from_db()
    assert league.name == "Heat Autumn" and league.races.count() == 3
    # The dates still change once locked, one by one (the event PATCH's checks).
    assert 'name="races-1-date"' in page
    moved = {"name": "Heat Autumn", "races-1-date": "2026-12-12T20:30", "races-0-date": ""}
    assert web["organiser"].post(url, moved).status_code == 302
    dates = dict(league.races.values_list("number", "date"))
    assert dates[1] is None and dates[2] is not None and dates[2].hour == 20
    bad = web["organiser"].post(url, {"name": "X", "races-1-date": "soon"})
    assert bad.status_code == 200 and "Datetime has wrong format" in bad.content.decode()
    league.refresh_from_db()
    assert league.name == "Heat Autumn"


def test_the_admin_refuses_an_entry_list_naming_nobody(users: dict[str, Any]) -> None:
    from tournament.clubs.models import Club

    admin = admin_client(users)
    data: dict[str, Any] = {
        "club": Club.objects.get(slug="velo-lisboa").pk,
        "name": "Admin League",
        "public": "on",
        "game": "Heat",
        "points": '"classic"',
        "drop_worst": 0,
        "points_finishers_only": "on",
        "drivers-TOTAL_FORMS": 1,
        "drivers-INITIAL_FORMS": 0,
        "drivers-0-order": 1,
        "drivers-0-name": "Ana",
        "races-TOTAL_FORMS": 1,
        "races-INITIAL_FORMS": 0,
        "races-0-number": 1,
        "races-0-name": "USA",
        "races-0-entered": " , ,",
    }
    response = admin.post("/admin/leagues/league/add/", data)
    assert response.status_code == 200
    assert "A race needs at least one driver." in response.content.decode()
    assert not League.objects.exists()


def test_links_to_the_set_up_pages(web: dict[str, Client]) -> None:
    club = web["organiser"].get("/clubs/velo-lisboa/").content.decode()
    for url in (NEW, "/clubs/velo-lisboa/championships/new/", "/clubs/velo-lisboa/rallies/new/"):
        assert f'href="{url}"' in club
    assert 'href="/clubs/velo-lisboa/rally-championships/new/"' in club
    assert NEW not in web["scorekeeper"].get("/clubs/velo-lisboa/").content.decode()
    web["organiser"].post(NEW, form())
    league = League.objects.get()
    edit = f'href="/leagues/{league.pk}/edit/"'
    assert edit in web["organiser"].get(f"/leagues/{league.pk}/").content.decode()
    assert edit not in web["scorekeeper"].get(f"/leagues/{league.pk}/").content.decode()
