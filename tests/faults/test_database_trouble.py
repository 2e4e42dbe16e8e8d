"""The database fails under a resolving worker: lock timeouts, a terminated session, a deadlock.

Transient errors are retried a bounded number of times with back-off; when retries run out the
event is ``failed`` with a message an organiser can act on, and the admin action "Resolve the
selected stages again" resolves it once the database is healthy.
"""

from __future__ import annotations

import re
import time
from typing import Any

import psycopg
import pytest
from django.test import Client

from tests.faults.conftest import (
    KindCase,
    LockHolder,
    assert_consistent,
    elapsed,
    kinds,
    new_queue,
    service_env,
    table,
    tasks_to,
    wait_for,
    wait_for_lock_waiter,
)
from tournament.competitions.tasks import MAX_RETRIES

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# The admin changelist of each game's events, for the "resolve again" action.
ADMIN_EVENTS = {
    "tour": "/admin/tours/stage/",
    "championship": "/admin/championships/race/",
    "rally": "/admin/rallies/rallystage/",
}


def _event(case: KindCase, cid: int, number: int) -> Any:
    return case.kind.event_model.objects.get(competition_id=cid, number=number)


def _retries_logged(log: str, case: KindCase, event_id: int, cause: str = "") -> int:
    """Retries of this event logged by the worker (event ids repeat across games' tables)."""
    pattern = rf"resolving {case.label} {event_id}: .*{re.escape(cause)}.*retrying"
    return len(re.findall(pattern, log))


@pytest.mark.parametrize("case", kinds("tour"))
def test_lock_timeouts_exhaust_the_retries_then_failed_then_the_admin_action_resolves(
    case: KindCase, cast: dict[str, Any], workers: Any, lock_holder: LockHolder, figures: Any
) -> None:
    queue = new_queue("lock")
    env = service_env(queue, PODIUM_DB_LOCK_TIMEOUT_MS="200", PODIUM_RETRY_BACKOFF_SECONDS="0.1")
    worker = workers(queue, env)
    with tasks_to(queue):
        detail = case.create(cast["api"])
        cid = detail["id"]
        # A long transaction (a stuck report, a maintenance job) holds the standings table.
        lock_holder.execute(f"LOCK TABLE {table(case.kind.snapshot_model)} IN SHARE MODE")
        started = time.monotonic()
        body = {"results": case.rows(detail, 1)}
        assert cast["api"].post(case.results_url(cid, 1), body, format="json").status_code == 202
        wait_for(lambda: _event(case, cid, 1).status == "failed", timeout=20)
        failed_in = elapsed(started)
        event = _event(case, cid, 1)
        assert "Resolve the selected stages again" in event.error
        assert f"{MAX_RETRIES + 1} attempts" in event.error
        assert _retries_logged(worker.log_text(), case, event.pk) == MAX_RETRIES
        assert "lock timeout" in event.error  # what PostgreSQL said, for the organiser
        # Nothing was lost: the results are stored; the standings wait for them.
        assert event.version == 1 and len(event.results) == len(body["results"])
        assert not case.kind.snapshot_model.objects.filter(competition_id=cid).exists()
        detail_page = cast["api"].get(case.event_url(cid, 1)).json()
        assert (detail_page["status"], detail_page["error"]) == ("failed", event.error)

        lock_holder.release()
        admin = Client()
        admin.force_login(cast["organiser"])  # an organiser, not a superuser
        answer = admin.post(
            ADMIN_EVENTS[case.label], {"action": "resolve_again", "_selected_action": [event.pk]}
        )
        assert answer.status_code == 302
        wait_for(lambda: _event(case, cid, 1).status == "resolved", timeout=20)
    assert _event(case, cid, 1).error == ""
    summary = assert_consistent(case, cid)
    figures(
        attempts=MAX_RETRIES + 1,
        failed_after_s=failed_in,
        error=event.error,
        after_admin_action=_event(case, cid, 1).status,
        **summary,
    )


@pytest.mark.parametrize("case", kinds("championship"))
def test_terminated_database_session_mid_resolution_is_retried(
    case: KindCase,
    cast: dict[str, Any],
    real_worker: dict[str, Any],
    lock_holder: LockHolder,
    figures: Any,
) -> None:
    detail = case.create(cast["api"])
    cid = detail["id"]
    lock_holder.execute(f"LOCK TABLE {table(case.kind.snapshot_model)} IN SHARE MODE")
    body = {"results": case.rows(detail, 2)}
    assert cast["api"].post(case.results_url(cid, 1), body, format="json").status_code == 202
    pid, _query = wait_for_lock_waiter(table(case.kind.snapshot_model))
    # The database drops the worker's session in the middle of the resolution (a failover, an
    # administrator, a crashed connection pooler).
    terminated = lock_holder.execute("SELECT pg_terminate_backend(%s)", [pid])
    assert terminated == [(True,)]
    lock_holder.release()
    started = time.monotonic()
    wait_for(lambda: _event(case, cid, 1).status == "resolved", timeout=20)
    resolved_in = elapsed(started)
    event_id = _event(case, cid, 1).pk
    log = real_worker["worker"].log_text()
    assert _retries_logged(log, case, event_id) == 1
    summary = assert_consistent(case, cid)
    figures(retries=1, resolved_after_terminate_s=resolved_in, **summary)


@pytest.mark.parametrize("case", kinds("rally"))
def test_deadlock_during_resolution_is_retried(
    case: KindCase,
    cast: dict[str, Any],
    real_worker: dict[str, Any],
    lock_holder: LockHolder,
    figures: Any,
) -> None:
    detail = case.create(cast["api"])
    cid = detail["id"]
    # The test's session takes the standings table, the worker takes the competition row and
    # waits for the table; then the test asks for the row: a cycle. PostgreSQL's deadlock
    # detector breaks it by aborting the worker (its wait started first; ours waits longer).
    lock_holder.execute("SET deadlock_timeout = '10s'")
    lock_holder.execute(f"LOCK TABLE {table(case.kind.snapshot_model)} IN SHARE MODE")
    body = {"results": case.rows(detail, 4)}
    assert cast["api"].post(case.results_url(cid, 1), body, format="json").status_code == 202
    wait_for_lock_waiter(table(case.kind.snapshot_model))
    started = time.monotonic()
    try:
        lock_holder.execute(
            f"SELECT id FROM {table(case.kind.competition_model)} WHERE id = %s FOR UPDATE",
            [cid],
        )
    except psycopg.errors.DeadlockDetected:  # pragma: no cover - the worker is the victim
        pytest.fail("PostgreSQL aborted the test's session instead of the worker's")
    lock_holder.release()
    wait_for(lambda: _event(case, cid, 1).status == "resolved", timeout=20)
    resolved_in = elapsed(started)
    log = real_worker["worker"].log_text()
    event_id = _event(case, cid, 1).pk
    assert _retries_logged(log, case, event_id) == 1
    assert _retries_logged(log, case, event_id, "deadlock detected") == 1
    summary = assert_consistent(case, cid)
    figures(retries=1, resolved_after_deadlock_s=resolved_in, **summary)
