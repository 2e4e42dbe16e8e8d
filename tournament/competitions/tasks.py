"""Celery tasks: take ids, call one service, retry only what is transient."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, close_old_connections
from django.utils import timezone

from tournament.competitions import services
from tournament.competitions.kinds import all_kinds, get_kind

log = logging.getLogger(__name__)

# Lost connections, lock timeouts and deadlocks are worth another try; anything else is a bug or
# a domain error.
TRANSIENT = (OperationalError, InterfaceError)
MAX_RETRIES = 3


def retry_countdown(retries: int) -> float:
    """Seconds before retry number ``retries + 1``: b, 2b, 4b (``PODIUM_RETRY_BACKOFF_SECONDS``)."""
    return float(settings.PODIUM_RETRY_BACKOFF_SECONDS) * 2**retries


def first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [exc.__class__.__name__])[0][:200]


def failure_message(exc: Exception) -> str:
    """What an organiser reads on the failed event, and what to do about it."""
    return (
        f"Not resolved: the database was unavailable or busy ({first_line(exc)}; "
        f"{MAX_RETRIES + 1} attempts). The results are stored and nothing was lost. Once the "
        'database is healthy, retry with the admin action "Resolve the selected stages again".'
    )


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def resolve_event_task(self, kind_label: str, event_id: int) -> str:  # type: ignore[no-untyped-def]
    """Resolve one event (and cascade to later ones); idempotent, so redelivery is safe."""
    kind = get_kind(kind_label)
    try:
        return services.resolve_event(kind=kind, event_id=event_id)
    except TRANSIENT as exc:
        if self.request.retries >= MAX_RETRIES:
            log.exception("resolving %s %s failed after retries", kind_label, event_id)
            # A terminated connection is unusable: open a fresh one to record the failure.
            close_old_connections()
            try:
                services.fail_event(kind=kind, event_id=event_id, message=failure_message(exc))
            except DatabaseError:
                log.exception("could not mark %s %s failed", kind_label, event_id)
            return "failed"
        countdown = retry_countdown(self.request.retries)
        log.warning(
            "resolving %s %s: %s (%s), retrying in %.1f s",
            kind_label,
            event_id,
            exc.__class__.__name__,
            first_line(exc),
            countdown,
        )
        raise self.retry(exc=exc, countdown=countdown) from exc


@shared_task(acks_late=True, reject_on_worker_lost=True)
def simulate_event_task(
    kind_label: str, event_id: int, user_id: int | None, version: int | None = None
) -> str:
    """Play an event with the engine and submit its results (then resolved as usual)."""
    from django.contrib.auth import get_user_model

    from tournament.competitions.simulation import simulate_event

    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    event = simulate_event(kind=get_kind(kind_label), event_id=event_id, by=user, version=version)
    return "submitted" if event is not None else "skipped"


@shared_task(acks_late=True)
def sweep_pending() -> int:
    """Queue every event left ``submitted`` (a broker outage at submission, a lost task)."""
    older_than = timezone.now() - settings.PODIUM_SWEEP_AFTER
    count = 0
    for kind in all_kinds():
        for event_id in services.pending_events(kind, older_than):
            resolve_event_task.delay(kind.label, event_id)
            count += 1
    return count


@shared_task
def purge_idempotency_keys() -> int:
    """Forget Idempotency-Key answers older than 24 hours (API.md)."""
    from tournament.competitions.idempotency import purge_expired

    return purge_expired()
