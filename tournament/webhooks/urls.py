"""The webhook endpoints, under ``api/`` (``tournament/urls.py`` includes them)."""

from __future__ import annotations

from tournament.webhooks.api import build_router

urlpatterns = build_router().urls
