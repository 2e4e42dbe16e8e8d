"""API endpoints (API.md); `register` adds them to the project's router."""

from __future__ import annotations

from typing import Any


def register(router: Any) -> None:
    """Register this app's viewsets on the API router."""
