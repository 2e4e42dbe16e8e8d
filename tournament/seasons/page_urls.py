"""Season pages (namespace ``seasons``), included from tournament/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.seasons import pages

app_name = "seasons"

urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/seasons/new/", pages.new_season, name="new"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", pages.season, name="season"),
]
