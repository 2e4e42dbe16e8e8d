from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebConfig(AppConfig):
    name = "tournament.web"
    label = "web"
    verbose_name = _("Web pages")

    def ready(self) -> None:
        # The last of Podium's apps (settings.INSTALLED_APPS): every game has registered its
        # kind by now, so the admin records every game shares are registered from the registry.
        from django.contrib import admin

        from tournament.competitions.admin_base import register_kind_admins

        register_kind_admins()
        # The admin carries Podium's name (issue #16), in the reader's language.
        admin.site.site_header = _("Podium administration")
        admin.site.site_title = _("Podium administration")
        admin.site.index_title = _("Podium administration")
