"""The New Grand Tour page in a real browser, on a 360×740 phone and a 1280×800 desktop: an
organiser creates a 5-stage, 3-team tour from the catalogue with a Rest Day and a token stack
placed by a click on the drawn profile (setup.js); screenshots to $PODIUM_SCREENSHOTS."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.conftest import PASSWORD
from tournament.tours.models import Tour
from tournament.tours.setup_page import courses

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
COURSES = ["1-2-4", "3-2-4", "5-2-4", "2-2-4", "8-2-4"]  # catalogue keys "<id>-<players>"


def _log_in(page: Any, base: str, path: str) -> None:
    page.goto(base + path)
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(base + path)


def _custom_course_preview(page: Any) -> None:
    """A typed course is drawn live, and a bad tile is named before anything is sent."""
    page.select_option("#id_stages-4-pick", "custom")
    page.fill("#id_stages-4-course", "abcZ")
    error = page.locator("[data-stage-row]").nth(4).locator("[data-course-error]")
    error.wait_for(state="visible")
    page.wait_for_function(
        "document.querySelectorAll('[data-course-error]')[4].textContent.length > 0"
    )
    assert "Z" in error.inner_text()
    page.fill("#id_stages-4-course", "abcdefghijklmnopqrstu")
    page.wait_for_function(
        "document.querySelectorAll('[data-stage-row]')[4].querySelectorAll('rect').length > 70"
    )
    assert error.inner_text() == ""
    page.select_option("#id_stages-4-pick", COURSES[4])  # back to the catalogue's course


def _script_helpers(page: Any) -> None:
    """Presets fill the boxes in place; GT-1.3's limit is flagged as soon as it bites."""
    page.click("button[data-preset*=tp_order_from_stage][value='preset:short']")
    assert page.input_value("#id_rules-tp_order_from_stage") == "3"
    page.click("button[value='preset:defaults']")
    assert page.input_value("#id_rules-tp_order_from_stage") == "6"
    page.select_option("#id_teams-0-riders-0-specialist", "grimpeur")
    page.select_option("#id_teams-1-riders-0-specialist", "grimpeur")
    clash = page.locator(".specialist-clash").filter(has_text="GT-1.3")
    assert clash.count() == 2
    page.select_option("#id_teams-1-riders-0-specialist", "")
    assert clash.count() == 0
    page.select_option("#id_teams-0-riders-0-specialist", "")


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_an_organiser_creates_a_five_stage_tour_on_the_page(
    live_server, users, browser, console_errors, device
):
    assert set(COURSES) <= set(courses())
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-shots-"))
    context = browser.new_context(viewport=VIEWPORTS[device], locale="en-GB")
    page: Any = watch(context.new_page(), console_errors)
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "/clubs/velo-lisboa/tours/new/")
    page.fill("#id_name", f"Tour {device}")
    page.click("button[data-add-row=stages]")
    page.click("button[data-add-row=stages]")
    for index, key in enumerate(COURSES):
        page.select_option(f"#id_stages-{index}-pick", key)
    # Every chosen course is drawn; a click on square 30 of stage 1 places a token stack there.
    assert page.locator("[data-stage-row] svg").count() == 5
    page.locator("[data-stage-row]").nth(0).locator('rect[data-square="30"]').click()
    assert page.input_value("#id_stages-0-stacks-0-square") == "30"
    page.select_option("#id_stages-0-stacks-0-side", "mountain")
    assert page.locator("[data-stage-row]").nth(0).locator("circle.stack-mountain").count() == 1
    page.check("#id_stages-1-rest_after")  # a Rest Day between stages 2 and 3
    assert not page.locator("#id_stages-4-rest_after").is_visible()  # none after the last
    for index, player in enumerate(["Ana", "Rui", "Gil"]):
        page.fill(f"#id_teams-{index}-player", player)
    assert page.get_attribute("#id_teams-0-riders-0-name", "placeholder") == "Ana R"
    if device == "desktop":
        _script_helpers(page)
        _custom_course_preview(page)
        # The preview's 400 for the bad tile is the answer the page reads, not a fault.
        refused = "the server responded with a status of 400"
        assert sum(refused in e for e in console_errors) == 1
        console_errors[:] = [e for e in console_errors if refused not in e]
    # The page fits the phone: nothing wider than the viewport.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORTS[device]["width"], width
    page.screenshot(path=str(folder / f"setup-tour-{device}.png"), full_page=True)
    page.click(".setup-submit button[type=submit]")
    page.wait_for_url(f"{live_server.url}/tours/*/")
    tour = Tour.objects.get(name=f"Tour {device}")
    stages = list(tour.stages.order_by("number"))
    assert [s.course for s in stages] == [courses()[k]["course"] for k in COURSES]
    assert [s.number for s in stages if s.rest_day_after] == [2]
    assert stages[0].stacks == [{"id": "s1", "type": "major", "side": "mountain", "square": 30}]
    teams = list(tour.teams.order_by("order"))
    assert [(t.name, t.player) for t in teams] == [
        ("Red", "Ana"),
        ("Blue", "Rui"),
        ("Green", "Gil"),
    ]
    assert sorted(r.name for r in teams[2].riders.all()) == ["Gil R", "Gil S"]
    page.screenshot(path=str(folder / f"setup-tour-{device}-created.png"), full_page=True)
    assert console_errors == []
    context.close()
