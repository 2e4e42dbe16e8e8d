"""Celery tasks: take ids, call one service, retry only what is transient.

Nothing a worker is asked to do lives only in its message. A submission is an event left
``submitted``; a simulation is an event with ``simulation_requested_at`` set. The sweeper
(``sweep_pending``, run by beat) queues both again when their message was lost (a broker outage)
or their worker died, and each task claims its work with a conditional update, so a message
delivered twice does the work once (docs/reliability.md).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
)
from django.utils import timezone

from tournament.competitions import services
from tournament.competitions.kinds import AnyKind, all_kinds, get_kind

log = logging.getLogger(__name__)

# Lost connections, lock timeouts and deadlocks are worth another try; anything else is a bug or
# a domain error.
TRANSIENT = (OperationalError, InterfaceError)
MAX_RETRIES = 3


def retry_countdown(retries: int) -> float:
    """Seconds before retry number ``retries + 1``: b, 2b, 4b (``PODIUM_RETRY_BACKOFF_SECONDS``)."""
    return float(settings.PODIUM_RETRY_BACKOFF_SECONDS) * 2**retries


def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [exc.__class__.__name__])[0][:200]


def failure_message(exc: Exception) -> str:
    """What an organiser reads on the failed event, and what to do about it."""
    return (
        f"Not resolved: the database was unavailable or busy ({first_line(exc)}; "
        f"{MAX_RETRIES + 1} attempts). The results are stored and nothing was lost. Once the "
        'database is healthy, retry with the admin action "Resolve the selected stages again".'
    )


def unexpected_failure_message(exc: BaseException) -> str:
    """The failed event's message after an error nobody foresaw (the log has the traceback)."""
    return (
        f"Not resolved: the standings could not be computed ({exc.__class__.__name__}: "
        f"{first_line(exc)}). The results are stored and nothing was lost. Check the set-up "
        "(every team has its riders, every entrant and event is complete) and these results, "
        'correct what is wrong, then submit again or use the admin action "Resolve the selected '
        "stages again\". If it fails again, the worker's log has the details for the "
        "administrator."
    )


def _record_failure(kind: AnyKind, event_id: int, message: str, *, reconnect: bool) -> str:
    if reconnect:
        # A terminated connection is unusable: open a fresh one to record the failure.
        close_old_connections()
    try:
        services.fail_event(kind=kind, event_id=event_id, message=message)
    except DatabaseError:
        log.exception("could not mark %s %s failed", kind.label, event_id)
    return "failed"


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def resolve_event_task(self, kind_label: str, event_id: int) -> str:
    """Resolve one event (and cascade to later ones); idempotent, so redelivery is safe."""
    kind = get_kind(kind_label)
    try:
        return services.resolve_event(kind=kind, event_id=event_id)
    except TRANSIENT as exc:
        if self.request.retries >= MAX_RETRIES:
            log.exception("resolving %s %s failed after retries", kind_label, event_id)
            return _record_failure(kind, event_id, failure_message(exc), reconnect=True)
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
    except Exception as exc:
        # A bug, or a set-up the scoring cannot handle (a team without riders, made outside the
        # API's checks). The claim rolled back with the transaction, so the event is still
        # ``submitted``: another attempt gives the same error and the sweeper would queue it
        # forever. It becomes ``failed`` with a message the organiser can act on.
        log.exception("resolving %s %s failed unexpectedly", kind_label, event_id)
        return _record_failure(kind, event_id, unexpected_failure_message(exc), reconnect=False)


# --- simulations ----------------------------------------------------------------------------


