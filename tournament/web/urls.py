"""Web page addresses: stable and shareable, no language prefix (the language is a cookie).

The site's own pages (home, clubs) in the ``web`` namespace; every game's pages are in
``tournament.web.kind_urls``, built from the GameKind registry.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tournament.web import board, calendar, run, views

app_name = "web"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("clubs/<slug:slug>/", views.club, name="club"),
    # Simulate, simulate the remaining events, resolve again (issue #15 item 5).
    *run.urlpatterns(),
    # A Grand Tour stage entered from what the board shows (issue #15 item 6).
    path("tours/<int:pk>/stages/<int:number>/board/", board.board_entry, name="tour-board"),
    # The club's dated events as an iCalendar feed (issue #18 item 5).
    path("clubs/<slug:slug>/calendar.ics", calendar.club_calendar, name="club-calendar"),
]
