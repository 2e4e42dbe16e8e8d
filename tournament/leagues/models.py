"""League tables: leagues, drivers, races, result versions and standings snapshots.

A league is scored by ``scoring.points`` (FD-71, FD-73 to FD-77) with its own settings; it has
no rules object and no seed of its own (the shared ``rules`` and ``seed`` columns stay unused).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.competitions.models import (
    Competition,
    Event,
    ResultVersion,
    Snapshot,
    competition_link,
    snapshot_links,
    version_link,
)


class League(Competition):
    game = models.CharField(_("game"), max_length=80, blank=True)
    # The effective points table; ``points_preset`` keeps the name when one was chosen.
    points = models.JSONField(_("points"), default=list)
    points_preset = models.CharField(_("points preset"), max_length=40, blank=True)
    drop_worst = models.PositiveSmallIntegerField(_("drop worst"), default=0)
    points_finishers_only = models.BooleanField(_("points for finishers only"), default=True)
    bonus_points = models.BooleanField(_("bonus points"), default=False)

    class Meta(Competition.Meta):
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    @property
    def preset_or_none(self) -> str | None:
        return self.points_preset or None


class Driver(models.Model):
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="drivers", verbose_name=_("league")
    )
    # FD-76 (3): the driver-list order breaks the last ties.
    order = models.PositiveSmallIntegerField(_("entry order"))
    name = models.CharField(_("name"), max_length=80)
    #: The club player behind this entry (tournament.players; API.md "player_id").
    club_player = models.ForeignKey(
        "players.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="league_drivers",
        verbose_name=_("club player"),
    )
    team = models.CharField(_("team"), max_length=80, blank=True)

    class Meta:
        ordering = ["league", "order"]
        verbose_name = _("driver")
        verbose_name_plural = _("drivers")
        constraints = [
            models.UniqueConstraint(fields=["league", "order"], name="league_driver_order_unique"),
            models.UniqueConstraint(fields=["league", "name"], name="league_driver_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def team_or_none(self) -> str | None:
        return self.team or None  # API.md: a driver without a team has team null


class Race(Event):
    competition = competition_link(League, related_name="races", verbose_name=_("league"))
    # Ids of the drivers entered, in entry order (by default every league driver).
    drivers = models.JSONField(_("drivers entered"), default=list)

    class Meta(Event.Meta):
        verbose_name = _("race")
        verbose_name_plural = _("races")


class RaceResultVersion(ResultVersion):
    event = version_link(Race, _("race"))

    class Meta(ResultVersion.Meta):
        verbose_name = _("race result version")
        verbose_name_plural = _("race result versions")


class LeagueStandings(Snapshot):
    competition, event = snapshot_links(
        League, Race, competition_name=_("league"), event_name=_("race")
    )

    class Meta(Snapshot.Meta):
        verbose_name = _("league standings snapshot")
        verbose_name_plural = _("league standings snapshots")
