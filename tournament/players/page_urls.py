"""Player pages (namespace ``players``), included from tournament/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.players import pages

app_name = "players"

urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/players/", pages.players, name="list"),
    path("clubs/<slug:slug>/players/<int:pk>/", pages.player, name="player"),
    path("clubs/<slug:slug>/hall-of-fame/", pages.hall, name="hall-of-fame"),
]
