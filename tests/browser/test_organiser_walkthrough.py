"""The whole first evening of a new club in a real browser (issue #15 tests), on a 360×740 phone
and a 1280×800 desktop: an organiser starts a club, invites a scorekeeper who signs up through
the link, creates a 5-stage, 3-team Grand Tour from the catalogue with a Rest Day and a token
stack; the scorekeeper enters stage 1 from the board, the organiser simulates stage 2, and the
standings show both. The form fields touched are counted and printed (``-s``) with the time."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.conftest import PASSWORD
from tournament.clubs.models import Membership, Role
from tournament.competitions.models import Source, Status
from tournament.tours.models import Tour

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
COURSES = ["1-2-4", "3-2-4", "5-2-4", "2-2-4", "8-2-4"]  # catalogue keys "<id>-<players>"
#: Stage 1 as the table showed it, per rider in entry order: (round, pack front, place).
BOARD = [(1, 5, 1), (1, 5, 2), (1, 2, None), (2, 4, 1), (2, 4, 2), (3, 1, None)]


class Walk:
    """A page with a count of the form fields a person touches (fills, picks, ticks)."""

    def __init__(self, page: Any, folder: Path, size: str) -> None:
        self.page, self.folder, self.size, self.touched = page, folder, size, 0

    def fill(self, selector: str, value: str) -> None:
        self.page.fill(selector, value)
        self.touched += 1

    def pick(self, selector: str, value: str) -> None:
        self.page.select_option(selector, value)
        self.touched += 1

    def tick(self, selector: str) -> None:
        self.page.check(selector)
        self.touched += 1

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.folder / f"walk-{name}-{self.size}.png"), full_page=True)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES[self.size]["width"], (name, width)


def _start_club(walk: Walk, base: str, slug: str) -> str:
    """The organiser signs in, starts the club and makes a scorekeeper's invitation link."""
    page = walk.page
    page.goto(base + "/clubs/new/")
    walk.fill("#id_username", "organiser")
    walk.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(base + "/clubs/new/")
    walk.fill("#id_name", f"Clube {slug}")
    walk.fill("#id_slug", slug)
    page.click("form.club-form button[type=submit]")
    page.wait_for_url(f"{base}/clubs/{slug}/")
    page.click(f"a[href='/clubs/{slug}/members/']")
    walk.pick("form.club-form select[name=role] >> nth=1", "scorekeeper")
    page.click("button[value=invite]")
    page.wait_for_selector(".invitations input")
    link: str = page.input_value(".invitations input")
    return link


def _sign_up(walk: Walk, link: str, username: str) -> None:
    page = walk.page
    page.goto(link)
    walk.fill("#id_username", username)
    walk.fill("#id_password1", "a-long-pass-9x")
    walk.fill("#id_password2", "a-long-pass-9x")
    page.click("form.club-form button[type=submit]")
    page.wait_for_selector("h1")


def _new_tour(walk: Walk, base: str, slug: str, name: str) -> Tour:
    """Five catalogue stages, a stack by a click on stage 1's profile, a Rest Day, 3 teams."""
    page = walk.page
    page.goto(f"{base}/clubs/{slug}/tours/new/")
    walk.fill("#id_name", name)
    page.click("button[data-add-row=stages]")
    page.click("button[data-add-row=stages]")
    for index, key in enumerate(COURSES):
        walk.pick(f"#id_stages-{index}-pick", key)
    page.locator("[data-stage-row]").nth(0).locator('rect[data-square="30"]').click()
    walk.touched += 1  # the stack, placed by a click on the drawn profile
    walk.pick("#id_stages-0-stacks-0-side", "mountain")
    walk.tick("#id_stages-1-rest_after")
    for index, player in enumerate(["Ana", "Rui", "Gil"]):
        walk.fill(f"#id_teams-{index}-player", player)
    walk.shot("tour-new")
    page.click(".setup-submit button[type=submit]")
    page.wait_for_url(f"{base}/tours/*/")
    return Tour.objects.get(name=name)


