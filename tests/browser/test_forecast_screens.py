"""The forecast page in a phone's and a desktop's browser (issue #17): odds tables, a reason
shown by a tap, the heat map and the odds chart, no console errors, nothing wider than the
phone's screen. Screenshots go to $PODIUM_SCREENSHOTS (or a temporary folder)."""

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


def test_the_forecast_section_on_a_phone_and_a_desktop(
    live_server, users, browser, console_errors, settings
):
    settings.PODIUM_FORECASTS = True
    settings.PODIUM_FORECAST_SIMULATIONS = 300
    settings.PODIUM_FORECAST_CHUNK = 300
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"), by=users["organiser"], stages=5, resolved=3
    )
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-"))
    folder.mkdir(parents=True, exist_ok=True)
    for name, width in (("phone", 360), ("desktop", 1280)):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page: Any = watch(context.new_page(), console_errors)
        page.set_default_timeout(30_000)
        assert page.goto(f"{live_server.url}/tours/{tour.pk}/forecast/").status == 200
        section = page.locator("main")
        assert "computing" not in section.inner_text()
        assert page.locator("table.fc-odds").count() == 5  # the five titles of a tour
        button = page.locator(".fc-tip-button").first
        reason = page.locator(".fc-reason").first
        button.click()  # a tap shows the reason
        assert reason.is_visible() and reason.bounding_box()["width"] > 100
        assert "last stage" in reason.inner_text()
        assert button.get_attribute("aria-expanded") == "true"
        assert "%" in page.locator("table.fc-heat td").first.inner_text()
        assert page.locator("table.fc-heat tbody tr").count() == 6  # 3 teams of 2 riders
        # one chart per title, in the layout that fits its box (narrow or wide)
        assert page.locator("main svg.linechart:visible").count() == 5
        overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name}: the page is {overflow}px wider than the screen"
        section.screenshot(path=str(folder / f"forecast-{name}.png"))
        context.close()
    print(f"screenshots: {folder}")
    assert console_errors == []
