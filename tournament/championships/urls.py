"""Public pages and scorekeeper forms of this app (stable addresses, no language prefix)."""

from __future__ import annotations

from typing import Any

from django.urls import path

from tournament.championships import views

app_name = "championships"

urlpatterns: list[Any] = [
    path("championships/<int:pk>/", views.championship, name="championship"),
    path("championships/<int:pk>/races/<int:number>/", views.race, name="race"),
    path(
        "championships/<int:pk>/races/<int:number>/results/",
        views.race_results,
        name="race-results",
    ),
]
