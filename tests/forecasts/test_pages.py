"""The forecast section of the competition pages: odds tables with statuses in words and
reasons, the positions heat map and the odds chart after each event (with its data table)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.forecasts.test_forecasts import league, race

pytestmark = pytest.mark.django_db


def test_a_league_page_shows_the_forecast(clients, forecasts):
    detail = league(clients)
    page = Client().get(f"/leagues/{detail['id']}/").content.decode()
    assert "Forecast: who can still win" in page
    assert "being computed" in page  # nothing stored yet: the read planned it
    race(clients, detail, 1, ["Ana", "Rui", "Eva"])
    race(clients, detail, 2, ["Ana", "Eva", "Rui"])
    page = Client().get(f"/leagues/{detail['id']}/").content.decode()
    assert "being computed" not in page
    section = page[page.index('class="forecast"') :]
    # the odds: Ana clinched (100%, said in words), the others eliminated, with the reasons
    assert re.search(r"<th scope=\"row\">Ana</th><td class=\"num\">100%</td>", section)
    assert "✓ Clinched" in section and "✕ Eliminated" in section
    assert 'role="tooltip"' in section and "Ana has clinched the title" in section
    # the heat map: shaded cells with their figures
    assert "fc-heat" in section and 'heat-9">100%</td>' in section
    # the chart of each title after every event so far: start, race 1, race 2, in SVG + table
    assert section.count("<svg") >= 2 and "Data table" in section
    assert "Drivers&#x27; title: chances after each event" in section
    assert '<th scope="col" class="num">After Start</th>' in section


def test_every_competition_page_has_the_section(clients, tour, forecasts):
    from tests.championships.helpers import create as create_championship
    from tests.rallies.helpers import create_rally

    championship = create_championship(clients["organiser"])
    rally = create_rally(clients["organiser"])
    body = {"club": "velo-lisboa", "name": "Taça", "public": True, "rallies": [rally["id"]]}
    taca = clients["organiser"].post("/api/rally-championships/", body, format="json").json()
    for url in (
        f"/tours/{tour['id']}/",
        f"/championships/{championship['id']}/",
        f"/rallies/{rally['id']}/",
        f"/rally-championships/{taca['id']}/",
    ):
        response = Client().get(url)
        assert response.status_code == 200, url
        assert "Forecast: who can still win" in response.content.decode(), url
