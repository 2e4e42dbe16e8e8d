"""Screenshots of the pages issue #16 (part 1) touched, at 360x740 and 1280x800.

Written to $PODIUM_SCREENSHOTS (default: a temporary folder printed in the log) so that a
person can look at them; each page is also checked for console errors and, on the phone, for
a page that scrolls sideways outside its tables.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.web.builders import build_tour
from tournament.clubs.models import Club

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def _folder() -> Path:
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-shots-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {folder}")
    return folder


@pytest.fixture
def pages_to_shoot(users: Any, clients: Any) -> dict[str, str]:
    from tests.championships.helpers import create as create_championship
    from tests.rallies.helpers import create_rally, sheet, submit

    club = Club.objects.get(slug="velo-lisboa")
    tour = build_tour(club=club, by=users["organiser"], stages=2, teams=2, resolved=2, name="Done")
    rally = create_rally(clients["organiser"])
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    body = {"club": "velo-lisboa", "name": "Taça 2026", "rallies": [rally["id"]]}
    cup = clients["organiser"].post("/api/rally-championships/", body, format="json").json()
    champ = create_championship(clients["organiser"])
    team = tour.teams.first()
    assert team is not None
    return {
        "home": "/",
        "club": "/clubs/velo-lisboa/",
        "tour-stage": f"/tours/{tour.pk}/stages/1/",
        "team": f"/tours/{tour.pk}/teams/{team.pk}/",
        "rally": f"/rallies/{rally['id']}/",
        "rally-stage": f"/rallies/{rally['id']}/stages/1/",
        "rally-cup": f"/rally-championships/{cup['id']}/",
        "fd-form": f"/championships/{champ['id']}/races/1/results/",
        "admin": "/admin/",
    }


def test_screenshots_of_the_touched_pages(live_server, browser, users, pages_to_shoot) -> None:
    folder = _folder()
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, locale="en-GB")
        context.add_cookies(_session_cookie(live_server, users["superuser"]))
        errors: list[str] = []
        page = watch(context.new_page(), errors)
        for name, path in pages_to_shoot.items():
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, (name, path)
            page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
            if name == "admin":
                errors.clear()  # Django's admin links no favicon: its 404 is not ours
                continue
            assert errors == [], name
            if size == "phone":
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"], (name, width)
        context.close()


def _session_cookie(live_server: Any, user: Any) -> list[dict[str, Any]]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    return [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
