"""The import page (namespace ``imports``), included from tournament/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.tours.imports import pages

app_name = "imports"

urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/import/", pages.import_page, name="page"),
]
