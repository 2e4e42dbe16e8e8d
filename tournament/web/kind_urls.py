"""Every registered game's pages, each in the namespace of its API collection.

``tours:tour``, ``championships:race``, ``rallies:stage-results``…: built by
``tournament.web.pages`` from the GameKind registry and each game's declared ``PAGES``, so a new
game's pages need no line here or in ``tournament.urls``. The full forecast page of every kind
(``/<collection>/<id>/forecast/``) is in the ``forecast`` namespace, named by the kind's label
(``forecast:tour``, ``forecast:rally-championship``).
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from tournament.forecasts.pages import urlpatterns as forecast_pages
from tournament.web import pages

urlpatterns: list[URLPattern | URLResolver] = [
    *pages.urlpatterns(),
    path("", include((forecast_pages(), "forecast"), namespace="forecast")),
]
