"""Formula D tables: championships, drivers, races, result versions and standings snapshots."""

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


class RuleSet(models.TextChoices):
    BASIC = "basic", _("basic")
    ADVANCED = "advanced", _("advanced")


class Championship(Competition):
    rule_set = models.CharField(
        _("rule set"), max_length=10, choices=RuleSet.choices, default=RuleSet.BASIC
    )
    # FD-70: the effective points table; ``points_preset`` keeps the name when one was chosen.
    points = models.JSONField(_("points"), default=list)
    points_preset = models.CharField(_("points preset"), max_length=40, blank=True)

    class Meta(Competition.Meta):
        verbose_name = _("Formula D championship")
        verbose_name_plural = _("Formula D championships")


class Driver(models.Model):
    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="drivers",
        verbose_name=_("championship"),
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
        related_name="championship_drivers",
        verbose_name=_("club player"),
    )
    team = models.CharField(_("team"), max_length=80, blank=True)
    # FD-59: the driver's own spread of WP over the six zones (advanced, own_car_build).
    build = models.JSONField(_("car build"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "order"]
        verbose_name = _("driver")
        verbose_name_plural = _("drivers")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "order"], name="fd_driver_order_unique"
            ),
            models.UniqueConstraint(fields=["championship", "name"], name="fd_driver_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Race(Event):
    competition = competition_link(
        Championship, related_name="races", verbose_name=_("championship")
    )
    circuit = models.CharField(_("circuit"), max_length=60)
    laps = models.PositiveSmallIntegerField(_("laps"), default=1)
    # FD-78: ids of the drivers entered, in entry order (FD-44 assigns pit boxes by it).
    drivers = models.JSONField(_("drivers entered"), default=list)

    class Meta(Event.Meta):
        verbose_name = _("race")
        verbose_name_plural = _("races")


class RaceResultVersion(ResultVersion):
    event = version_link(Race, _("race"))

    class Meta(ResultVersion.Meta):
        verbose_name = _("race result version")
        verbose_name_plural = _("race result versions")


class RaceStandings(Snapshot):
    competition, event = snapshot_links(
        Championship, Race, competition_name=_("championship"), event_name=_("race")
    )

    class Meta(Snapshot.Meta):
        verbose_name = _("championship standings snapshot")
        verbose_name_plural = _("championship standings snapshots")
