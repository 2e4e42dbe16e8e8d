"""Printout fixtures: one small tour (3 stages, 2 teams, 2 resolved); a cache of the test's own."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.builders import build_tour
from tournament.clubs.models import Club


@pytest.fixture(autouse=True)
def _own_cache(settings: Any) -> None:
    """Sheets and cards are kept in the cache: each test starts with an empty one (a Redis
    kept between runs would otherwise answer with an earlier run's sheet of the same id)."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "p"}
    }
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def small_tour(users: dict[str, Any]) -> Any:
    club = Club.objects.get(slug="velo-lisboa")
    return build_tour(club=club, by=users["organiser"], stages=3, teams=2, resolved=2)


@pytest.fixture
def secret_tour(users: dict[str, Any]) -> Any:
    club = Club.objects.get(slug="velo-lisboa")
    return build_tour(
        club=club, by=users["organiser"], stages=2, teams=2, resolved=1, public=False, name="Secret"
    )
