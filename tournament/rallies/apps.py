from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RalliesConfig(AppConfig):
    name = "tournament.rallies"
    verbose_name = _("Rallyman rallies")

    def ready(self) -> None:
        from tournament.competitions.kinds import register
        from tournament.rallies.kind import RallyKind

        register(RallyKind())
