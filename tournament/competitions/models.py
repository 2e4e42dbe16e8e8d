"""Abstract tables shared by tours, championships and rallies.

A *competition* (tour, championship, rally) has numbered *events* (stages, races). Each accepted
submission or simulation of an event is kept as a *result version*; the event carries a copy of the
current rows for cheap reads. Every resolved event has a *snapshot*: the standings after it, as the
JSON the API serves, computed by the pure scoring engine.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime
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


def unique_per_class(*fields: str, suffix: str) -> models.UniqueConstraint:
    """A unique constraint of an abstract model, named after each concrete model using it."""
    return models.UniqueConstraint(fields=list(fields), name=f"%(app_label)s_%(class)s_{suffix}")


def user_link(verbose_name: Any) -> models.ForeignKey[Any, Any]:
    """Who did something (a creator, an author): kept as null when the account is deleted."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=verbose_name,
    )


class CompetitionQuerySet(models.QuerySet[Any]):
    """The one definition of who may read a competition (the standings SQL is tested against it)."""

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
    # Increases with every change of the standings (a resolution, a failure, a correction that
    # withdraws snapshots): live updates and forecasts are keyed by it (API.md, "Live updates").
    standings_version = models.PositiveIntegerField(
        _("standings version"), default=0, editable=False
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    created_by = user_link(_("created by"))

    objects = CompetitionQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    def set_standings_through(self, through: int | None) -> None:
        """Record the last event of the resolved run from the first (a no-op when unchanged)."""
        if self.standings_through != through:
            self.standings_through = through
            type(self)._default_manager.filter(pk=self.pk).update(standings_through=through)

    def bump_standings_version(self) -> int:
        """Add 1 to ``standings_version`` in the row (inside the caller's transaction)."""
        manager = type(self)._default_manager
        manager.filter(pk=self.pk).update(standings_version=models.F("standings_version") + 1)
        self.standings_version = manager.values_list("standings_version", flat=True).get(pk=self.pk)
        return self.standings_version


class EventQuerySet(models.QuerySet[Any]):
    def claim(self, event_id: int, now: datetime) -> bool:
        """Move a ``submitted`` event to ``resolved`` if it still is one (the worker's claim).

        A conditional update: of two workers resolving the same event, exactly one claims it.
        """
        claimed = self.filter(pk=event_id, status=Status.SUBMITTED).update(
            status=Status.RESOLVED, resolved_at=now, error=""
        )
        return claimed == 1

    def in_order_of(self, competition_id: int) -> EventQuerySet:
        """The competition's events by number."""
        return self.filter(competition_id=competition_id).order_by("number")

    def with_results(self, competition: Competition) -> EventQuerySet:
        """The competition's events with stored results (its set-up is then locked)."""
        return self.filter(competition=competition, version__gt=0)

    def pending(self, older_than: datetime) -> EventQuerySet:
        """Events left ``submitted`` since before ``older_than`` (for the sweeper)."""
        return self.filter(status=Status.SUBMITTED, submitted_at__lt=older_than)

    def requeueable(self, event_ids: Iterable[int]) -> EventQuerySet:
        """Of ``event_ids``, the ``failed`` or ``submitted`` events that have results."""
        return self.filter(
            pk__in=event_ids, status__in=[Status.FAILED, Status.SUBMITTED], version__gt=0
        )

    # --- requested simulations (tasks.simulate_event_task; docs/reliability.md) ---
    def simulations_due(self, requested_before: datetime, now: datetime) -> EventQuerySet:
        """Simulations asked for before ``requested_before`` that no worker is playing now
        (never queued, lost with the broker, or their worker died): the sweeper's work."""
        return self.filter(simulation_requested_at__lt=requested_before).filter(
            Q(simulation_lease_until__isnull=True) | Q(simulation_lease_until__lt=now)
        )

    def take_simulation_lease(self, event_id: int, now: datetime, until: datetime) -> bool:
        """Take the requested simulation of ``event_id`` for one worker until ``until``.

        A conditional update: of two workers (a redelivered message, a sweep), only the one
        that finds no live lease plays it. False when there is no request or a live lease.
        """
        taken = (
            self.filter(pk=event_id, simulation_requested_at__isnull=False)
            .filter(Q(simulation_lease_until__isnull=True) | Q(simulation_lease_until__lt=now))
            .update(simulation_lease_until=until)
        )
        return taken == 1

    def renew_simulation_lease(self, event_id: int, lease: datetime, until: datetime) -> bool:
        """Extend our lease (still ``lease``) to ``until``; False if it is no longer ours."""
        renewed = self.filter(pk=event_id, simulation_lease_until=lease).update(
            simulation_lease_until=until
        )
        return renewed == 1

    def finish_simulation(self, event_id: int, requested_at: datetime, lease: datetime) -> None:
        """The request played (stored, superseded or moot): forget it, unless it was asked for
        again meanwhile; then only our lease ends, and the sweeper plays the new request."""
        done = self.filter(pk=event_id, simulation_requested_at=requested_at).update(
            simulation_requested_at=None,
            simulation_requested_by=None,
            simulation_version=None,
            simulation_lease_until=None,
        )
        if not done:
            self.release_simulation_lease(event_id, lease)

    def release_simulation_lease(self, event_id: int, lease: datetime) -> None:
        """Give up our lease (if still ours): the request waits for the sweeper."""
        self.filter(pk=event_id, simulation_lease_until=lease).update(simulation_lease_until=None)


class Event(models.Model):
    """A stage or race. Concrete models add ``competition = ForeignKey(...)``.

    Status changes go through the methods below, each one conditional update or save, so the
    workflow in ``services`` never writes the columns by hand.
    """

    # Declared by every concrete model (a foreign key to its competition model).
    competition: Competition
    competition_id: int

    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=160, blank=True)
    # When the event is (or was) played; not set-up, so organisers change it at any time.
    date = models.DateTimeField(_("date"), null=True, blank=True)
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
    # A simulation asked for and not played yet is a stored fact, like a submission: whatever
    # happens to its message (a broker outage, a worker killed), the sweeper queues it again.
    # The worker playing it holds a lease it renews; a lease left to expire means its worker
    # died. ``simulation_version`` is the event's version when it was asked for: a delivery
    # that finds another version stores nothing (exactly once).
    simulation_requested_at = models.DateTimeField(
        _("simulation requested at"), null=True, blank=True, editable=False
    )
    simulation_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
        verbose_name=_("simulation requested by"),
    )
    simulation_version = models.PositiveIntegerField(
        _("simulation requested at version"), null=True, blank=True, editable=False
    )
    simulation_lease_until = models.DateTimeField(
        _("simulation leased until"), null=True, blank=True, editable=False
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["competition", "number"]
        constraints = [unique_per_class("competition", "number", suffix="number_unique")]
        indexes = [
            models.Index(fields=["status", "submitted_at"], name="%(app_label)s_%(class)s_pending")
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}" if self.name else str(self.number)

    def _write(self, **fields: Any) -> None:
        """Set ``fields`` on the row and on this instance (one UPDATE, no other column)."""
        type(self)._default_manager.filter(pk=self.pk).update(**fields)
        for name, value in fields.items():
            setattr(self, name, value)

    def mark_submitted(self, rows: list[dict[str, Any]], *, source: str, now: datetime) -> None:
        """Store a new version of the results: ``submitted``, waiting for its resolution."""
        self.version += 1
        self.results = rows
        self.status = Status.SUBMITTED
        self.source = source
        self.error = ""
        self.submitted_at = now
        self.save(update_fields=["version", "results", "status", "source", "error", "submitted_at"])

    def mark_resolved(self, now: datetime) -> None:
        self._write(status=Status.RESOLVED, error="", resolved_at=now)

    def mark_failed(self, message: str) -> None:
        """``failed`` with the message an organiser reads (later events wait for a fix)."""
        self._write(status=Status.FAILED, error=message)

    def mark_waiting(self) -> None:
        """Back to ``submitted``: its results wait for an earlier event's correction."""
        self._write(status=Status.SUBMITTED, error="")

    def reopen(self) -> bool:
        """A ``failed`` event back to ``submitted`` for the worker's claim; False if it was not."""
        reopened = (
            type(self)
            ._default_manager.filter(pk=self.pk, status=Status.FAILED)
            .update(status=Status.SUBMITTED, error="")
        )
        if reopened:
            self.status, self.error = Status.SUBMITTED, ""
        return bool(reopened)

    def request_simulation(self, *, by: Any, now: datetime) -> None:
        """Store that a simulation of this event was asked for, at its current version.

        Asked again while one is pending: the newer request replaces it (a running worker's
        lease is kept, and the version guard makes the second play store nothing).
        """
        self._write(
            simulation_requested_at=now,
            simulation_requested_by=by if getattr(by, "is_authenticated", False) else None,
            simulation_version=self.version,
        )

    def record_engine_failure(self, message: str) -> None:
        """The simulator could not play the event: an event without results becomes ``failed``;
        stored results stay as they are (only the message is shown)."""
        if self.version == 0:
            self._write(status=Status.FAILED, error=message)
        else:
            self._write(error=message)

    @property
    def has_results(self) -> bool:
        return self.version > 0

    @property
    def source_or_none(self) -> str | None:
        return self.source or None


class ResultVersionQuerySet(models.QuerySet[Any]):
    def current(self, event: Event) -> ResultVersionQuerySet:
        """The version the event's results are a copy of."""
        return self.filter(event=event, number=event.version)

    def of_competition(self, competition: Competition) -> ResultVersionQuerySet:
        return self.filter(event__competition=competition)


class ResultVersion(models.Model):
    """One accepted submission or simulation of an event. Concrete models add ``event``."""

    event: Event  # declared by every concrete model (a foreign key to its event model)

    number = models.PositiveIntegerField(_("version"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    rows = models.JSONField(_("rows"), default=list)
    # The simulator's log (simulated versions only); large, so loaded only for replays.
    replay = models.JSONField(_("replay"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = user_link(_("created by"))

    objects = ResultVersionQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["event", "number"]
        constraints = [unique_per_class("event", "number", suffix="unique")]

    def __str__(self) -> str:
        return f"{self.event} v{self.number}"

    @classmethod
    def record(
        cls, event: Event, *, source: str, rows: list[dict[str, Any]], replay: Any, by: Any
    ) -> ResultVersion:
        """Store the event's current results as its version ``event.version``."""
        version = cls(number=event.version, source=source, rows=rows, replay=replay, created_by=by)
        version.event = event
        version.save()
        return version


class SnapshotQuerySet(models.QuerySet[Any]):
    def of(self, competition: Competition) -> SnapshotQuerySet:
        return self.filter(competition=competition)


class Snapshot(models.Model):
    """The standings after one resolved event (the JSON the API serves).

    Concrete models add ``competition`` (a foreign key) and ``event`` (one to one).
    """

    competition: Competition
    event: Event

    number = models.PositiveSmallIntegerField(_("after"))
    data = models.JSONField(_("standings"))
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    objects = SnapshotQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["competition", "number"]
        constraints = [unique_per_class("competition", "number", suffix="unique")]

    def __str__(self) -> str:
        return f"{self.competition} after {self.number}"

    @classmethod
    def after(cls, competition: Competition, event: Event, data: dict[str, Any]) -> Snapshot:
        """The (unsaved) standings ``data`` of ``competition`` after ``event``."""
        snapshot = cls(number=event.number, data=data)
        snapshot.competition, snapshot.event = competition, event
        return snapshot


# --- the links of a game's concrete tables (the same in every game but their names) -------------


def competition_link(
    competition_model: type[Competition] | str, *, related_name: str, verbose_name: Any
) -> models.ForeignKey[Any, Any]:
    """An event's ``competition``: the foreign key to the game's competition model."""
    return models.ForeignKey(
        competition_model,
        on_delete=models.CASCADE,
        related_name=related_name,
        verbose_name=verbose_name,
    )


def version_link(event_model: type[Event] | str, verbose_name: Any) -> models.ForeignKey[Any, Any]:
    """A result version's ``event`` (the event's ``versions``)."""
    return models.ForeignKey(
        event_model, on_delete=models.CASCADE, related_name="versions", verbose_name=verbose_name
    )


def snapshot_links(
    competition_model: type[Competition] | str,
    event_model: type[Event] | str,
    *,
    competition_name: Any,
    event_name: Any,
) -> tuple[models.ForeignKey[Any, Any], models.OneToOneField[Any, Any]]:
    """A snapshot's ``competition`` (its ``snapshots``) and ``event`` (its ``snapshot``)."""
    competition = competition_link(
        competition_model, related_name="snapshots", verbose_name=competition_name
    )
    event = models.OneToOneField(
        event_model, on_delete=models.CASCADE, related_name="snapshot", verbose_name=event_name
    )
    return competition, event


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
    user = user_link(_("user"))
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
