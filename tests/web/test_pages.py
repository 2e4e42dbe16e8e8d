"""Public pages: every page for every role, public and private tours, and what each shows."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.conftest import stage_rows
from tests.web.conftest import MEMBERS, ROLES

PAGES = [
    "/tours/{id}/",
    "/tours/{id}/?after_stage=1",
    "/tours/{id}/stages/1/",
    "/tours/{id}/stages/1/live/",
    "/tours/{id}/teams/{team}/",
    "/embed/tours/{id}/",
    "/tours/{id}/standings/general.csv",
]


def page(template: str, detail: dict[str, Any]) -> str:
    return template.format(id=detail["id"], team=detail["teams"][0]["id"])


@pytest.mark.parametrize("role", ROLES)
def test_public_tour_pages_answer_everyone(web, resolved_tour, role):
    for template in PAGES:
        response = web[role].get(page(template, resolved_tour))
        assert response.status_code == 200, template


@pytest.mark.parametrize("role", ROLES)
def test_private_tour_pages_are_404_to_non_members(web, private_tour, role):
    for template in PAGES:
        response = web[role].get(page(template, private_tour))
        assert response.status_code == (200 if role in MEMBERS else 404), template


def test_unknown_ids_are_404(web, resolved_tour):
    client = web["anonymous"]
    assert client.get("/tours/999999/").status_code == 404
    assert client.get(f"/tours/{resolved_tour['id']}/stages/9/").status_code == 404
    assert client.get(f"/tours/{resolved_tour['id']}/teams/999999/").status_code == 404
    assert client.get(f"/tours/{resolved_tour['id']}/standings/nope.csv").status_code == 404
    assert client.get("/clubs/no-such-club/").status_code == 404


def test_tour_page_shows_classifications_times_and_gaps(web, resolved_tour):
    html = web["anonymous"].get(f"/tours/{resolved_tour['id']}/").content.decode()
    assert "Standings after stage 2 of 3" in html
    for title in (
        "General classification",
        "Sprint classification",
        "Mountain classification",
        "Team classification",
        "Tour Points",
    ):
        assert title in html
    # GC after two stages (see tests/web/conftest.py): Gil R leads in 1:10, Ana R is +1:20.
    assert ">1:10<" in html
    assert "+1:20" in html
    assert 'class="jersey jersey--yellow"' in html
    # The start order of the next stage, the timeline and the chart with their alternatives.
    assert "Start order of stage 3" in html
    # Two charts, each drawn for a phone and for a wider box (podium.css shows one of them).
    assert html.count('role="img" aria-labelledby=') == 4
    assert '<title id="gc-t">' in html and '<desc id="gc-d">' in html
    assert '<title id="timeline-t">' in html
    assert html.count("Data table") == 2


def test_tour_page_after_stage_selector(web, resolved_tour):
    url = f"/tours/{resolved_tour['id']}/"
    html = web["anonymous"].get(url, {"after_stage": 1}).content.decode()
    assert "Standings after stage 1 of 3" in html
    assert '<option value="1" selected>' in html
    assert web["anonymous"].get(url, {"after_stage": 3}).status_code == 400
    assert web["anonymous"].get(url, {"after_stage": "x"}).status_code == 400


def test_tour_page_before_any_stage_shows_the_drawn_start_order(web, tour):
    html = web["anonymous"].get(f"/tours/{tour['id']}/").content.decode()
    assert "No stage resolved yet." in html
    assert "Start order of stage 1" in html
    assert "linechart" not in html


def test_stage_page_shows_results_podium_jerseys_and_earlier_versions(web, clients, resolved_tour):
    tour_id = resolved_tour["id"]
    # A correction of stage 1 keeps version 1 in the history.
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour_id}/stages/1/results/",
        {"results": stage_rows(resolved_tour, order=[1, 0, 2, 3, 4, 5])},
        format="json",
    )
    assert response.status_code == 202
    html = web["anonymous"].get(f"/tours/{tour_id}/stages/1/").content.decode()
    assert "Podium" in html and "3 Tour Points" in html
    assert "Jerseys after this stage" in html
    assert "Earlier versions" in html and "Version 1" in html
    assert 'id="results-table"' in html
    assert "Rest Day" in html  # stage 1 is followed by a Rest Day with its awards
    assert "data-poll" not in html  # resolved: nothing to wait for


def test_team_page_shows_the_players_sheet(web, resolved_tour):
    team = resolved_tour["teams"][2]  # Green: Gil R leads the GC
    html = web["anonymous"].get(f"/tours/{resolved_tour['id']}/teams/{team['id']}/").content
    html = html.decode()
    assert "Gil R" in html and "Gil S" in html and "Rouleur" in html
    assert "Tour Points and exhaustion cards by stage" in html
    assert 'id="history-table"' in html
    assert "Cards: Gil R" in html


def test_embed_can_be_framed_and_is_compact(web, resolved_tour):
    response = web["anonymous"].get(f"/embed/tours/{resolved_tour['id']}/")
    assert "X-Frame-Options" not in response.headers
    html = response.content.decode()
    assert "General classification" in html and "Tour Points" in html
    assert "Sprint classification" not in html
    # Pages other than the embed may not be framed.
    assert web["anonymous"].get(f"/tours/{resolved_tour['id']}/").headers["X-Frame-Options"]


@pytest.mark.parametrize("slug", ["general", "sprint", "mountain", "team", "tour_points"])
def test_csv_download_of_every_classification(web, resolved_tour, slug):
    response = web["anonymous"].get(f"/tours/{resolved_tour['id']}/standings/{slug}.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    expected = 3 if slug in ("team", "tour_points") else 6
    assert len(rows) == 1 + expected
    assert rows[0][0] == "#"
    assert [r[0] for r in rows[1:]] == [str(n) for n in range(1, expected + 1)]


def test_general_csv_keeps_whole_seconds(web, resolved_tour):
    response = web["anonymous"].get(
        f"/tours/{resolved_tour['id']}/standings/general.csv", {"after_stage": 1}
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["#", "Rider", "Team", "Time (s)", "Gap (s)"]
    assert rows[1] == ["1", "Ana R", "Red", "0", "0"]
    assert rows[-1] == ["6", "Gil S", "Green", "150", "150"]


def test_home_lists_clubs_and_running_competitions_first(web, users, resolved_tour, clients):
    from tests.conftest import tour_payload

    upcoming = clients["organiser"].post(
        "/api/tours/", tour_payload(name="Later Tour"), format="json"
    )
    assert upcoming.status_code == 201
    secret = clients["organiser"].post(
        "/api/tours/", tour_payload(name="Members Only", public=False), format="json"
    )
    assert secret.status_code == 201
    html = web["anonymous"].get("/").content.decode()
    assert "Velo Club Lisboa" in html and "Porto Cycling" in html
    assert "Running now" in html
    club_section = html[html.index("Velo Club Lisboa") :]
    assert club_section.index("Tour de Lisboa 2026") < club_section.index("Later Tour")
    assert "Members Only" not in html
    assert "Members Only" in web["scorekeeper"].get("/").content.decode()


def test_club_page_lists_members_to_members_only(web, resolved_tour):
    anonymous = web["anonymous"].get("/clubs/velo-lisboa/").content.decode()
    member = web["scorekeeper"].get("/clubs/velo-lisboa/").content.decode()
    assert "Tour de Lisboa 2026" in anonymous and "Tour de Lisboa 2026" in member
    assert "Members" not in anonymous
    assert "Members" in member and "organiser" in member


def test_login_logout_and_admin_link(web, users):
    from django.test import Client

    from tests.conftest import PASSWORD

    client = Client()
    assert client.get("/login/").status_code == 200
    response = client.post("/login/", {"username": "root", "password": PASSWORD, "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert 'href="/admin/"' in html and "Log out root" in html
    assert 'href="/admin/"' not in web["anonymous"].get("/").content.decode()
    response = client.post("/logout/")
    assert response.status_code == 302
    assert "Log in" in client.get("/").content.decode()


def test_bad_login_says_so(web, users):
    from django.test import Client

    response = Client().post("/login/", {"username": "root", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
