"""Where made sheets and cards are kept: the cache (Redis in production, shared by the web
processes and the workers; in-process memory without ``REDIS_URL``), keyed by the competition,
its standings version (a sheet) or the event's version (a card), and the language."""

from __future__ import annotations

from typing import Final

from django.conf import settings
from django.core.cache import cache

#: How long a made sheet or card is kept; a new version gets a new key, the old one expires.
KEEP_SECONDS: Final = 7 * 24 * 3600
#: A sheet being made: a second request within this time does not queue it again.
PENDING_SECONDS: Final = 120


def sheet_key(label: str, pk: int, version: int, language: str) -> str:
    return f"podium:sheet:{label}:{pk}:{version}:{language}"


def pending_key(label: str, pk: int, version: int, language: str) -> str:
    return f"podium:sheet-pending:{label}:{pk}:{version}:{language}"


def card_key(label: str, pk: int, number: int, version: str, language: str) -> str:
    return f"podium:card:{label}:{pk}:{number}:{version}:{language}"


def make_sheet(label: str, pk: int, language: str) -> int:
    """Render and keep the sheet; the standings version it shows."""
    from tournament.printouts.sheets import render_pdf

    pdf, version = render_pdf(label, pk, language)
    cache.set(sheet_key(label, pk, version, language), pdf, KEEP_SECONDS)
    cache.delete(pending_key(label, pk, version, language))
    return version


def wait_seconds() -> float:
    return float(getattr(settings, "PODIUM_SHEET_WAIT_SECONDS", 8.0))
