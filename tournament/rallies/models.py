"""Rallyman: DIRT tables: rallies, drivers, stages, result versions, standings snapshots, and
rally championships (an ordered list of one club's rallies scored with a points table)."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.competitions.models import (
    Competition,
    CompetitionQuerySet,
    Event,
    ResultVersion,
    Snapshot,
    competition_link,
    snapshot_links,
    user_link,
    version_link,
)


def default_points() -> str:
    """RM-47's default points system."""
    return "wrc-2010"


def default_power_stage_points() -> list[int]:
    """RM-48's default power stage points."""
    return [5, 4, 3, 2, 1]


class Rally(Competition):
    class Meta(Competition.Meta):
        verbose_name = _("rally")
        verbose_name_plural = _("rallies")


class Driver(models.Model):
    rally = models.ForeignKey(
        Rally, on_delete=models.CASCADE, related_name="drivers", verbose_name=_("rally")
    )
    # RM-44 and API.md: ties are listed in entry-list order; RM-6: stage 1 starts in it.
    order = models.PositiveSmallIntegerField(_("entry order"))
    name = models.CharField(_("name"), max_length=80)
    #: The club player behind this entry (tournament.players; API.md "player_id").
    club_player = models.ForeignKey(
        "players.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rally_drivers",
        verbose_name=_("club player"),
    )

    class Meta:
        ordering = ["rally", "order"]
        verbose_name = _("driver")
        verbose_name_plural = _("drivers")
        constraints = [
            models.UniqueConstraint(fields=["rally", "order"], name="rally_driver_order_unique"),
            models.UniqueConstraint(fields=["rally", "name"], name="rally_driver_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class RallyStage(Event):
    competition = competition_link(Rally, related_name="stages", verbose_name=_("rally"))
    # A sample-stage name (a JSON string) or a layout document (games/rallyman/layout.py);
    # null without a layout: such a stage is scored from sheets only and cannot be simulated.
    layout = models.JSONField(_("layout"), null=True, blank=True)

    class Meta(Event.Meta):
        verbose_name = _("rally stage")
        verbose_name_plural = _("rally stages")


class RallyStageResultVersion(ResultVersion):
    event = version_link(RallyStage, _("stage"))

    class Meta(ResultVersion.Meta):
        verbose_name = _("rally stage result version")
        verbose_name_plural = _("rally stage result versions")


class RallyStandings(Snapshot):
    competition, event = snapshot_links(
        Rally, RallyStage, competition_name=_("rally"), event_name=_("stage")
    )

    class Meta(Snapshot.Meta):
        verbose_name = _("rally standings snapshot")
        verbose_name_plural = _("rally standings snapshots")


class RallyChampionship(models.Model):
    """RM-47 to RM-51: rallies of one club in championship order, with one points system.

    Not a :class:`Competition`: it has no events, seed or rules of its own; its standings are
    derived on read from the rallies' stored results (docs/decisions-rallies.md).
    """

    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="rally_championships",
        verbose_name=_("club"),
    )
    name = models.CharField(_("name"), max_length=160)
    public = models.BooleanField(_("public"), default=True)
    # RM-47: a preset name (a JSON string) or a list of points.
    points = models.JSONField(_("points"), default=default_points)
    power_stage = models.BooleanField(_("power stage"), default=False)
    power_stage_points = models.JSONField(
        _("power stage points"), default=default_power_stage_points
    )
    drop_worst = models.PositiveSmallIntegerField(_("drop worst"), default=0)
    rallies = models.ManyToManyField(
        Rally,
        through="ChampionshipRally",
        related_name="championships",
        verbose_name=_("rallies"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    created_by = user_link(_("created by"))

    objects = CompetitionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("rally championship")
        verbose_name_plural = _("rally championships")

    def __str__(self) -> str:
        return self.name

    def settings_json(self) -> dict[str, Any]:
        """The settings as ``scoring.rally.parse_championship_settings`` reads them."""
        return {
            "points": self.points,
            "power_stage": self.power_stage,
            "power_stage_points": self.power_stage_points,
            "drop_worst": self.drop_worst,
        }


class ChampionshipRally(models.Model):
    championship = models.ForeignKey(
        RallyChampionship,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("rally championship"),
    )
    rally = models.ForeignKey(
        Rally,
        on_delete=models.PROTECT,
        related_name="championship_entries",
        verbose_name=_("rally"),
    )
    order = models.PositiveSmallIntegerField(_("championship order"))

    class Meta:
        ordering = ["championship", "order"]
        verbose_name = _("championship rally")
        verbose_name_plural = _("championship rallies")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "rally"], name="championship_rally_unique"
            ),
            models.UniqueConstraint(
                fields=["championship", "order"], name="championship_rally_order_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} #{self.order}: {self.rally}"
