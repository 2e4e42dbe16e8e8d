"""Replays in a real browser, at 360x740 and 1280x800: every round drawn where the log says, Play
runs to the finish, keyboard controls, no console errors; screenshots to $PODIUM_SCREENSHOTS."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tournament.tours.models import Stage, StageResultVersion
from tournament.web.replay_board import BLOCK, CELL

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
# Where each token is drawn: its square and lane, the block (ten squares) it sits in, its x.
TOKENS_JS = """() => [...document.querySelectorAll('g.rd')].map(t => [
  Number(t.dataset.r), Number(t.dataset.sq), Number(t.dataset.lane),
  getComputedStyle(t).display !== 'none', Number(t.parentNode.dataset.first),
  t.transform.baseVal.consolidate()?.matrix.e ?? -1])"""
# Every round through the slider (as a user dragging it): the round shown and its tokens.
ROUNDS_JS = (
    """(last) => { const seek = document.querySelector('[data-act=seek]'), out = [];
  for (let n = 0; n <= last; n++) {
    seek.value = String(n); seek.dispatchEvent(new Event('input', {bubbles: true}));
    out.push([document.querySelector('figure[data-replay]').dataset.round, (TOKENS)()]);
  } return out; }"""
).replace("TOKENS", TOKENS_JS)


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
AXE_RUN = """async () => (await axe.run(document.querySelector('figure[data-replay]'),
  {resultTypes: ['violations']})).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => [v.id, v.nodes.slice(0, 3).map(n => n.target.join(' '))])"""


def _axe(page: Any) -> list[Any]:
    """Serious and critical axe-core findings in the replay (none when axe is not installed)."""
    if not AXE.exists():
        return []
    page.add_script_tag(path=str(AXE))
    found: list[Any] = page.evaluate(AXE_RUN)
    return found


def _folder() -> Path:
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-shots-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {folder}")
    return folder


def _expected(replay: dict[str, Any]) -> list[list[int]]:
    """Per round (0: the grid), each grid rider's square from the log (to + slip), 0 once gone."""
    log = replay["log"]
    col = {name: i for i, name in enumerate(log["columns"])}
    order = [rider for rider, _square, _lane in log["grid"]]
    out = [[square for _rider, square, _lane in log["grid"]]]
    for entry in log["rounds"]:
        now = {r[col["rider"]]: r[col["to"]] + r[col["slip"]] for r in entry["riders"]}
        out.append([now.get(rider, 0) for rider in order])
    return out


def _check_round(page: Any, expected: list[int], number: int, drawn: Any = None) -> None:
    if drawn is None:
        drawn = page.evaluate(TOKENS_JS)
        assert page.locator("figure[data-replay]").get_attribute("data-round") == str(number)
    for index, square, lane, shown, first, x in drawn:
        assert square == expected[index], (number, index)
        assert shown == bool(square), (number, index)
        if square:
            assert first <= square < first + BLOCK and 1 <= lane <= 3, (number, index)
            assert x == ((square - 1) % BLOCK) * CELL + CELL / 2, (number, index)


@pytest.fixture
def simulated_stage(clients: Any, tour: dict[str, Any]) -> tuple[str, list[list[int]]]:
    for number in (1, 2):  # stage 2 climbs, descends and has a token stack
        response = clients["scorekeeper"].post(f"/api/tours/{tour['id']}/stages/{number}/simulate/")
        assert response.status_code == 202
    stage = Stage.objects.get(competition_id=tour["id"], number=2)
    replay = StageResultVersion.objects.get(event=stage, number=stage.version).replay
    assert replay is not None
    return f"/tours/{tour['id']}/stages/2/", _expected(replay)