class LeaseKeeper:
    """Renews a simulation's lease from a thread while the engine plays.

    The lease says "a live worker is playing this": renewed every third of its length, it
    expires within one length once the worker dies (SIGKILL, a lost machine), and the sweeper
    then queues the simulation again. Inside a request (tasks run eagerly) there is no worker
    to lose, and no renewal.
    """

    def __init__(self, kind: AnyKind, event_id: int, lease: datetime, renew: bool) -> None:
        self.model = kind.event_model
        self.event_id = event_id
        self.lease = lease
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True) if renew else None

    def __enter__(self) -> LeaseKeeper:
        if self._thread is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        period = settings.PODIUM_SIMULATION_LEASE.total_seconds() / 3
        try:
            while not self._stop.wait(period):
                until = timezone.now() + settings.PODIUM_SIMULATION_LEASE
                if not self.model.objects.renew_simulation_lease(self.event_id, self.lease, until):
                    return
                self.lease = until
        except DatabaseError:
            log.warning("simulation %s: could not renew its lease", self.event_id, exc_info=True)
        finally:
            connection.close()  # this thread's own connection


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def simulate_event_task(
    self, kind_label: str, event_id: int, user_id: int | None = None, version: int | None = None
) -> str:
    """Play a requested simulation with the engine and submit its results (resolved as usual).

    The request is stored on the event (``request_simulation``); this task takes its lease,
    plays it once and forgets it. ``user_id`` and ``version`` are only read from messages queued
    before requests were stored.
    """
    from django.contrib.auth import get_user_model

    from tournament.competitions.simulation import simulate_event

    kind = get_kind(kind_label)
    model = kind.event_model
    now = timezone.now()
    lease = now + settings.PODIUM_SIMULATION_LEASE
    if not model.objects.take_simulation_lease(event_id, now, lease):
        requested = model.objects.filter(pk=event_id, simulation_requested_at__isnull=False)
        if version is None or requested.exists():
            return "skipped"  # played already, or a live worker is playing it
        # A message from before requests were stored: its version guards against a double.
        user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
        played = simulate_event(kind=kind, event_id=event_id, by=user, version=version)
        return "submitted" if played is not None else "skipped"
    request = (
        model.objects.filter(pk=event_id)
        .values("simulation_requested_at", "simulation_requested_by", "simulation_version")
        .get()
    )
    by = get_user_model().objects.filter(pk=request["simulation_requested_by"]).first()
    outcome, transient = "skipped", False
    with LeaseKeeper(kind, event_id, lease, renew=not self.request.is_eager) as keeper:
        try:
            played = simulate_event(
                kind=kind, event_id=event_id, by=by, version=request["simulation_version"]
            )
            outcome = "submitted" if played is not None else "skipped"
        except TRANSIENT:
            log.warning("simulating %s %s: database error", kind_label, event_id, exc_info=True)
            transient = True
        except Exception as exc:
            # An engine bug: playing again gives the same error. Shown on the event (an event
            # without results becomes ``failed``); the request is forgotten below.
            log.exception("simulating %s %s failed unexpectedly", kind_label, event_id)
            message = (
                f"Not simulated: the simulator stopped with an error ({exc.__class__.__name__}: "
                f"{first_line(exc)}). Nothing was stored; enter the results by hand, or ask "
                "the administrator (the worker's log has the details)."
            )
            model.objects.get(pk=event_id).record_engine_failure(message)
    if transient:
        # The database failed under us: the request stays; with the lease given up, the
        # sweeper queues it again.
        close_old_connections()
        model.objects.release_simulation_lease(event_id, keeper.lease)
        return "retry"
    model.objects.finish_simulation(event_id, request["simulation_requested_at"], keeper.lease)
    return outcome


@shared_task(acks_late=True)
def sweep_pending() -> int:
    """Queue again what a lost message or a dead worker left: events left ``submitted``, and
    requested simulations that no live worker holds."""
    now = timezone.now()
    older_than = now - settings.PODIUM_SWEEP_AFTER
    # A request younger than one lease may still be on its way to a worker.
    requested_before = now - settings.PODIUM_SIMULATION_LEASE
    count = 0
    for kind in all_kinds():
        for event_id in services.pending_events(kind, older_than):
            resolve_event_task.delay(kind.label, event_id)
            count += 1
        due = kind.event_model.objects.simulations_due(requested_before, now)
        for event_id in due.order_by("pk").values_list("pk", flat=True):
            simulate_event_task.delay(kind.label, event_id)
            count += 1
    return count


@shared_task
def purge_idempotency_keys() -> int:
    """Forget Idempotency-Key answers older than 24 hours (API.md)."""
    from tournament.competitions.idempotency import purge_expired

    return purge_expired()
