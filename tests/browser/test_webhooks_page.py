"""The club's webhooks page in Chromium, on a phone (360x740) and a desktop (1280x800): an
organiser adds a webhook for a local receiver, sends a test message (delivered, its attempt
listed), sees a refused private address on its field, and deletes the webhook. Screenshots go to
``$PODIUM_SCREENSHOTS`` when set; the phone page must not scroll sideways."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import watch
from tests.conftest import PASSWORD
from tests.webhooks.receiver import receiver

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def _login(page: Any, base: str, url: str) -> None:
    page.goto(base + url)
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.login button[type=submit]")
    page.wait_for_url(base + url)


def _snap(page: Any, folder: Path, size: str, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"], name


def test_webhooks_page_on_a_phone_and_a_desktop(
    live_server: Any,
    users: Any,
    browser: Any,
    console_errors: list[str],
    tmp_path: Path,
    settings: Any,
) -> None:
    folder = Path(os.environ.get("PODIUM_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    base, url = live_server.url, "/clubs/velo-lisboa/webhooks/"
    for size in SIZES:
        settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = False
        context = browser.new_context(
            viewport=SIZES[size], locale="en-GB", is_mobile=size == "phone"
        )
        page = watch(context.new_page(), console_errors)
        page.set_default_timeout(30_000)
        _login(page, base, url)
        page.fill("#id_url", "http://10.0.0.7/hook")
        page.fill("#id_secret", "s3cret")
        page.click("form.webhook-form button[value=add]")
        assert "private" in page.locator(".field.invalid .field-error").inner_text()
        _snap(page, folder, size, "webhooks-refused")
        settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = True
        with receiver() as got:
            page.fill("#id_url", got.url)
            page.fill("#id_secret", "s3cret")
            page.check("input[value='competition.finished']")
            page.select_option("#id_format", "discord")
            page.click("form.webhook-form button[value=add]")
            page.wait_for_url(base + url)
            page.click("button[value=test]")
            page.wait_for_url(base + url)
            assert json.loads(got.received[0].body)["content"].startswith("Test message")
        row = page.locator(".delivery").first
        assert "webhook.test" in row.inner_text() and "(200)" in row.inner_text()
        assert "HTTP 200" in row.locator(".attempts").inner_text()
        _snap(page, folder, size, "webhooks-list")
        page.click("button[value=delete]")
        page.wait_for_url(base + url)
        assert page.locator(".webhook").count() == 0
        context.close()
    # the refused form answers 400 on purpose (as the API): the only "errors" allowed
    assert [e for e in console_errors if "status of 400" not in e] == []
