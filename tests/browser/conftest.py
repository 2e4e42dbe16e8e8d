"""Real-browser tests: Playwright drives Debian's Chromium (no browser download).

Playwright's sync API runs an event loop in this thread, so Django's async-safety check would
refuse the ORM calls the tests make between page actions; they are plain synchronous calls.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="package")
def browser(django_db_setup: Any, live_server: Any) -> Iterator[Any]:
    # Package scope: Playwright's event loop lives only while this package's tests run; the
    # databases and the live server are set up before it starts.
    if not CHROMIUM.exists():
        pytest.skip("Chromium not installed at /usr/bin/chromium: browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def console_errors() -> list[str]:
    """Filled by :func:`watch` with every console error and uncaught exception of a page."""
    return []


def watch(page: Any, errors: list[str]) -> Any:
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


@pytest.fixture(scope="package", autouse=True)
def _allow_sync_orm_beside_playwright() -> Iterator[None]:
    # Only while this package's tests run: a process-wide setting would leak into other tests
    # (and into the subprocesses they start, such as the deploy check).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
