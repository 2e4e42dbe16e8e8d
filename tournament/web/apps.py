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
        from tournament.competitions.admin_base import register_kind_admins

        register_kind_admins()
