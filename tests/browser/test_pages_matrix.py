"""Every public page of every kind, and the results forms, at 360×740 and 1280×800 (issue #16).

One browser context per size and one page load per page, checking on each: the page itself never
scrolls sideways (tables may scroll inside their own box), chart text is at least 11 CSS px, no
two chart labels overlap (bounding boxes), no console error, and axe-core finds no serious or
critical violation (``node_modules/axe-core``, installed by ``npm ci``; without it those checks
are skipped, and the test says so). A screenshot of each page at both sizes goes to
$PODIUM_SCREENSHOTS, or to a temporary folder the test prints.
"""

from __future__ import annotations

import os
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.browser.conftest import watch
from tests.web.builders import build_tour
from tournament.clubs.models import Club

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
AXE = Path(settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"
MIN_CHART_TEXT_PX = 11

#: Measured in the page: the page's own sideways scroll, chart text sizes and overlapping chart
#: labels (every visible, non-empty <text> of a chart's drawn layout, pairwise).
MEASURE = """() => {
  const out = {scroll: document.documentElement.scrollWidth - window.innerWidth,
               small: [], overlaps: [], charts: 0};
  for (const svg of document.querySelectorAll("figure.chart svg")) {
    if (!svg.getClientRects().length) continue;  // the layout not chosen at this width
    out.charts += 1;
    const boxes = [];
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim() || !t.getClientRects().length) continue;
      const size = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
      if (size < 11 - 0.01) out.small.push([t.textContent, Math.round(size * 10) / 10]);
      const r = t.getBoundingClientRect();
      boxes.push([t.textContent, r.left, r.top, r.right, r.bottom]);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const w = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
      const h = Math.min(a[4], b[4]) - Math.max(a[2], b[2]);
      if (w > 0.5 && h > 0.5) out.overlaps.push([svg.id || svg.className.baseVal, a[0], b[0]]);
    }
  }
  return out;
}"""

AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"], runOnly: {type: "tag",
    values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, impact: v.impact,
                  nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}));
}"""


def _folder() -> Path:
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-shots-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {folder}")
    return folder


def _season_pages(clients: Any) -> dict[str, str]:
    """A club season of two finished leagues (Ana and Rui level: the tie-break mark) and one
    still running (its column marked in progress)."""
    from tests.seasons.helpers import create_season, item, league

    played = [
        league(clients, "Spring League", ["Ana", "Rui", "Eva"]),
        league(clients, "Summer League", ["Rui", "Ana", "Eva"]),
        league(clients, "Autumn League", ["Eva", "Rui"], races=2, played=1),
    ]
    items = [item("league", detail) for detail in played]
    made = create_season(clients["organiser"], name="2026", points=[10, 8, 6], competitions=items)
    assert made.status_code == 201, made.content
    return {"season": f"/clubs/velo-lisboa/seasons/{made.json()['id']}/"}


def _tour_pages(users: Any) -> dict[str, str]:
    club = Club.objects.get(slug="velo-lisboa")
    tour = build_tour(club=club, by=users["organiser"], stages=6, teams=4, resolved=4, name="Volta")
    team = tour.teams.order_by("order").first()
    assert team is not None
    base = f"/tours/{tour.pk}"
    return {
        "tour": f"{base}/",
        "tour-stage": f"{base}/stages/2/",
        "team": f"{base}/teams/{team.pk}/",
        "embed": f"/embed{base}/",
        "tour-form": f"{base}/stages/5/results/",
        "tour-forecast": f"{base}/forecast/",
    }


def _championship_pages(clients: Any) -> dict[str, str]:
    from tests.championships.helpers import create, race_rows, submit

    champ = create(clients["organiser"], rules={"drop_worst": 1})
    for number, order in ((1, ["Ana", "Rui", "Eva"]), (2, ["Eva", "Ana"]), (3, ["Rui", "Eva"])):
        out = ("Ana",) if number == 3 else ()
        rows = race_rows(champ, number, [*order, *out], out=out)
        assert submit(clients["scorekeeper"], champ, number, rows).status_code == 202
    base = f"/championships/{champ['id']}"
    return {
        "championship": f"{base}/",
        "race": f"{base}/races/2/",
        "race-form": f"{base}/races/3/results/",
        "championship-forecast": f"{base}/forecast/",
    }


def _league_pages(clients: Any) -> dict[str, str]:
    from tests.leagues.helpers import create, rows, submit

    league = create(clients["organiser"], drop_worst=1)
    for number, order, bonus in ((1, ["Rui", "Ana", "Eva"], {}), (2, ["Eva", "Ana"], {"Ana": 1})):
        response = submit(clients["scorekeeper"], league, number, rows(league, order, **bonus))
        assert response.status_code == 202
    base = f"/leagues/{league['id']}"
    return {
        "league": f"{base}/",
        "league-race": f"{base}/races/1/",
        "league-form": f"{base}/races/3/results/",
        "league-forecast": f"{base}/forecast/",
    }


def _rally_pages(clients: Any) -> dict[str, str]:
    from tests.rallies.helpers import create_rally, sheet, submit

    rally = create_rally(clients["organiser"])
    for number, times in ((1, (300, 310, 320)), (2, (295, 290, 330))):
        response = submit(clients["scorekeeper"], rally["id"], number, sheet(rally, *times))
        assert response.status_code == 202
    body = {"club": "velo-lisboa", "name": "Taça 2026", "rallies": [rally["id"]]}
    cup = clients["organiser"].post("/api/rally-championships/", body, format="json").json()
    base = f"/rallies/{rally['id']}"
    return {
        "rally": f"{base}/",
        "rally-stage": f"{base}/stages/2/",
        "rally-cup": f"/rally-championships/{cup['id']}/",
        "rally-form": f"{base}/stages/3/results/",
        "rally-forecast": f"{base}/forecast/",
        "rally-cup-forecast": f"/rally-championships/{cup['id']}/forecast/",
    }


def _player_pages() -> dict[str, str]:
    """Ana's page against Rui (every game's pages above link them) and the hall of fame."""
    from tournament.players.models import Player

    ana = Player.objects.get(club__slug="velo-lisboa", key="ana")
    rui = Player.objects.get(club__slug="velo-lisboa", key="rui")
    return {
        "player": f"/clubs/velo-lisboa/players/{ana.pk}/?vs={rui.pk}",
        "hall-of-fame": "/clubs/velo-lisboa/hall-of-fame/",
    }


@pytest.fixture
def matrix(users: Any, clients: Any, settings: Any) -> dict[str, str]:
    # Forecasts on (few simulations, as tests/forecasts/conftest.py): the competition pages'
    # summaries and the forecast pages show real odds, tables and charts.
    settings.PODIUM_FORECASTS = True
    settings.PODIUM_FORECAST_SIMULATIONS = settings.PODIUM_FORECAST_CHUNK = 300
    settings.PODIUM_FORECAST_TEMPLATE_RUNS = 4
    return {
        "home": "/",
        "club": "/clubs/velo-lisboa/",
        "club-import": "/clubs/velo-lisboa/import/",  # organisers' upload page (the session's)
        **_season_pages(clients),
        **_tour_pages(users),
        **_championship_pages(clients),
        **_league_pages(clients),
        **_rally_pages(clients),
        **_player_pages(),
    }


def test_every_page_at_phone_and_desktop_width(live_server, browser, users, matrix) -> None:
    folder = _folder()
    if not AXE.exists():
        warnings.warn(f"axe-core checks skipped: {AXE} missing (run `npm ci`)", stacklevel=1)
    problems: list[Any] = []
    spent = dict.fromkeys(("load", "screenshot", "checks"), 0.0)
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, locale="en-GB")
        context.add_cookies(_session_cookie(live_server, users["organiser"]))
        if AXE.exists():
            context.add_init_script(path=str(AXE))
        errors: list[str] = []
        page = watch(context.new_page(), errors)
        for name, path in matrix.items():
            started = time.perf_counter()
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, (name, path)
            loaded = time.perf_counter()
            page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
            shot = time.perf_counter()
            problems += _check(page, f"{name}@{size}", errors)
            spent["load"] += loaded - started
            spent["screenshot"] += shot - loaded
            spent["checks"] += time.perf_counter() - shot
            if size == "phone" and name in KEYBOARD:
                problems += KEYBOARD[name](page)
            errors.clear()
        context.close()
    print("seconds spent:", ", ".join(f"{k} {v:.1f}" for k, v in spent.items()))
    for problem in problems:
        print(*problem)
    assert problems == []


def _check(page: Any, where: str, errors: list[str]) -> list[Any]:
    found: list[Any] = [(where, "console", e) for e in errors]
    measured = page.evaluate(MEASURE)
    if measured["scroll"] > 0:
        found.append((where, "page scrolls sideways by px", measured["scroll"]))
    found += [(where, "chart text under 11 px", t) for t in measured["small"]]
    found += [(where, "chart labels overlap", o) for o in measured["overlaps"]]
    if AXE.exists():
        found += [(where, "axe", v) for v in page.evaluate(AXE_RUN)]
    return found


def _chart_table_by_keyboard(page: Any) -> list[Any]:
    """A chart's data table opens from the keyboard (Tab to its summary, Enter)."""
    summary = page.locator("figure.chart summary").first
    summary.focus()
    page.keyboard.press("Enter")
    opened = summary.evaluate("s => s.parentElement.open")
    return [] if opened else [("tour@phone", "keyboard", "chart data table did not open")]


def _scroll_box_by_keyboard(page: Any) -> list[Any]:
    """A table box that scrolls sideways is in the tab order, named, and scrolls with arrows."""
    box = page.locator(".table-wrap.scrolls").first
    if not box.count():
        return [("team@phone", "keyboard", "no scrolling table box to try")]
    named = box.get_attribute("tabindex") == "0" and bool(box.get_attribute("aria-label"))
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("b => b.scrollLeft > 0", arg=box.element_handle(), timeout=3000)
    return [] if named else [("team@phone", "keyboard", "scroll box not focusable or unnamed")]


KEYBOARD = {"tour": _chart_table_by_keyboard, "team": _scroll_box_by_keyboard}


def _session_cookie(live_server: Any, user: Any) -> list[dict[str, Any]]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    return [{"name": "sessionid", "value": cookie.value, "url": live_server.url}]
