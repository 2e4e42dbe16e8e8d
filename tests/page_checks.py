"""Checks the page tests of every points competition make alike (tests/<kind>/test_pages.py):
a page client per role, a page's query count, private pages hidden outside the club."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext


def browser(users: dict[str, Any], name: str | None) -> Client:
    """A page client logged in as ``users[name]`` (None: an anonymous visitor)."""
    client = Client()
    if name is not None:
        client.force_login(users[name])
    return client


def queries(client: Client, url: str) -> int:
    """The number of queries a 200 of ``url`` costs."""
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def assert_private_outside_the_club(
    users: dict[str, Any], who: str | None, pages: tuple[str, ...], form: str
) -> None:
    """A private competition's ``pages`` are 404 to ``who`` (anonymous or another club's
    member) and 200 to the club's scorekeeper; its results ``form`` asks an anonymous visitor
    to log in first (nothing learnt about private ids), then answers 404."""
    client = browser(users, who)
    for url in pages:
        assert client.get(url).status_code == 404, url
    assert client.get(form).status_code == (302 if who is None else 404)
    assert browser(users, "scorekeeper").get(pages[0]).status_code == 200
