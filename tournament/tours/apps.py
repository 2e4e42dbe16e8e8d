from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ToursConfig(AppConfig):
    name = "tournament.tours"
    verbose_name = _("Grand Tours")

    def ready(self) -> None:
        from tournament.competitions.kinds import register
        from tournament.tours.kind import GrandTourKind

        register(GrandTourKind())
