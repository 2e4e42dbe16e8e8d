"""Checks the results tests of every kind of points competition make alike: a refused results
body is a 400 that names what is wrong, and stores nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Model

from tournament.competitions.models import AuditEntry


def assert_refused(response: Any, path: Sequence[Any]) -> None:
    """A 400 whose body holds, at ``path`` (keys and indices), one message or more, each a
    non-empty string (a list of them, or a mapping of fields to lists)."""
    assert response.status_code == 400, response.content
    body: Any = response.json()
    for key in path:
        body = body[key]
    messages = body if isinstance(body, list) else [m for ms in body.values() for m in ms]
    assert messages and all(isinstance(m, str) and m for m in messages), response.json()


def assert_nothing_stored(event: Any, versions: type[Model], audit_before: int) -> None:
    """``event`` is still planned at version 0 without results, with no result version and no
    audit entry written since there were ``audit_before``."""
    event.refresh_from_db()
    assert (event.version, event.status, event.results) == (0, "planned", [])
    assert not versions.objects.filter(event=event).exists()
    assert AuditEntry.objects.count() == audit_before
