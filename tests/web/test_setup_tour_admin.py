"""One set of set-up checks (issue #15, item 7): the tours admin and import refuse what the API
and the set-up page refuse, with the same messages, on the field they concern, storing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.conftest import PASSWORD, tour_payload
from tests.web.test_setup_tour import NEW, error_of, form, nothing_stored
from tournament.clubs.models import Club

pytestmark = pytest.mark.django_db


def _admin(users: dict[str, Any]) -> Client:
    user = users["organiser"]
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _admin_tour(**changes: str) -> dict[str, str]:
    """The admin's "add tour" page as posted: two stages, two teams with their riders."""
    data = {
        "club": str(Club.objects.get(slug="velo-lisboa").pk),
        "name": "Admin Tour",
        "public": "on",
        "seed": "5",
        "rules": "{}",
        "stages-TOTAL_FORMS": "2",
        "stages-INITIAL_FORMS": "0",
        "teams-TOTAL_FORMS": "2",
        "teams-INITIAL_FORMS": "0",
    }
    for i in range(2):
        data |= {
            f"stages-{i}-number": str(i + 1),
            f"stages-{i}-name": f"Etapa {i + 1}",
            f"stages-{i}-course": "abcdefghijklmnopqrstu",
            f"stages-{i}-finish": "flat",
            f"stages-{i}-stacks": "[]",
        }
    for i, player in enumerate(("Ana", "Rui")):
        data |= {
            f"teams-{i}-order": str(i + 1),
            f"teams-{i}-name": f"Team {player}",
            f"teams-{i}-player": player,
            f"teams-{i}-rouleur": f"{player} R",
            f"teams-{i}-sprinteur": f"{player} S",
        }
    return data | changes


def _admin_errors(html: str) -> str:
    return " ".join(part.split("</ul>")[0] for part in html.split('class="errorlist')[1:])


def test_the_admin_refuses_a_team_without_riders_on_its_row(users):
    response = _admin(users).post(
        "/admin/tours/tour/add/", _admin_tour(**{"teams-1-rouleur": "", "teams-1-sprinteur": ""})
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "A team has exactly two riders: one rouleur and one sprinteur." in _admin_errors(html)
    assert nothing_stored()


@pytest.mark.parametrize(
    ("admin_changes", "page_changes", "page_box"),
    [
        # A seed the API refuses (the admin's own column would take it).
        ({"seed": "-1"}, {"seed": "-1"}, "seed"),
        # A bad tile: the API's message, naming the tile, on the course box.
        (
            {"stages-1-course": "abcZ"},
            {"stages-1-pick": "custom", "stages-1-course": "abcZ"},
            "stages-1-course",
        ),
        # A stack past the course's end.
        (
            {"stages-0-stacks": '[{"id": "s1", "type": "major", "side": "sprint", "square": 400}]'},
            {"stages-0-stacks-0-square": "400"},
            "stages-0-stacks-0-square",
        ),
    ],
)
def test_the_admin_and_the_page_refuse_alike(users, web, admin_changes, page_changes, page_box):
    admin_html = (
        _admin(users).post("/admin/tours/tour/add/", _admin_tour(**admin_changes)).content.decode()
    )
    page_html = web["organiser"].post(NEW, form(**page_changes)).content.decode()
    message = error_of(page_html, page_box)
    assert message and message in admin_html
    assert nothing_stored()


def test_import_runs_the_same_checks(clients, tour):
    document = clients["organiser"].get(f"/api/tours/{tour['id']}/export/").json()
    document["competition"]["stages"][1]["stacks"][0]["square"] = 400
    answer = clients["organiser"].post(
        "/api/tours/import/", {"club": "velo-lisboa", "document": document}, format="json"
    )
    assert answer.status_code == 400
    stage = answer.json()["document"]["competition"]["stages"][1]
    assert stage["stacks"][0]["square"] == ["The course has 79 squares."]
    created = clients["organiser"].post("/api/tours/", tour_payload(seed=-1), format="json")
    assert created.status_code == 400 and created.json()["seed"]
