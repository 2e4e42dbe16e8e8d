"""A club's players: the people behind tour teams and drivers across every game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.clubs.models import Club
from tournament.players.matching import clean_name, match_key


class Player(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="players", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=80)
    #: :func:`tournament.players.matching.match_key` of ``name``; unique per club.
    key = models.CharField(_("match key"), max_length=80, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("user"),
    )

    class Meta:
        ordering = ["club", "key"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="player_key_unique_per_club")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: object) -> None:
        self.name = clean_name(self.name)
        self.key = match_key(self.name)
        super().save(*args, **kwargs)  # type: ignore[arg-type]
