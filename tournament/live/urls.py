"""Live updates: the event streams (``/api/<collection>/{id}/events/``) and the big screens
(``/<collection>/{id}/screen/``)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

from tournament.live import api, screen

app_name = "live"

urlpatterns: list[URLPattern | URLResolver] = [*api.urlpatterns(), *screen.urlpatterns()]
