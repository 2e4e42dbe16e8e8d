"""Club pages in a real browser, on a phone (360x740) and a desktop (1280x800).

An organiser starts a club, makes an invitation link and a newcomer signs up through it. Every
page is screenshotted (into ``$PODIUM_SCREENSHOTS`` when set, for a person to look at) and must
not scroll sideways on the phone.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.conftest import PASSWORD
from tournament.clubs.models import ClubInvitation, Membership, Role

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _snap(page: Any, folder: Path, size: str, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
    width = SIZES[size]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name


@pytest.mark.parametrize("size", list(SIZES))
def test_start_a_club_invite_and_sign_up(
    live_server: Any, users: Any, browser: Any, console_errors: list[str], tmp_path: Path, size: str
) -> None:
    folder = _shots(tmp_path)
    base = live_server.url
    mobile = size == "phone"
    context = browser.new_context(viewport=SIZES[size], locale="en-GB", is_mobile=mobile)
    page = watch(context.new_page(), console_errors)
    page.set_default_timeout(30_000)
    page.goto(base + "/clubs/new/")
    assert "/login/" in page.url
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(base + "/clubs/new/")
    # A taken address: the message sits on its field and nothing is stored.
    page.fill("#id_name", "Clube de Braga")
    page.fill("#id_slug", "velo-lisboa")
    page.click("form.club-form button[type=submit]")
    assert page.locator(".field.invalid .field-error").count() == 1
    _snap(page, folder, size, "club-new-error")
    page.fill("#id_slug", f"braga-{size}")
    page.click("form.club-form button[type=submit]")
    page.wait_for_url(f"{base}/clubs/braga-{size}/")
    assert Membership.objects.get(club__slug=f"braga-{size}").role == Role.ORGANISER
    page.click(f"a[href='/clubs/braga-{size}/members/']")
    page.select_option("form.club-form select[name=role] >> nth=1", "scorekeeper")
    page.click("button[value=invite]")
    page.wait_for_selector(".invitations input")
    _snap(page, folder, size, "club-members")
    link = page.input_value(".invitations input")
    assert link == base + f"/invite/{ClubInvitation.objects.get(club__slug=f'braga-{size}').token}/"

    newcomer = browser.new_context(viewport=SIZES[size], locale="en-GB", is_mobile=mobile)
    other = watch(newcomer.new_page(), console_errors)
    other.goto(link)
    _snap(other, folder, size, "invitation")
    other.fill("#id_username", f"rita-{size}")
    other.fill("#id_password1", "a-long-pass-9x")
    other.fill("#id_password2", "a-long-pass-9x")
    other.click("form.club-form button[type=submit]")
    other.wait_for_url(f"{base}/clubs/braga-{size}/")
    _snap(other, folder, size, "joined")
    assert Membership.objects.get(user__username=f"rita-{size}").role == Role.SCOREKEEPER
    assert console_errors == []
    other.goto(link)  # spent: a 404 page (the browser logs the 404 status as a console error)
    _snap(other, folder, size, "invitation-used")
    assert "used or has expired" in other.content()
    page.goto(f"{base}/clubs/braga-{size}/members/")
    assert f"rita-{size}" in page.content()
    _snap(page, folder, size, "club-members-after")
    newcomer.close()
    context.close()
    assert [e for e in console_errors if "404" not in e] == []
