"""Abstract tables shared by tours, championships and rallies.

A *competition* (tour, championship, rally) has numbered *events* (stages, races). Each accepted
submission or simulation of an event is kept as a *result version*; the event carries a copy of the
current rows for cheap reads. Every resolved event has a *snapshot*: the standings after it, as the
JSON the API serves, computed by the pure scoring engine.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def random_seed() -> int:
    """A fresh seed for a competition created without one (fits a signed 64-bit column)."""
    return secrets.randbelow(2**31)


class Status(models.TextChoices):
    PLANNED = "planned", _("planned")
    SUBMITTED = "submitted", _("submitted")
    RESOLVED = "resolved", _("resolved")
    FAILED = "failed", _("failed")


class Source(models.TextChoices):
    SUBMITTED = "submitted", _("submitted")
    SIMULATED = "simulated", _("simulated")


class CompetitionQuerySet(models.QuerySet[Any]):
    def visible_to(self, user: Any) -> CompetitionQuerySet:
        """Public competitions, plus private ones of the user's clubs (all for superusers)."""
        if getattr(user, "is_superuser", False):
            return self.all()
        if not user.is_authenticated:
            return self.filter(public=True)
        return self.filter(Q(public=True) | Q(club__memberships__user=user)).distinct()

    def administered_by(self, user: Any) -> CompetitionQuerySet:
        """Competitions of the clubs the user organises (admin querysets)."""
        if getattr(user, "is_superuser", False):
            return self.all()
        return self.filter(club__memberships__user=user, club__memberships__role="organiser")


class Competition(models.Model):
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, related_name="%(class)ss", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=160)
    public = models.BooleanField(_("public"), default=True)
    seed = models.BigIntegerField(_("seed"), default=random_seed)
    rules = models.JSONField(_("rules"), default=dict, blank=True)
    # The last event of the longest run of resolved events from the first (API: after_stage).
    standings_through = models.PositiveSmallIntegerField(
        _("standings through"), null=True, blank=True, editable=False
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    objects = CompetitionQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """A stage or race. Concrete models add ``competition = ForeignKey(...)``."""

    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=160, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    source = models.CharField(_("source"), max_length=10, choices=Source.choices, blank=True)
    error = models.TextField(_("error"), blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    # The current result rows (a copy of the latest version's), normalised by the game.
    results = models.JSONField(_("results"), default=list, blank=True)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["competition", "number"]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}" if self.name else str(self.number)

    @property
    def has_results(self) -> bool:
        return self.version > 0

    @property
    def source_or_none(self) -> str | None:
        return self.source or None


class ResultVersion(models.Model):
    """One accepted submission or simulation of an event. Concrete models add ``event``."""

    number = models.PositiveIntegerField(_("version"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    rows = models.JSONField(_("rows"), default=list)
    # The simulator's log (simulated versions only); large, so loaded only for replays.
    replay = models.JSONField(_("replay"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        abstract = True
        ordering = ["event", "number"]

    def __str__(self) -> str:
        return f"{self.event} v{self.number}"


class Snapshot(models.Model):
    """The standings after one resolved event (the JSON the API serves)."""

    number = models.PositiveSmallIntegerField(_("after"))
    data = models.JSONField(_("standings"))
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        abstract = True
        ordering = ["competition", "number"]

    def __str__(self) -> str:
        return f"{self.competition} after {self.number}"


class IdempotencyKey(models.Model):
    """The first answer to a result submission sent with an ``Idempotency-Key`` header.

    Keys are scoped to the user and the endpoint and kept 24 hours (API.md). They live in the
    database, in the submission's own transaction, so a retried POST can never store twice.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    endpoint = models.CharField(_("endpoint"), max_length=200)
    key = models.CharField(_("key"), max_length=255)
    request_hash = models.CharField(_("request hash"), max_length=64)
    status_code = models.PositiveSmallIntegerField(_("status code"), null=True)
    response = models.JSONField(_("response"), null=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "endpoint", "key"], name="idempotency_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.endpoint} {self.key}"


class AuditAction(models.TextChoices):
    CREATED = "created", _("competition created")
    SETUP_CHANGED = "setup_changed", _("set-up changed")
    RESULTS_SUBMITTED = "results_submitted", _("results submitted")
    RESULTS_CORRECTED = "results_corrected", _("results corrected")
    RESULTS_SIMULATED = "results_simulated", _("results simulated")
    MEMBER_ADDED = "member_added", _("member added")
    IMPORTED = "imported", _("competition imported")


class AuditEntry(models.Model):
    """Who changed what, when: every write to a club's competitions and members."""

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="audit_entries", verbose_name=_("club")
    )
    # The competition written to ("tour", "championship", "rally"; blank for club-level writes).
    competition_kind = models.CharField(_("competition kind"), max_length=20, blank=True)
    competition_id = models.PositiveBigIntegerField(_("competition id"), null=True, blank=True)
    event_number = models.PositiveSmallIntegerField(_("stage or race"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    action = models.CharField(_("action"), max_length=24, choices=AuditAction.choices)
    summary = models.CharField(_("summary"), max_length=300)
    changes = models.JSONField(_("changes"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [
            models.Index(
                fields=["competition_kind", "competition_id", "-created_at"],
                name="audit_competition_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.summary}"
