"""Stored forecasts: one per competition and ``after`` value, keyed by the standings version.

A :class:`Forecast` row holds what ``GET …/forecast/`` answers for the standings after event
``after`` (0: from the start): the title odds with each entrant's exact status, reason and
scenario, and the main classification's rank distribution. ``version`` is the competition's
``standings_version`` it was asked for; a newer change of those standings moves the row to the
new version (``computing``), and a task of an older version then stores nothing. Chunks of a
large run (:class:`ForecastChunk`) wait here until the last one merges them.
:class:`StageTemplates` keeps the simulator's runs over a course, made once per course.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class ForecastStatus(models.TextChoices):
    COMPUTING = "computing", _("computing")
    READY = "ready", _("ready")


class Forecast(models.Model):
    #: The game kind's label (``tour``, ``championship``, ``league``, ``rally``) or
    #: ``rally-championship``.
    kind = models.CharField(_("kind"), max_length=40)
    competition_id = models.PositiveBigIntegerField(_("competition"))
    #: The last event of the standings it forecasts from (0: before any event).
    after = models.PositiveSmallIntegerField(_("after event"), default=0)
    version = models.PositiveIntegerField(_("standings version"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=ForecastStatus.choices, default=ForecastStatus.COMPUTING
    )
    simulations = models.PositiveIntegerField(_("simulations"), default=0)
    seed = models.BigIntegerField(_("seed"), default=0)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    #: ``{title: [{<entrant key>: id, "name", "probability", "status", "reason": {code,
    #: params} | null, "needs_help", "scenario"}]}``, highest probability first.
    titles = models.JSONField(_("titles"), default=dict)
    #: ``{main: [{<entrant key>: id, "name", "distribution": [p1, p2, …]}]}``.
    positions = models.JSONField(_("positions"), default=dict)
    #: The exact statuses of the version being computed (``EntrantStatus.to_json()`` per
    #: title): what the chunks' merge needs.
    exact = models.JSONField(_("exact statuses"), default=dict)
    #: How many chunks the run was split into (1: computed in one task).
    chunks = models.PositiveSmallIntegerField(_("chunks"), default=1)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("forecast")
        verbose_name_plural = _("forecasts")
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "competition_id", "after"], name="forecast_one_per_after"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.competition_id} after {self.after} (v{self.version})"


class ForecastChunk(models.Model):
    """The counts of one chunk of a forecast's simulations (``ChunkResult`` as JSON)."""

    forecast = models.ForeignKey(Forecast, on_delete=models.CASCADE, related_name="parts")
    version = models.PositiveIntegerField(_("standings version"))
    index = models.PositiveSmallIntegerField(_("index"))
    counts = models.JSONField(_("counts"))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["forecast", "version", "index"], name="forecast_chunk_once"
            )
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of {self.forecast_id} (v{self.version})"


class StageTemplates(models.Model):
    """Simulator runs over one course for one field of teams: each run the stage's lines by
    finishing place, ``[seconds, sprint points, mountain points, exhaustion]``."""

    key = models.CharField(_("key"), max_length=64, unique=True)
    course = models.CharField(_("course"), max_length=200)
    runs = models.JSONField(_("runs"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    def __str__(self) -> str:
        return f"{len(self.runs)} runs over {self.course[:40]}"
