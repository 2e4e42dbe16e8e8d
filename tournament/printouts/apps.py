from __future__ import annotations

from django.apps import AppConfig


class PrintoutsConfig(AppConfig):
    name = "tournament.printouts"
    label = "printouts"
    verbose_name = "Printouts"
