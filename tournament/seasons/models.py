"""A club season: an ordered list of the club's competitions (any game) and a points table."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.clubs.models import Club
from tournament.competitions.models import user_link


class Kind(models.TextChoices):
    """The games a season may hold (their registry labels, as the API spells them)."""

    TOUR = "tour", _("Grand Tour")
    CHAMPIONSHIP = "championship", _("Formula D championship")
    LEAGUE = "league", _("league")
    RALLY = "rally", _("rally")


class Season(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=80)
    #: Points for final ranks 1, 2, ... (non-negative integers; nothing past the end).
    points = models.JSONField(_("points"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    created_by = user_link(_("created by"))

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_per_club")
        ]

    def __str__(self) -> str:
        return self.name


class SeasonCompetition(models.Model):
    """One competition of a season. No foreign key: the four games keep four tables, so the
    row names its ``kind`` and id (a deleted competition simply stops counting)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="items", verbose_name=_("season")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    competition_id = models.PositiveIntegerField(_("competition"))
    order = models.PositiveSmallIntegerField(_("order"))

    class Meta:
        ordering = ["season", "order"]
        verbose_name = _("season competition")
        verbose_name_plural = _("season competitions")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "kind", "competition_id"], name="season_competition_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.competition_id}"
