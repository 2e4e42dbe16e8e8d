"""A scorekeeper at the table, on a phone: log in, submit a stage, fix a bad row, see standings."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.conftest import PASSWORD
from tests.web.builders import build_tour
from tournament.clubs.models import Club
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.competitions.services import resolve_event
from tournament.tours.models import Stage

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phone(browser: Any, console_errors: list[str]) -> Any:
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True)
    page = watch(context.new_page(), console_errors)
    page.set_default_timeout(30_000)  # generous: CI machines are shared
    yield page
    context.close()


def log_in(page: Any, base: str, path: str, username: str = "scorekeeper") -> None:
    page.goto(base + path)
    assert "/login/" in page.url  # login required: redirected with ?next=
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(base + path)


def fill_positions(page: Any, count: int) -> None:
    """Positions 1..count in list order (the form starts them empty, issue #16)."""
    for index in range(count):
        page.fill(f"#id_form-{index}-position", str(index + 1))


def no_horizontal_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_submit_fix_and_see_standings(live_server, users, phone, console_errors):
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"),
        by=users["organiser"],
        stages=3,
        resolved=1,
        name="Phone Tour",
    )
    path = f"/tours/{tour.pk}/stages/2/results/"
    log_in(phone, live_server.url, path)
    assert phone.locator("fieldset.rider").count() == 6
    assert no_horizontal_scroll(phone)

    # A bad row: the second rider also in position 1. The page says so on that box.
    fill_positions(phone, 6)
    phone.fill("#id_form-1-position", "1")
    phone.click("form.results-form button[type=submit]")
    error = phone.locator("#id_form-1-position-err")
    error.wait_for()
    assert "which another rider already has" in error.inner_text()
    assert phone.locator("#id_form-1-position").get_attribute("aria-invalid") == "true"
    assert "missing: 2" in phone.locator("#form-errors").inner_text()
    assert no_horizontal_scroll(phone)
    assert Stage.objects.get(competition=tour, number=2).version == 0  # nothing stored

    # Fixed: stored, resolved, and the stage page shows the standings after it.
    phone.fill("#id_form-1-position", "2")
    phone.click("form.results-form button[type=submit]")
    phone.wait_for_url(f"{live_server.url}/tours/{tour.pk}/stages/2/")
    phone.locator("#live-general").wait_for()
    assert "Standings after stage 2" in phone.locator("#stage-live").inner_text()
    assert phone.locator("#live-general tbody tr").count() == 6
    assert Stage.objects.get(competition=tour, number=2).status == Status.RESOLVED
    assert no_horizontal_scroll(phone)
    assert console_errors == []


def test_stage_page_polls_until_the_stage_is_resolved(live_server, users, phone, console_errors):
    """The worker was down: stage 1 failed, stage 2 waits; the page updates when it resolves."""
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"),
        by=users["organiser"],
        stages=3,
        resolved=1,
        name="Waiting Tour",
    )
    first = Stage.objects.get(competition=tour, number=1)
    # What a worker that gave up leaves behind (services.fail_event after its retries).
    Stage.objects.filter(pk=first.pk).update(status=Status.FAILED, error="database away")
    log_in(phone, live_server.url, f"/tours/{tour.pk}/stages/2/results/")
    fill_positions(phone, 6)
    phone.click("form.results-form button[type=submit]")
    phone.wait_for_url(f"{live_server.url}/tours/{tour.pk}/stages/2/")
    live = phone.locator("#stage-live")
    assert live.get_attribute("data-poll")  # still submitted: stage 1 must be resolved first
    assert "being resolved" in live.inner_text()

    # The organiser's "resolve again" (admin action): stage 1, then stage 2 in cascade.
    Stage.objects.filter(pk=first.pk).update(status=Status.SUBMITTED, error="")
    assert resolve_event(kind=get_kind("tour"), event_id=first.pk) == "resolved"
    phone.locator("#live-general").wait_for()  # no reload: the poll brought the standings
    assert live.get_attribute("data-poll") is None
    assert "Standings after stage 2" in live.inner_text()
    assert console_errors == []
