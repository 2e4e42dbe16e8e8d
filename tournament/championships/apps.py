from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipsConfig(AppConfig):
    name = "tournament.championships"
    verbose_name = _("Formula D championships")
