"""API routes under /api/ (included from tournament/urls.py)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.players.api import HallOfFameViewSet, PlayerViewSet

player_list = PlayerViewSet.as_view({"get": "list", "post": "create"})
player_detail = PlayerViewSet.as_view({"get": "retrieve", "patch": "partial_update"})
player_merge = PlayerViewSet.as_view({"post": "merge"})
player_versus = PlayerViewSet.as_view({"get": "head_to_head"})
hall_of_fame = HallOfFameViewSet.as_view({"get": "retrieve"})

urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/players/", player_list, name="club-players"),
    path("clubs/<slug:slug>/players/<int:pk>/", player_detail, name="club-player"),
    path("clubs/<slug:slug>/players/<int:pk>/merge/", player_merge, name="club-player-merge"),
    path(
        "clubs/<slug:slug>/players/<int:pk>/head-to-head/<int:other>/",
        player_versus,
        name="club-player-head-to-head",
    ),
    path("clubs/<slug:slug>/hall-of-fame/", hall_of_fame, name="club-hall-of-fame"),
]
