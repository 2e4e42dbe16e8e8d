"""The club's webhooks page (namespace ``webhooks``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournament.webhooks import views

app_name = "webhooks"

urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/webhooks/", views.webhooks, name="page"),
]
