"""The catalogue's API addresses (included under ``api/catalogue/`` by tournament/urls.py)."""

from __future__ import annotations

from django.urls import path

from tournament.catalogue.views import CatalogueView, CoursePreviewView

urlpatterns = [
    path("", CatalogueView.as_view(), name="api-catalogue"),
    path("courses/preview/", CoursePreviewView.as_view(), name="api-course-preview"),
]
