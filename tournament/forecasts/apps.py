from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ForecastsConfig(AppConfig):
    name = "tournament.forecasts"
    verbose_name = _("Forecasts")

    def ready(self) -> None:
        from tournament.forecasts import receivers

        receivers.connect()
