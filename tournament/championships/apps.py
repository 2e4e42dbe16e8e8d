from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipsConfig(AppConfig):
    name = "tournament.championships"
    verbose_name = _("Formula D championships")

    def ready(self) -> None:
        from tournament.championships.kind import FormulaDKind
        from tournament.competitions.kinds import register

        register(FormulaDKind())
