"""Printouts: ``/<collection>/{id}/sheet.pdf`` and ``…/<events>/{n}/card.png`` of every kind."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

from tournament.printouts import views

app_name = "printouts"

urlpatterns: list[URLPattern | URLResolver] = [*views.urlpatterns()]
