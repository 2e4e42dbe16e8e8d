"""Every registered game's pages, each in the namespace of its API collection.

``tours:tour``, ``championships:race``, ``rallies:stage-results``…: built by
``tournament.web.pages`` from the GameKind registry and each game's declared ``PAGES``, so a new
game's pages need no line here or in ``tournament.urls``.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

from tournament.web import pages

urlpatterns: list[URLPattern | URLResolver] = pages.urlpatterns()
