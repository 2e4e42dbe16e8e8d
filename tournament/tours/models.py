"""Grand Tour tables: tours, teams, riders, stages, result versions and standings snapshots."""

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


class Tour(Competition):
    # GT-1.3: team ids in first-pick order of the Specialist draft, drawn from the seed.
    specialist_order = models.JSONField(_("specialist pick order"), default=list, blank=True)

    class Meta(Competition.Meta):
        verbose_name = _("Grand Tour")
        verbose_name_plural = _("Grand Tours")


class Team(models.Model):
    tour = models.ForeignKey(
        Tour, on_delete=models.CASCADE, related_name="teams", verbose_name=_("tour")
    )
    order = models.PositiveSmallIntegerField(_("entry order"))
    name = models.CharField(_("name"), max_length=80)
    player = models.CharField(_("player"), max_length=80, blank=True)
    #: The club player behind this entry (tournament.players; API.md "player_id").
    club_player = models.ForeignKey(
        "players.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tour_teams",
        verbose_name=_("club player"),
    )

    class Meta:
        ordering = ["tour", "order"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tour", "order"], name="team_order_unique"),
            models.UniqueConstraint(fields=["tour", "name"], name="team_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class RiderRole(models.TextChoices):
    ROULEUR = "rouleur", _("Rouleur")
    SPRINTEUR = "sprinteur", _("Sprinteur")


class Rider(models.Model):
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="riders", verbose_name=_("team")
    )
    name = models.CharField(_("name"), max_length=80)
    role = models.CharField(_("role"), max_length=10, choices=RiderRole.choices)
    specialist = models.CharField(_("specialist"), max_length=20, blank=True)

    class Meta:
        ordering = ["team", "role"]  # rouleur before sprinteur: entry order within a team
        verbose_name = _("rider")
        verbose_name_plural = _("riders")
        constraints = [
            models.UniqueConstraint(fields=["team", "role"], name="rider_role_unique_per_team"),
        ]

    def __str__(self) -> str:
        return self.name


class Finish(models.TextChoices):
    FLAT = "flat", _("flat")
    ASCENT = "ascent", _("ascent")


class Stage(Event):
    competition = competition_link(Tour, related_name="stages", verbose_name=_("tour"))
    course = models.CharField(_("course"), max_length=120, blank=True)
    finish = models.CharField(
        _("finish"), max_length=6, choices=Finish.choices, default=Finish.FLAT
    )
    stacks = models.JSONField(_("token stacks"), default=list, blank=True)
    rest_day_after = models.BooleanField(_("rest day after"), default=False)

    class Meta(Event.Meta):
        verbose_name = _("stage")
        verbose_name_plural = _("stages")


class StageResultVersion(ResultVersion):
    event = version_link(Stage, _("stage"))

    class Meta(ResultVersion.Meta):
        verbose_name = _("stage result version")
        verbose_name_plural = _("stage result versions")


class StageStandings(Snapshot):
    competition, event = snapshot_links(
        Tour, Stage, competition_name=_("tour"), event_name=_("stage")
    )

    class Meta(Snapshot.Meta):
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
