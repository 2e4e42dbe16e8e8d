"""The season page, the club page's list of seasons and the organisers' new-season form."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.seasons.helpers import create_season, item, league
from tournament.seasons.models import Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def leagues(clients: dict[str, Any]) -> dict[str, Any]:
    return {
        "l1": league(clients, "Spring", ["Ana", "Rui", "Eva"]),
        "l2": league(clients, "Summer", ["Rui", "Ana", "Eva"]),
        "open": league(clients, "Autumn", ["Eva", "Rui"], races=2, played=1),
        "porto": league(clients, "Porto Cup", ["Ana"], club="porto", by="outsider"),
    }


def _web(users: dict[str, Any], role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(users[role])
    return client


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_season_page_shows_the_standings_and_explains_ties(clients, users, leagues):
    items = [item("league", leagues[n]) for n in ("l1", "l2", "open")]
    season = create_season(clients["organiser"], name="2026", points=[5, 3], competitions=items)
    assert season.status_code == 201, season.content
    url = f"/clubs/velo-lisboa/seasons/{season.json()['id']}/"
    response = _web(users, "anonymous").get(url)
    assert response.status_code == 200
    html = response.content.decode()
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S)
    assert body is not None
    marks = re.sub(r'<details class="tie-break">.*?</details>', " = ", body.group(1), flags=re.S)
    rows = [_text(r).strip() for r in re.findall(r"<tr[^>]*>(.*?)</tr>", marks, re.S)]
    # Ana 5+3 and Rui 3+5: by name; Eva: two 3rd places, nothing; the open league: "—".
    assert rows == [
        "1 Ana 8 1st (5) 2nd (3) —",
        "2 = Rui 8 2nd (3) 1st (5) —",
        "3 Eva 0 3rd (0) 3rd (0) —",
    ]
    assert html.count('class="tie-break"') == 1
    assert "2. Rui: Same points and countback; name order (SEASON-3)" in _text(html)
    assert "in progress" in html and "2 of 3 competitions are finished and count." in html
    club = _web(users, "anonymous").get("/clubs/velo-lisboa/").content.decode()
    assert f'href="{url}"' in club and 'id="new-season"' not in club
    portuguese = _web(users, "anonymous").get(url, HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    assert "Temporada 2026" in portuguese
    assert "Mesmos pontos e desempate por lugares; ordem dos nomes (SEASON-3)" in portuguese


def test_new_season_form_lists_finished_competitions_and_creates(users, leagues):
    organiser = _web(users, "organiser")
    club = organiser.get("/clubs/velo-lisboa/").content.decode()
    assert 'id="new-season"' in club
    page = organiser.get("/clubs/velo-lisboa/seasons/new/")
    assert page.status_code == 200
    html = page.content.decode()
    boxes = re.findall(r'name="competitions" value="([^"]+)"', html)
    assert sorted(boxes) == sorted(f"league:{leagues[n]['id']}" for n in ("l1", "l2"))
    bad = organiser.post(
        "/clubs/velo-lisboa/seasons/new/",
        {"name": "2026", "points": "10, -1", "competitions": boxes},
    )
    assert bad.status_code == 200 and Season.objects.count() == 0
    assert "greater than or equal to 0" in bad.content.decode()
    made = organiser.post(
        "/clubs/velo-lisboa/seasons/new/",
        {"name": "2026", "points": "10 8;6", "competitions": boxes},
    )
    season = Season.objects.get()
    assert (
        made.status_code == 302 and made["Location"] == f"/clubs/velo-lisboa/seasons/{season.pk}/"
    )
    assert season.points == [10, 8, 6] and season.items.count() == 2


@pytest.mark.parametrize(
    ("role", "code"), [("anonymous", 302), ("outsider", 403), ("scorekeeper", 403)]
)
def test_new_season_form_is_for_organisers(users, role, code):
    client = _web(users, role)
    assert client.get("/clubs/velo-lisboa/seasons/new/").status_code == code
    response = client.post("/clubs/velo-lisboa/seasons/new/", {"name": "x", "points": "1"})
    assert response.status_code == code and Season.objects.count() == 0


@pytest.mark.parametrize(
    ("role", "code"),
    [("anonymous", 403), ("outsider", 403), ("scorekeeper", 403), ("organiser", 302)],
)
def test_only_organisers_delete_a_season_from_its_page(clients, users, role, code):
    spring = league(clients, "Spring", ["Ana", "Rui"])
    body = {"name": "2026", "points": [1], "competitions": [item("league", spring)]}
    made = create_season(clients["organiser"], **body)
    url = f"/clubs/velo-lisboa/seasons/{made.json()['id']}/"
    client = _web(users, role)
    assert ('id="delete-season"' in client.get(url).content.decode()) is (role == "organiser")
    response = client.post(url, {"action": "delete"})
    assert response.status_code == code
    assert Season.objects.count() == (0 if role == "organiser" else 1)
    if role == "organiser":
        assert response["Location"] == "/clubs/velo-lisboa/"
        assert client.get(url).status_code == 404
