from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "tournament.players"
    verbose_name = _("Players")
