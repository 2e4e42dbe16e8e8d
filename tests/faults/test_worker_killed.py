"""A worker killed (SIGKILL) in the middle of a resolution: the task is delivered again.

The test holds row locks on the competition's standings snapshots in its own PostgreSQL session,
so the worker blocks *after* it has claimed the event (``submitted`` → ``resolved``, not committed)
and while it replaces the snapshots. Then the worker is killed, the lock released, and the
killed worker's transaction must have rolled back completely.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.faults.conftest import (
    KINDS,
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

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

VISIBILITY_TIMEOUT = 3  # seconds before an unacknowledged task is delivered again

# What is the game's own (its claim and its snapshot rows roll back whole) runs for every game with
# the solo pool. The prefork pool adds Celery's mechanics (WorkerLostError, the message rejected
# back to the queue), the same code for every game: one game (every game with
# PODIUM_FAULTS_EVERY_KIND=1), which keeps the whole tests/faults run near a minute.
POOLS = [pytest.param("solo", k.values[0], id=f"solo-{k.id}") for k in KINDS] + [
    pytest.param("prefork", k.values[0], id=f"prefork-{k.id}") for k in kinds("championship")
]


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _status(case: KindCase, cid: int, number: int) -> str:
    return str(case.kind.event_model.objects.get(competition_id=cid, number=number).status)


def _wait_unlocked(holder: LockHolder, case: KindCase, cid: int) -> None:
    """Wait until no other session holds the competition row (the killed worker's is gone)."""

    def free() -> bool:
        try:
            holder.execute(
                f"SELECT id FROM {table(case.kind.competition_model)} WHERE id = %s "
                "FOR UPDATE NOWAIT",
                [cid],
            )
        except Exception:  # LockNotAvailable: the orphaned session still holds it
            holder.release()
            return False
        holder.release()
        return True

    wait_for(free, timeout=20)


@pytest.mark.parametrize(("pool", "case"), POOLS)
def test_worker_killed_mid_resolution_is_redelivered(
    case: KindCase,
    pool: str,
    cast: dict[str, Any],
    workers: Any,
    lock_holder: LockHolder,
    figures: Any,
) -> None:
    queue = new_queue(f"kill-{pool}")
    env = service_env(
        queue,
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        CELERY_RESTORE_INTERVAL_SECONDS="1",
    )
    first = workers(queue, env, name=f"{queue}-a", pool=pool)
    api = cast["api"]
    with tasks_to(queue):
        detail = case.create(api)
        cid = detail["id"]
        for number in (1, 2):
            body = {"results": case.rows(detail, number)}
            assert api.post(case.results_url(cid, number), body, format="json").status_code == 202
        wait_for(lambda: _status(case, cid, 2) == "resolved")
        snapshots = case.kind.snapshot_model.objects.filter(competition_id=cid)
        before = list(snapshots.order_by("number").values_list("pk", "data"))

        # Hold the snapshot rows; the worker's correction will claim stage 1 and then wait here.
        lock_holder.execute(
            f"SELECT id FROM {table(case.kind.snapshot_model)} WHERE competition_id = %s "
            "FOR UPDATE",
            [cid],
        )
        correction = {"results": case.rows(detail, 5)}
        answer = api.post(case.results_url(cid, 1), correction, format="json")
        assert answer.status_code == 202 and answer.json()["version"] == 2
        posted = time.monotonic()
        _pid, query = wait_for_lock_waiter("DELETE")
        waited = elapsed(posted)
        broker = redis.Redis.from_url(env["REDIS_URL"])
        unacked_before_kill = broker.hlen("unacked")

        if pool == "solo":
            # The whole worker dies: the message stays unacknowledged in Redis.
            first.kill()
            victim = "worker process (solo pool)"
        else:
            # The pool's child dies: the parent rejects the message back to the queue.
            (child,) = _children(first.pid)
            os.kill(child, signal.SIGKILL)
            victim = "pool child process (prefork)"
        killed_at = time.monotonic()
        lock_holder.release()
        _wait_unlocked(lock_holder, case, cid)

        # The killed worker's transaction rolled back whole: claim, deletion and new rows.
        assert _status(case, cid, 1) == "submitted"
        assert list(snapshots.order_by("number").values_list("pk", "data")) == before

        if pool == "solo":
            # A new worker (a restarted machine) finds the task once the visibility timeout passed.
            workers(queue, env, name=f"{queue}-b", pool=pool)
        wait_for(lambda: _status(case, cid, 1) == "resolved", timeout=30)
        redelivered_in = elapsed(killed_at)
        wait_for(lambda: _status(case, cid, 2) == "resolved")
    summary = assert_consistent(case, cid)
    assert case.kind.event_model.objects.get(competition_id=cid, number=1).version == 2
    assert summary == {"events": 2, "snapshots": 2}
    wait_for(lambda: broker.hlen("unacked") == 0, timeout=10)
    figures(
        killed=victim,
        blocked_query=query[:40],
        unacked_before_kill=unacked_before_kill,
        waited_for_lock_s=waited,
        resolved_after_kill_s=redelivered_in,
        **summary,
    )
