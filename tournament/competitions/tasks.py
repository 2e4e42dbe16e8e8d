"""Celery tasks: take ids, call one service, retry only what is transient."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import timezone

from tournament.competitions import services
from tournament.competitions.kinds import all_kinds, get_kind

log = logging.getLogger(__name__)

# Lost connections and deadlocks are worth another try; anything else is a bug or a domain error.
TRANSIENT = (OperationalError, InterfaceError)
MAX_RETRIES = 3


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def resolve_event_task(self, kind_label: str, event_id: int) -> str:  # type: ignore[no-untyped-def]
    """Resolve one event (and cascade to later ones); idempotent, so redelivery is safe."""
    kind = get_kind(kind_label)
    try:
        return services.resolve_event(kind=kind, event_id=event_id)
    except TRANSIENT as exc:
        if self.request.retries >= MAX_RETRIES:
            log.exception("resolving %s %s failed after retries", kind_label, event_id)
            try:
                services.fail_event(
                    kind=kind,
                    event_id=event_id,
                    message=(
                        f"The database was unavailable while resolving "
                        f"({exc.__class__.__name__}); retry from the admin."
                    ),
                )
            except DatabaseError:
                log.exception("could not mark %s %s failed", kind_label, event_id)
            return "failed"
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc


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