def _board_entry(walk: Walk, base: str, tour: Tour) -> None:
    """The scorekeeper copies stage 1 off the table; the page computes and submits the times."""
    page = walk.page
    page.goto(f"{base}/tours/{tour.pk}/stages/1/")
    page.click("a.button[href$='/stages/1/board/']")
    page.wait_for_url(f"{base}/tours/{tour.pk}/stages/1/board/")
    for index, (rnd, front, place) in enumerate(BOARD):
        walk.pick(f"#id_form-{index}-round", str(rnd))
        walk.pick(f"#id_form-{index}-front", str(front))
        if place is not None:
            walk.pick(f"#id_form-{index}-place", str(place))
    # board.js asks the server for the times as the boxes change: no reload.
    page.wait_for_function("document.querySelectorAll('#board-preview [data-time]').length == 6")
    times = page.eval_on_selector_all(
        "#board-preview [data-time]", "cells => cells.map(c => c.dataset.time)"
    )
    assert times[0] == times[1] and int(times[-1]) >= 120  # round 3: two Time tokens
    walk.shot("board")
    page.click("button[value=submit]")
    page.wait_for_url(f"{base}/tours/{tour.pk}/stages/1/")


def _simulate_stage_2(walk: Walk, base: str, tour: Tour) -> None:
    page = walk.page
    page.goto(f"{base}/tours/{tour.pk}/stages/2/")
    page.click(f"form[action='/tours/{tour.pk}/stages/2/simulate/'] button")
    page.wait_for_url(f"{base}/tours/{tour.pk}/stages/2/")
    page.wait_for_selector(".status--resolved")
    walk.shot("simulated")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_first_evening_of_a_new_club(
    live_server: Any, users: Any, browser: Any, console_errors: list[str], size: str
) -> None:
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tempfile.mkdtemp(prefix="podium-walk-"))
    base, slug = live_server.url, f"walk-{size}"
    started = time.monotonic()
    options = {"viewport": SIZES[size], "locale": "en-GB", "is_mobile": size == "phone"}
    organiser_context = browser.new_context(**options)
    organiser = Walk(watch(organiser_context.new_page(), console_errors), folder, size)
    organiser.page.set_default_timeout(30_000)
    link = _start_club(organiser, base, slug)
    scorekeeper_context = browser.new_context(**options)
    scorekeeper = Walk(watch(scorekeeper_context.new_page(), console_errors), folder, size)
    scorekeeper.page.set_default_timeout(30_000)
    _sign_up(scorekeeper, link, f"sam-{size}")
    assert Membership.objects.get(user__username=f"sam-{size}").role == Role.SCOREKEEPER
    tour = _new_tour(organiser, base, slug, f"Volta {size}")
    assert tour.stages.count() == 5 and tour.teams.count() == 3
    assert [s.number for s in tour.stages.all() if s.rest_day_after] == [2]
    _board_entry(scorekeeper, base, tour)
    _simulate_stage_2(organiser, base, tour)
    stages = list(tour.stages.order_by("number")[:2])
    assert [(s.status, s.source) for s in stages] == [
        (Status.RESOLVED, Source.SUBMITTED),
        (Status.RESOLVED, Source.SIMULATED),
    ]
    # The standings show both stages.
    organiser.page.goto(f"{base}/tours/{tour.pk}/")
    lead = organiser.page.inner_text("p.lead")
    assert "Standings after stage 2 of 5" in lead
    organiser.shot("standings")
    elapsed = time.monotonic() - started
    touched = organiser.touched + scorekeeper.touched
    print(
        f"\n[{size}] walk-through {elapsed:.1f} s; form fields touched: organiser "
        f"{organiser.touched}, scorekeeper {scorekeeper.touched}, total {touched}"
    )
    assert console_errors == []
    organiser_context.close()
    scorekeeper_context.close()
