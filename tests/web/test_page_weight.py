"""Page weight (issue #16): the bench's tour page (bench/bench_pages.py: 21 stages, 6 teams, all
resolved, forecast stored) stays under 120 KB uncompressed, HTML and the CSS and JS it links;
the full forecast has its own page. Sizes only: the server time is measured by the bench."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from tests.web.builders import build_tour
from tournament.clubs.models import Club
from tournament.forecasts import service
from tournament.forecasts.models import Forecast

pytestmark = pytest.mark.django_db
BUDGET = 120 * 1024
ASSETS = r'<(?:link rel="stylesheet" href|script src)="/static/([^"]+)"'


def linked_bytes(html: str) -> int:
    """Bytes of the CSS and JS files the page links (as served, uncompressed)."""
    return sum(Path(str(finders.find(name))).stat().st_size for name in re.findall(ASSETS, html))


def test_the_21_stage_tour_page_stays_under_120_kb(client, users, settings):
    club = Club.objects.get(slug="velo-lisboa")
    tour = build_tour(club=club, by=users["organiser"], stages=21, teams=6, resolved=21)
    # The finished tour's forecast, computed by the service (with few simulations, as in
    # tests/forecasts/conftest.py); the earlier ones, which only the forecast page's charts
    # read, are left planned: computing them all would cost the suite seconds.
    settings.PODIUM_FORECAST_SIMULATIONS = settings.PODIUM_FORECAST_CHUNK = 300
    version = tour.standings_version
    assert service.plan("tour", tour.pk, version, 21, 21)[0] == 21
    service.compute("tour", tour.pk, 21, version)
    assert Forecast.objects.get(kind="tour", competition_id=tour.pk, after=21).status == "ready"
    html = client.get(f"/tours/{tour.pk}/").content.decode()
    assert "Standings after stage 21 of 21" in html
    # the forecast is summarised (one row per title) and its page linked, not drawn here
    summary = html[html.index('<section class="forecast"') :]
    summary = summary[: summary.index("</section>")]
    assert summary.count('<tbody><tr><th scope="rowgroup"') == 5 and "<svg" not in summary
    assert f'href="/tours/{tour.pk}/forecast/"' in summary
    page = len(html.encode()) + linked_bytes(html)
    assert linked_bytes(html) > 10_000  # podium.css, forecast.css and the scripts are counted
    assert page < BUDGET, f"{page} B"
    # the full forecast is on its own page: every title's odds and the final positions
    full = client.get(f"/tours/{tour.pk}/forecast/").content.decode()
    assert full.count('class="standings compact fc-odds"') == 5 and "fc-heat" in full
