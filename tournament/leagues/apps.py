from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "tournament.leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        from tournament.competitions.kinds import register
        from tournament.leagues.kind import LeagueKind

        register(LeagueKind())
