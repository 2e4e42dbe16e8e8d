"""API routes under /api/ (included from tournament/urls.py)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.seasons.api import SeasonViewSet

season_list = SeasonViewSet.as_view({"get": "list", "post": "create"})
season_detail = SeasonViewSet.as_view({"get": "retrieve", "patch": "partial_update"})
season_standings = SeasonViewSet.as_view({"get": "standings"})

urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/seasons/", season_list, name="club-seasons"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", season_detail, name="club-season"),
    path(
        "clubs/<slug:slug>/seasons/<int:pk>/standings/",
        season_standings,
        name="club-season-standings",
    ),
]
