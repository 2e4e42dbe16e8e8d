"""API routes of the tour imports under /api/ (included before the router in tournament/urls.py:
``tours/import-companion/`` would otherwise read as the tour with id "import-companion")."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.tours.imports.api import TourImportViewSet

urlpatterns: list[URLPattern] = [
    path(
        "tours/import-companion/",
        TourImportViewSet.as_view({"post": "import_companion"}),
        name="tour-import-companion",
    ),
    path(
        "tours/import-csv/",
        TourImportViewSet.as_view({"post": "import_csv"}),
        name="tour-import-csv",
    ),
    path(
        "tours/import-csv/template.csv",
        TourImportViewSet.as_view({"get": "csv_template"}),
        name="tour-import-csv-template",
    ),
    path(
        "tours/<int:id>/results.csv",
        TourImportViewSet.as_view({"get": "results_csv"}),
        name="tour-results-csv",
    ),
]
