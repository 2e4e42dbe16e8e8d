"""Public pages and scorekeeper forms of this app."""

from __future__ import annotations

from typing import Any

from django.urls import path

from tournament.rallies import views

app_name = "rallies"

urlpatterns: list[Any] = [
    path("rallies/<int:pk>/", views.rally, name="rally"),
    path(
        "rallies/<int:pk>/stages/<int:number>/results/",
        views.stage_results,
        name="stage-results",
    ),
    path(
        "rallies/<int:pk>/stages/<int:number>/preview/",
        views.log_preview,
        name="log-preview",
    ),
    path("rally-championships/<int:pk>/", views.championship, name="championship"),
]
