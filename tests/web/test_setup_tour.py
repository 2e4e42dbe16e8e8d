"""The Grand Tour's New and Edit pages (issue #15, items 2, 4 and 7): access per role, the form
by plain POST, errors on the box they concern with nothing stored, the same tour as the API's."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import stage_rows, tour_payload
from tournament.tours.models import Rider, Stage, Team, Tour
from tournament.tours.setup_page import courses

NEW = "/clubs/velo-lisboa/tours/new/"
CORSO = next(k for k, c in courses().items() if c["course"] == "abcdefghijklmnopqrstu")
MONTAGNE = next(k for k, c in courses().items() if c["course"] == "abcfimetKGLHJsdopRQNU")


def form(**changes: str) -> dict[str, str]:
    """The New page as an organiser fills it in for the API's sample tour (tests/conftest.py)."""
    data = {
        "name": "Tour de Lisboa 2026",
        "public": "true",
        "seed": "42",
        "stages-0-pick": CORSO,
        "stages-0-rest_after": "on",
        "stages-1-pick": MONTAGNE,
        "stages-1-stacks-0-type": "major",
        "stages-1-stacks-0-side": "mountain",
        "stages-1-stacks-0-square": "43",
        "stages-1-stacks-0-id": "m1",
        "stages-2-name": "Stage three",
        "stages-2-pick": "none",
        "teams-0-name": "Red",
        "teams-0-player": "Ana",
        "teams-0-riders-0-specialist": "grimpeur",
        "teams-1-name": "Blue",
        "teams-1-player": "Rui",
        "teams-2-name": "Green",
        "teams-2-player": "Gil",
    }
    data.update(changes)
    return data


def nothing_stored() -> bool:
    return not (Tour.objects.exists() or Team.objects.exists() or Stage.objects.exists())


def error_of(html: str, name: str) -> str:
    """The error text shown under the box ``name`` ('' when there is none)."""
    found = re.search(rf'id="id_{re.escape(name)}-err">([^<]*)<', html)
    return found.group(1) if found else ""


# --- access -----------------------------------------------------------------------------------


def test_the_new_page_is_for_the_clubs_organisers(web):
    page = web["organiser"].get(NEW)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="stages-0-pick"' in html and 'name="teams-0-player"' in html
    assert 'name="rules-podium_tp"' in html and "Avenue Corso Paseo" in html
    assert web["superuser"].get(NEW).status_code == 200
    assert web["scorekeeper"].get(NEW).status_code == 403
    assert web["outsider"].get(NEW).status_code == 403  # organises another club
    assert web["outsider"].post(NEW, form()).status_code == 403
    assert web["anonymous"].get(NEW)["Location"].startswith("/login/?next=")
    assert web["organiser"].get("/clubs/no-such-club/tours/new/").status_code == 404
    assert nothing_stored()


def test_the_edit_page_is_for_the_clubs_organisers(web, tour, private_tour):
    edit = f"/tours/{tour['id']}/edit/"
    assert web["organiser"].get(edit).status_code == 200
    assert web["scorekeeper"].get(edit).status_code == 403
    assert web["outsider"].get(edit).status_code == 403  # may read the public tour
    assert web["outsider"].get(f"/tours/{private_tour['id']}/edit/").status_code == 404
    assert web["anonymous"].get(edit)["Location"].startswith("/login/?next=")
    assert web["outsider"].post(edit, {"name": "Taken"}).status_code == 403
    assert Tour.objects.get(pk=tour["id"]).name == tour["name"]


# --- create -----------------------------------------------------------------------------------


def _comparable(detail: dict[str, Any]) -> dict[str, Any]:
    """A tour's detail without what differs between two creations (ids, times)."""
    out = {k: v for k, v in detail.items() if k not in ("id", "created_at", "specialist_order")}
    out["teams"] = [
        {**t, "id": None, "riders": [{**r, "id": None} for r in t["riders"]]} for t in out["teams"]
    ]
    return out


def test_a_tour_created_on_the_page_equals_the_same_tour_created_through_the_api(web, clients):
    response = web["organiser"].post(NEW, form())
    assert response.status_code == 302, response.content.decode()[:3000]
    made = Tour.objects.get()
    assert response["Location"] == f"/tours/{made.pk}/"
    payload = tour_payload(name="Twin")
    payload["teams"].append(
        {
            "name": "Green",
            "player": "Gil",
            "riders": [{"name": "Gil R", "role": "rouleur"}, {"name": "Gil S", "role": "sprinteur"}],
        }
    )
    payload["teams"] = payload["teams"][:3]
    twin = clients["organiser"].post("/api/tours/", payload, format="json")
    assert twin.status_code == 201, twin.content
    page_detail = clients["organiser"].get(f"/api/tours/{made.pk}/").json()
    assert _comparable({**page_detail, "name": "Twin"}) == _comparable(twin.json())
    assert page_detail["stages"][1]["stacks"] == [
        {"id": "m1", "type": "major", "side": "mountain", "square": 43}
    ]
