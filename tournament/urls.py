"""URLs: the API under /api/, the admin, the schema and its docs, and the web pages."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournament.clubs.api import ClubViewSet, TokenView
from tournament.clubs.auth import (
    ThrottledAdminAuthenticationForm,
    ThrottledLoginView,
    throttled_admin_login,
)
from tournament.competitions.api import ApiRouter, register_kinds

router = ApiRouter(trailing_slash=True)
router.register("clubs", ClubViewSet, basename="club")
# Every game's API, from the registry of game kinds (each app registers its kind when ready).
register_kinds(router)

# The admin's sign-in page counts failed attempts like /login/ (tournament/clubs/auth.py).
admin.site.login_form = ThrottledAdminAuthenticationForm

urlpatterns = [
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/catalogue/", include("tournament.catalogue.urls")),
    # Live updates: /api/<collection>/<id>/events/ and /<collection>/<id>/screen/ (tournament/live).
    path("", include("tournament.live.urls")),
    # Before the router: tours/import-companion/ would read as the tour "import-companion".
    path("api/", include("tournament.tours.imports.urls")),  # tournament/tours/imports/api.py
    path("api/", include(router.urls)),
    # GET /api/<collection>/{id}/forecast/ of every kind (tournament/forecasts/api.py)
    path("api/", include("tournament.forecasts.urls")),
    # /api/clubs/{slug}/webhooks/ (tournament/webhooks/api.py)
    path("api/", include("tournament.webhooks.urls")),
    # /api/clubs/{slug}/players/ (tournament/players/api.py)
    path("api/", include("tournament.players.urls")),
    # /api/clubs/{slug}/seasons/ (tournament/seasons/api.py)
    path("api/", include("tournament.seasons.urls")),
    # Before the admin's own route: a refused sign-in answers 429 there too (clubs/auth.py).
    path("admin/login/", throttled_admin_login),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the switcher on every page
    path("login/", ThrottledLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Before the web pages: "clubs/new/" would otherwise be read as the club with slug "new".
    path("", include("tournament.clubs.urls")),  # start a club, members, invitations
    path("", include("tournament.players.page_urls")),  # /clubs/<slug>/players/
    path("", include("tournament.tours.imports.page_urls")),  # /clubs/<slug>/import/
    path("", include("tournament.seasons.page_urls")),  # /clubs/<slug>/seasons/
    path("", include("tournament.webhooks.page_urls")),  # /clubs/<slug>/webhooks/
    # /<collection>/<id>/sheet.pdf and …/<events>/<n>/card.png (tournament/printouts).
    path("", include("tournament.printouts.urls")),
    path("", include("tournament.web.urls")),
    # Every game's pages, from the same registry (tournament/web/pages.py).
    path("", include("tournament.web.kind_urls")),
]
