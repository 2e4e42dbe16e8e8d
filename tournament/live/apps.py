from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    name = "tournament.live"
    verbose_name = _("Live updates")

    def ready(self) -> None:
        from tournament.live import receivers

        receivers.connect()
