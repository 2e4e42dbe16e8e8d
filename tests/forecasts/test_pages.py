"""The forecast on the competition pages: a summary on each competition page (who can still win
each title, the favourite's chance, a link) and the full forecast page of every kind
(``/<collection>/<id>/forecast/``: odds tables with statuses in words and reasons, the
positions heat map, the odds chart after each event with its data table, ``?after_*=N``)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.forecasts.test_forecasts import league, race

pytestmark = pytest.mark.django_db


def test_a_league_page_summarises_the_forecast_and_links_its_page(clients, forecasts):
    detail = league(clients)
    page = Client().get(f"/leagues/{detail['id']}/").content.decode()
    assert "Forecast: who can still win" in page
    assert "being computed" in page  # nothing stored yet: the read planned it
    race(clients, detail, 1, ["Ana", "Rui", "Eva"])
    # after race 1 of 3 (10, 2, 1 points; 10 a race): Ana the favourite, the others still in it
    page = Client().get(f"/leagues/{detail['id']}/").content.decode()
    assert re.search(r"<td colspan=\"2\">Can still win: (Rui|Eva) \d+%, (Rui|Eva) \d+%</td>", page)
    assert re.search(r"rowspan=\"2\">Drivers&#x27; title</th><td>Ana</td>", page)
    race(clients, detail, 2, ["Ana", "Eva", "Rui"])
    page = Client().get(f"/leagues/{detail['id']}/").content.decode()
    assert "being computed" not in page
    section = page[page.index('class="forecast"') :]
    section = section[: section.index("</section>")]
    # one row per title: Ana has clinched the drivers' title (10+10 of 30, rivals at most 12)
    assert re.search(
        r"<tbody><tr><th scope=\"rowgroup\">Drivers&#x27; title</th><td>Ana <span "
        r"class=\"fc-status fc-status-clinched\">✓ Clinched</span></td><td class=\"num\">100%"
        r"</td></tr>\s*</tbody>",
        section,
    )
    assert "Can still win" not in section  # nobody else: no second line
    assert "after race 2" in section
    # the summary draws no chart and no heat map: those are on the forecast page it links
    assert "<svg" not in section and "fc-heat" not in section
    assert f'href="/leagues/{detail["id"]}/forecast/"' in section


def test_the_summary_names_at_most_three_others():
    from tournament.forecasts.pages import title_summary

    entries = [
        {"name": n, "probability": p, "status": status}
        for n, p, status in (
            ("Ana", 0.5, "open"),
            ("Rui", 0.2, "open"),
            ("Eva", 0.1, "open"),
            ("Gil", 0.1, "open"),
            ("Leo", 0.06, "open"),
            ("Mia", 0.04, "open"),
            ("Tó", 0.0, "eliminated"),
        )
    ]
    (row,) = title_summary({"drivers": entries})
    assert (row["name"], row["percent"], row["status"]) == ("Ana", "50%", "open")
    assert row["others"] == "Rui 20%, Eva 10%, Gil 10% and 2 more"  # Tó cannot win: not counted
    (row,) = title_summary({"drivers": entries[:3]})
    assert row["others"] == "Rui 20%, Eva 10%"


def test_the_forecast_page_shows_every_title_and_the_history(clients, forecasts):
    detail = league(clients)
    race(clients, detail, 1, ["Ana", "Rui", "Eva"])
    race(clients, detail, 2, ["Ana", "Eva", "Rui"])
    url = f"/leagues/{detail['id']}/forecast/"
    page = Client().get(url).content.decode()
    # the odds: Ana clinched (100%, said in words), the others eliminated, with the reasons
    assert re.search(r"<th scope=\"row\">Ana</th><td class=\"num\">100%</td>", page)
    assert "✓ Clinched" in page and "✕ Eliminated" in page
    assert 'role="tooltip"' in page and "Ana has clinched the title" in page
    # the heat map: shaded cells with their figures
    assert "fc-heat" in page and 'heat-9">100%</td>' in page
    # the chart of each title after every event so far: start, race 1, race 2, in SVG + table
    assert page.count("<svg") >= 2 and "Data table" in page
    assert "Drivers&#x27; title: chances after each event" in page
    assert '<th scope="col" class="num">After Start</th>' in page
    assert '<th scope="col" class="num">After 2</th>' in page
    assert f'href="/leagues/{detail["id"]}/">' in page  # back to the league (breadcrumbs)
    # after race 1: that forecast, its chart up to race 1 only, the selector on it
    earlier = Client().get(url, {"after_race": 1}).content.decode()
    assert "after race 1." in earlier and "after race 2" not in earlier
    assert '<th scope="col" class="num">After 1</th>' in earlier
    assert '<th scope="col" class="num">After 2</th>' not in earlier
    assert '<option value="1" selected>' in earlier
    # before the first race: the start's odds (no history to draw yet)
    start = Client().get(url, {"after_race": 0}).content.decode()
    assert "before the first race" in start and "<svg" not in start.split('class="forecast"')[1]
    for bad in ("3", "x", "-1", "٣"):
        assert Client().get(url, {"after_race": bad}).status_code == 400, bad


def test_a_private_competitions_forecast_page_is_hidden(clients, users, forecasts):
    detail = league(clients, public=False)
    url = f"/leagues/{detail['id']}/forecast/"
    assert Client().get(url).status_code == 404
    for name, status in (("outsider", 404), ("scorekeeper", 200)):
        reader = Client()
        reader.force_login(users[name])
        assert reader.get(url).status_code == status, name
    assert Client().get("/leagues/999999/forecast/").status_code == 404


def test_every_competition_page_has_the_summary_and_a_forecast_page(clients, tour, forecasts):
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
        page = response.content.decode()
        assert "Forecast: who can still win" in page, url
        assert f'href="{url}forecast/"' in page, url
        forecast_page = Client().get(f"{url}forecast/")
        assert forecast_page.status_code == 200, url
        assert "who can still win" in forecast_page.content.decode(), url
