"""The big screens and the live links of the pages that show standings."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.championships.helpers import create as create_championship
from tests.championships.helpers import race_rows
from tests.championships.helpers import submit as submit_race
from tests.leagues.helpers import create as create_league
from tests.leagues.helpers import rows as league_rows
from tests.leagues.helpers import submit as submit_league
from tests.rallies.helpers import create_rally, sheet
from tests.rallies.helpers import submit as submit_rally
from tests.web.builders import build_tour
from tournament.clubs.models import Club

pytestmark = pytest.mark.django_db


def page(client: Any, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def slides(html: str) -> list[str]:
    return re.findall(r'data-slide="([^"]+)"', html)


def test_the_tour_screen_shows_classifications_jerseys_and_the_podium(users, client):
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"), by=users["organiser"], stages=4, resolved=2
    )
    html = page(client, f"/tours/{tour.pk}/screen/")
    assert slides(html) == [
        "table-general",
        "jerseys",
        "podium",
        "table-sprint",
        "table-mountain",
        "table-team",
        "table-tour_points",
        "forecast",
    ]
    assert "Standings after stage 2 of 4" in html
    assert f'data-live-events="/api/tours/{tour.pk}/events/"' in html
    assert f'data-live-version="{tour.standings_version}"' in html
    assert "Podium · Stage 2" in html and html.count('class="place place--') == 3
    assert html.count('class="jersey jersey--') >= 3  # yellow, green, polka dot on the slide
    # The slides alone, as the screen redraws them.
    fragment = page(client, f"/tours/{tour.pk}/screen/?part=slides")
    assert fragment.startswith('<div class="slides" data-version="2">')
    assert slides(fragment) == slides(html) and "<html" not in fragment


def test_a_long_classification_shows_its_first_rows(users, client):
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"),
        by=users["organiser"],
        stages=2,
        resolved=1,
        teams=6,
    )
    html = page(client, f"/tours/{tour.pk}/screen/")
    general = html.split('data-slide="table-general"')[1].split("</section>")[0]
    assert general.count("<tr>") == 11  # the header and 10 of the 12 riders
    assert "and 2 more" in general


def test_a_tour_before_its_first_stage(users, client):
    tour = build_tour(club=Club.objects.get(slug="velo-lisboa"), by=users["organiser"], stages=2)
    html = page(client, f"/tours/{tour.pk}/screen/")
    assert "No stage resolved yet." in html and "podium" not in slides(html)


def test_every_kind_has_a_screen(clients):
    organiser, scorekeeper = clients["organiser"], clients["scorekeeper"]
    championship = create_championship(organiser)
    submit_race(scorekeeper, championship, 1, race_rows(championship, 1, ["Ana", "Rui", "Eva"]))
    league = create_league(organiser)
    submit_league(scorekeeper, league, 1, league_rows(league, ["Ana", "Rui", "Eva"]))
    rally = create_rally(organiser)
    for number in (1, 2, 3):
        submit_rally(scorekeeper, rally["id"], number, sheet(rally, 300 + number, 312, "5:20"))
    cup = organiser.post(
        "/api/rally-championships/",
        {"club": "velo-lisboa", "name": "Taça", "rallies": [rally["id"]]},
        format="json",
    ).json()
    expected = {
        f"/championships/{championship['id']}/screen/": ["table-drivers", "podium", "table-teams"],
        f"/leagues/{league['id']}/screen/": ["table-drivers", "podium", "table-teams"],
        f"/rallies/{rally['id']}/screen/": ["table-overall", "podium"],
        f"/rally-championships/{cup['id']}/screen/": ["table-championship", "podium"],
    }
    for url, shown in expected.items():
        html = page(clients["anonymous"], url)
        assert slides(html) == [*shown, "forecast"], url
        assert html.count('class="place place--') == 3, url
    cup_html = page(clients["anonymous"], f"/rally-championships/{cup['id']}/screen/")
    assert "1 of 1 rally counted" in cup_html and 'data-live-version="3"' in cup_html
    assert "Podium · Rali de Sintra" in cup_html
    assert "Standings after race 1 of 3" in page(
        clients["anonymous"], f"/championships/{championship['id']}/screen/"
    )


def test_a_private_screen_is_a_404_outside_its_club(users, client):
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"), by=users["organiser"], stages=2, public=False
    )
    url = f"/tours/{tour.pk}/screen/"
    assert client.get(url).status_code == 404
    client.force_login(users["outsider"])
    assert client.get(url).status_code == 404
    client.force_login(users["scorekeeper"])
    assert client.get(url).status_code == 200
    assert client.get("/tours/999999/screen/").status_code == 404


def test_pages_that_show_standings_follow_the_stream(users, client):
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"), by=users["organiser"], stages=2, resolved=1
    )
    follows = f'data-live-events="/api/tours/{tour.pk}/events/" data-live-version="1"'
    for url in (
        f"/tours/{tour.pk}/",
        f"/embed/tours/{tour.pk}/",
        f"/tours/{tour.pk}/teams/{tour.teams.first().pk}/",
    ):
        html = page(client, url)
        assert follows in html, url
        assert "podium/live.js" in html, url
    assert f'href="/tours/{tour.pk}/screen/"' in page(client, f"/tours/{tour.pk}/")
    assert "/screen/" not in page(client, f"/embed/tours/{tour.pk}/")
