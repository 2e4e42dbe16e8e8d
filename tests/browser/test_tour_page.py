"""The tour page in a desktop browser: no console errors, charts drawn, selector works."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.web.builders import build_tour
from tournament.clubs.models import Club

pytestmark = pytest.mark.browser


def test_tour_page_renders_without_console_errors(live_server, users, browser, console_errors):
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"),
        by=users["organiser"],
        stages=6,
        teams=4,
        resolved=4,
        name="Desktop Tour",
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page: Any = watch(context.new_page(), console_errors)
    page.set_default_timeout(30_000)  # generous: CI machines are shared
    response = page.goto(f"{live_server.url}/tours/{tour.pk}/")
    assert response.status == 200
    assert page.locator("html").get_attribute("lang") == "fr"  # from Accept-Language
    assert "Classement général" in page.locator("#general-h").inner_text()
    chart = page.locator("svg.linechart.layout-wide")  # the desktop's layout (charts.py)
    assert chart.is_visible() and not page.locator("svg.linechart.layout-narrow").is_visible()
    assert chart.get_attribute("role") == "img"
    assert chart.locator("polyline:not(.leader)").count() == 8
    assert page.locator("svg.timeline.layout-wide rect").count() >= 3
    # The "after stage" selector submits itself (podium.js) and keeps the address shareable.
    page.select_option("#after_stage", "2")
    page.wait_for_url(f"{live_server.url}/tours/{tour.pk}/?after_stage=2")
    assert "après l’étape 2 sur 6" in page.locator("p.lead").inner_text()
    # Switching language is remembered on the next page.
    page.click("form.lang button[value=pt]")
    page.wait_for_url(f"{live_server.url}/tours/{tour.pk}/?after_stage=2")
    page.goto(f"{live_server.url}/")
    assert page.locator("html").get_attribute("lang") == "pt"
    assert console_errors == []
    context.close()
