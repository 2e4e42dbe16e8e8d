"""API routes under /api/ (included from tournament/urls.py)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.players.api import PlayerViewSet

player_list = PlayerViewSet.as_view({"get": "list", "post": "create"})
player_detail = PlayerViewSet.as_view({"get": "retrieve", "patch": "partial_update"})
player_merge = PlayerViewSet.as_view({"post": "merge"})

urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/players/", player_list, name="club-players"),
    path("clubs/<slug:slug>/players/<int:pk>/", player_detail, name="club-player"),
    path("clubs/<slug:slug>/players/<int:pk>/merge/", player_merge, name="club-player-merge"),
]