def test_the_board_replay_plays_to_the_finish(
    live_server: Any, browser: Any, simulated_stage: Any
) -> None:
    path, expected = simulated_stage
    folder, last = _folder(), len(expected) - 1
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, locale="en-GB")
        errors: list[str] = []
        page = watch(context.new_page(), errors)
        page.set_default_timeout(15_000)
        assert page.goto(live_server.url + path).status == 200
        figure = page.locator("figure[data-replay=board]")
        figure.evaluate("f => f.dataset.speed = '10'")  # fast play for the test
        _check_round(page, expected[0], 0)
        # Keyboard: Step forward and back from the keyboard, every round through the slider.
        page.locator("[data-act=forward]").focus()
        page.keyboard.press("Enter")
        _check_round(page, expected[1], 1)
        page.locator("[data-act=back]").focus()
        page.keyboard.press("Space")
        _check_round(page, expected[0], 0)
        for number, (shown, drawn) in enumerate(page.evaluate(ROUNDS_JS, last)):
            assert shown == str(number)
            _check_round(page, expected[number], number, drawn)
        seek = page.locator("[data-act=seek]")
        assert "Round" in page.locator(".replay-round").inner_text()
        page.screenshot(path=str(folder / f"replay-board-end-{size}.png"), full_page=True)
        # Play from the start runs to the finish and stops there.
        seek.fill("0")
        play = page.locator("[data-act=play]")
        play.click()
        page.wait_for_function(
            f"document.querySelector('figure[data-replay]').dataset.round == '{last}'"
        )
        page.wait_for_function(
            "document.querySelector('[data-act=play]').getAttribute('aria-pressed') == 'false'"
        )
        _check_round(page, expected[last], last)
        assert page.locator(".replay-finished li").count() == 6
        if size == "phone":
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], width
        seek.fill(str(last // 2))
        figure.screenshot(path=str(folder / f"replay-board-{size}.png"))
        assert _axe(page) == []
        assert errors == []
        context.close()


CARS_JS = """() => [...document.querySelectorAll('g.car')].map(c => [
  c.dataset.d, c.querySelector('use.tok').getAttribute('x'), c.getAttribute('class')])"""


@pytest.fixture
def progress_pages(clients: Any) -> dict[str, tuple[str, int]]:
    from tests.championships.helpers import create as create_championship
    from tests.rallies.helpers import create_rally

    champ, rally = create_championship(clients["organiser"]), create_rally(clients["organiser"])
    out = {}
    for name, api, page in (
        (
            "race",
            f"/api/championships/{champ['id']}/races/1",
            f"/championships/{champ['id']}/races/1/",
        ),
        (
            "rally-stage",
            f"/api/rallies/{rally['id']}/stages/1",
            f"/rallies/{rally['id']}/stages/1/",
        ),
    ):
        assert clients["scorekeeper"].post(f"{api}/simulate/").status_code == 202
        out[name] = (page, clients["anonymous"].get(f"{api}/replay/").json()["rounds"])
    return out


def test_progress_replays_play_to_the_finish(
    live_server: Any, browser: Any, progress_pages: Any
) -> None:
    folder = _folder()
    for size, viewport in SIZES.items():
        context = browser.new_context(viewport=viewport, locale="en-GB")
        errors: list[str] = []
        page = watch(context.new_page(), errors)
        page.set_default_timeout(15_000)
        for name, (path, turns) in progress_pages.items():
            assert page.goto(live_server.url + path).status == 200
            figure = page.locator("figure[data-replay=progress]")
            figure.evaluate("f => f.dataset.speed = '5'")
            data = figure.evaluate("f => JSON.parse(f.querySelector('script').textContent)")
            page.locator("[data-act=play]").click()
            page.wait_for_function(
                f"document.querySelector('figure[data-replay]').dataset.round == '{turns}'"
            )
            last = data["rounds"][-1]
            for i, (d, x, cls) in enumerate(page.evaluate(CARS_JS)):
                assert float(d) == last["at"][i] and x == f"{last['at'][i]}%", (name, i)
                assert last["st"][i] in cls.split() or not last["st"][i], (name, i)
            page.locator("[data-act=seek]").fill(str(turns // 2))
            figure.screenshot(path=str(folder / f"replay-{name}-{size}.png"))
            assert _axe(page) == [], name
            if size == "phone":
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert errors == []
        context.close()
