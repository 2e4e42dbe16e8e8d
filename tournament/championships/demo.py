"""Demo data of this app for ``manage.py demo``."""

from __future__ import annotations

from typing import Any


def build(*, club: Any, organiser: Any, scorekeeper: Any) -> list[str]:
    """Create the app's demo competitions (idempotent); lines to print."""
    return []
