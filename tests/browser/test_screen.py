"""The big screen in Chromium: it fits a TV at 1920×1080 and 1280×720 without scrolling, and a
stage resolved while it is open redraws it in place (no reload), through the event stream.

The live server is WSGI (pytest-django's), so the stream is the one ``runserver`` serves
(``PODIUM_LIVE_WSGI_STREAM``); the resolution publishes through Redis when ``REDIS_URL`` is set,
as a worker does, or in-process otherwise. The tour page open beside it refreshes its standings
too. Screenshots of every slide go to $PODIUM_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.web.builders import build_tour
from tournament.clubs.models import Club
from tournament.competitions.kinds import get_kind
from tournament.competitions.services import resolve_event, submit_results
from tournament.tours.demo import demo_results
from tournament.tours.models import Rider, Stage

pytestmark = pytest.mark.browser
SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}


@pytest.fixture
def folder() -> Path | None:
    """Where to keep screenshots: only when asked ($PODIUM_SCREENSHOTS), since ten full-HD
    screenshots cost Chromium more than the rest of the test and check nothing."""
    if not os.environ.get("PODIUM_SCREENSHOTS"):
        return None
    path = Path(os.environ["PODIUM_SCREENSHOTS"])
    path.mkdir(parents=True, exist_ok=True)
    return path


def snap(page: Any, folder: Path | None, name: str) -> None:
    if folder is not None:
        page.screenshot(path=str(folder / name))


def resolve_stage(tour: Any, number: int, by: Any) -> None:
    """As the worker does: store results, resolve, commit (the announcement follows)."""
    import random

    kind = get_kind("tour")
    riders = list(Rider.objects.filter(team__tour=tour).order_by("team__order", "role"))
    submit_results(
        kind=kind,
        competition_id=tour.pk,
        number=number,
        rows=demo_results(riders, random.Random(number), "flat"),
        by=by,
    )
    resolve_event(kind=kind, event_id=Stage.objects.get(competition=tour, number=number).pk)


def fits(page: Any) -> bool:
    """Nothing scrolls: neither the page nor the slide on screen."""
    return bool(
        page.evaluate(
            """() => {
              const root = document.documentElement;
              const slide = document.querySelector('.slide.active');
              return root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth
                && slide.scrollHeight <= slide.clientHeight + 1
                && slide.scrollWidth <= slide.clientWidth + 1;
            }"""
        )
    )


def open_screen(browser: Any, size: tuple[int, int], url: str, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-GB")
    page = watch(context.new_page(), errors)
    page.set_default_timeout(20_000)
    page.goto(url)
    page.wait_for_selector("body[data-live-state=live]")
    return page


def test_the_screen_fits_and_updates_live(
    live_server, users, browser, console_errors, folder, settings
):
    settings.PODIUM_LIVE_WSGI_STREAM = True
    settings.PODIUM_LIVE_KEEPALIVE_SECONDS = 1  # a closed page frees its server thread soon
    tour = build_tour(
        club=Club.objects.get(slug="velo-lisboa"),
        by=users["organiser"],
        stages=4,
        resolved=1,
        teams=6,
    )
    url = f"{live_server.url}/tours/{tour.pk}/screen/"
    pages = {name: open_screen(browser, size, url, console_errors) for name, size in SIZES.items()}
    tour_page = watch(browser.new_page(), console_errors)
    tour_page.goto(f"{live_server.url}/tours/{tour.pk}/")
    tour_page.wait_for_function("document.documentElement.dataset.liveState === 'live'")
    for name, page in pages.items():
        assert page.locator("h1").evaluate("h => parseFloat(getComputedStyle(h).fontSize)") >= 36
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(11, 15, 20)"
        for index in range(page.evaluate("Podium.screen.count()")):
            page.evaluate(f"Podium.screen.show({index})")
            slide = page.evaluate("document.body.dataset.slide")
            snap(page, folder, f"screen-{slide}-{name}.png")
            assert fits(page), (name, slide)
        page.evaluate("window.notReloaded = true")

    resolve_stage(tour, 2, users["organiser"])

    for name, page in pages.items():
        page.wait_for_selector("text=Standings after stage 2 of 4")
        assert page.evaluate("window.notReloaded") is True, name  # redrawn in place
        assert page.evaluate("document.body.dataset.liveVersion") == "2"
        page.evaluate("Podium.screen.show(2)")  # the podium of stage 2
        assert page.locator(".slide.active h2").inner_text() == "Podium · Stage 2"
        assert fits(page), name
        snap(page, folder, f"screen-updated-podium-{name}.png")
    tour_page.wait_for_selector("main[data-live-refreshed]")
    assert "Standings after stage 2 of 4" in tour_page.locator("main .lead").inner_text()
    for page in [*pages.values(), tour_page]:
        page.context.close()
    assert console_errors == []
