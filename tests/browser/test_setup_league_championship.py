"""The league and Formula D set-up pages in a real browser, on a 360×740 phone and a 1280×800
desktop (issue #15): an organiser creates a league through the form, enters race 1 on the
existing results page and sees it in the standings; then creates a Formula D championship,
with the page's script at work (entry-list toggles, the advanced groups, the points table).
Screenshots to $PODIUM_SCREENSHOTS."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.conftest import PASSWORD
from tournament.championships.models import Championship, Race
from tournament.leagues.models import League

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def _log_in(page: Any, base: str, path: str) -> None:
    page.goto(base + path)
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(base + path)


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width


def _league(page: Any, base: str, device: str, shots: Path) -> None:
    page.fill("#id_name", f"Heat {device}")
    page.fill("#id_game", "Heat: Pedal to the Metal")
    for index, name in enumerate(["Ana", "Rui", "Eva"]):
        page.fill(f"#id_drivers-{index}-name", name)
    page.fill("#id_drivers-0-team", "Red")
    page.fill("#id_races-0-name", "USA")
    page.fill("#id_races-1-name", "Italy")
    page.select_option("#id_points", "f1-2010")
    assert page.locator('[data-points-table="f1-2010"]').is_visible()
    assert not page.locator('[data-points-table="classic"]').is_visible()
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"setup-league-{device}.png"), full_page=True)
    page.click(".setup-submit button")
    page.wait_for_url(f"{base}/leagues/*/")
    league = League.objects.get(name=f"Heat {device}")
    assert league.races.count() == 2  # the third, blank race row is no race
    # Race 1 on the existing results page, then the standings show it.
    page.goto(f"{base}/leagues/{league.pk}/races/1/results/")
    for index in range(3):
        page.fill(f"#id_form-{index}-position", str(index + 1))
    page.click(".results-form button[type=submit]")
    page.wait_for_url(f"{base}/leagues/{league.pk}/races/1/")
    page.goto(f"{base}/leagues/{league.pk}/")
    standings = page.locator("table").filter(has_text="Rui").first.inner_text()
    first = next(line for line in standings.splitlines() if "Ana" in line)
    assert "25" in first.split("\t"), standings  # f1-2010's win
    page.screenshot(path=str(shots / f"setup-league-standings-{device}.png"), full_page=True)


def _championship(page: Any, base: str, device: str, shots: Path) -> None:
    page.goto(f"{base}/clubs/velo-lisboa/championships/new/")
    page.fill("#id_name", f"Taça {device}")
    for index, name in enumerate(["Ana", "Rui", "Eva", "Gil"]):
        page.fill(f"#id_drivers-{index}-name", name)
    # The entry list of race 2 by toggles of the drivers' names (setup_points.js).
    chips = page.locator('[data-row="races"]').nth(1).locator(".chip")
    assert chips.count() == 4
    chips.nth(0).click()
    chips.nth(2).click()
    assert page.input_value("#id_races-1-drivers") == "Ana, Eva"
    advanced = page.locator('.rule-group[data-when="advanced"]').first
    assert not advanced.is_visible()
    page.select_option("#id_rule_set", "advanced")
    assert advanced.is_visible()
    assert page.input_value("#id_rules-start_great_min") == "20"  # FD-58's default follows
    page.select_option("#id_rule_set", "basic")
    assert page.input_value("#id_rules-start_great_min") == "17"
    page.select_option("#id_rule_set", "advanced")
    page.locator(".rule-group").filter(has_text="Advanced: tests and costs").locator(
        "summary"
    ).click()  # opened for the screenshot: the FD-63 table
    page.select_option("#id_points", "custom")
    page.fill("#id_points-custom", "12 9 7 5")
    assert page.locator('[data-points-table="custom"] td').count() == 4
    page.fill("#id_races-0-laps", "4")  # refused: at most 3 laps (FD-37)
    page.click(".setup-submit button")
    page.wait_for_selector("#form-errors")
    assert "at most 3" in page.locator("#id_races-0-laps-err").inner_text()
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"setup-championship-error-{device}.png"), full_page=True)
    page.fill("#id_races-0-laps", "3")
    page.click(".setup-submit button")
    page.wait_for_url(f"{base}/championships/*/")
    championship = Championship.objects.get(name=f"Taça {device}")
    assert championship.rule_set == "advanced" and list(championship.points) == [12, 9, 7, 5]
    races = list(Race.objects.filter(competition=championship).order_by("number"))
    assert races[0].laps == 3 and len(races[1].drivers) == 2


def _rally(page: Any, base: str, device: str, shots: Path) -> None:
    """The rally page's typed rules: Super Rally first, the RM-37/RM-38 tables as grids."""
    page.goto(f"{base}/clubs/velo-lisboa/rallies/new/")
    page.locator(".rule-group").first.locator("summary").click()
    page.locator(".rule-group").locator("summary", has_text="Loss of control and damage").click()
    assert page.locator("#id_rules-crash_draws-6-3").is_visible()
    _no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"setup-rally-{device}.png"), full_page=True)


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_an_organiser_sets_up_a_league_and_a_championship(
    live_server, users, browser, console_errors, device
):
    shots = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-shots-"))
    context = browser.new_context(viewport=VIEWPORTS[device], locale="en-GB")
    page: Any = watch(context.new_page(), console_errors)
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "/clubs/velo-lisboa/leagues/new/")
    _league(page, live_server.url, device, shots)
    _championship(page, live_server.url, device, shots)
    _rally(page, live_server.url, device, shots)
    context.close()
    assert console_errors == []
