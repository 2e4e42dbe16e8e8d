from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "tournament.webhooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        from tournament.webhooks import receivers

        receivers.connect()
