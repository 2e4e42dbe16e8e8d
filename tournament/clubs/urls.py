"""Club pages (namespace ``clubs``): start a club, its members, invitation links."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tournament.clubs import views

app_name = "clubs"

urlpatterns: list[URLPattern | URLResolver] = [
    path("clubs/new/", views.new_club, name="new"),
    path("clubs/<slug:slug>/members/", views.members, name="members"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
]
