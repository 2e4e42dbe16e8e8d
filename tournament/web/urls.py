"""Web page addresses: stable and shareable, no language prefix (the language is a cookie).

Championships (``/championships/<id>/``) and rallies (``/rallies/<id>/``) will follow the tours'
pattern with the same components.
"""

from __future__ import annotations

from django.urls import path

from tournament.web import tour_views, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("tours/<int:pk>/", tour_views.tour, name="tour"),
    path("tours/<int:pk>/standings/<slug:slug>.csv", tour_views.tour_csv, name="tour-csv"),
    path("tours/<int:pk>/stages/<int:number>/", tour_views.stage, name="stage"),
    path("tours/<int:pk>/stages/<int:number>/live/", tour_views.stage_live, name="stage-live"),
    path(
        "tours/<int:pk>/stages/<int:number>/results/",
        tour_views.stage_results,
        name="stage-results",
    ),
    path("tours/<int:pk>/teams/<int:team_id>/", tour_views.team, name="team"),
    path("embed/tours/<int:pk>/", tour_views.embed_tour, name="embed-tour"),
]
