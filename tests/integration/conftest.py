"""A real Celery worker process against Redis and the test database.

The worker is started once per session with ``celery -A tournament worker`` on a queue of its
own, pointed at the database pytest-django created; tests that use it commit their data
(``transaction=True``) so the worker sees it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from tournament.celery import app as celery_app
from tournament.clubs.models import Club, Membership, Role

ROOT = Path(__file__).resolve().parents[2]


def _redis_url() -> str | None:
    return os.environ.get("REDIS_URL") or None


requires_redis = pytest.mark.skipif(
    _redis_url() is None, reason="REDIS_URL is not set: the real-worker tests need Redis"
)


def _database_url() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


class CeleryProcess:
    """A ``celery -A tournament worker`` (or ``beat``) subprocess with its log file."""

    def __init__(self, args: list[str], env: dict[str, str], log_path: Path) -> None:
        self.log_path = log_path
        log_path.parent.mkdir(exist_ok=True)
        self._log = log_path.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tournament", *args],
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, marker: str, timeout: float = 30.0) -> None:
        """Wait until ``marker`` shows in the log; fail with the log's tail if it never does."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if marker in self.log_text():
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"celery exited: {self.log_text()[-3000:]}")
            time.sleep(0.05)
        raise RuntimeError(f"celery did not log {marker!r}: {self.log_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no acknowledgement, no cleanup (a crashed machine)."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._log.close()


def service_env(queue: str, **extra: str) -> dict[str, str]:
    """The environment of a worker or beat on ``queue`` against the test database and Redis."""
    return {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "REDIS_URL": _redis_url() or "",
        "PODIUM_QUEUE": queue,
        "PODIUM_TESTING": "1",
        "DATABASE_CONN_MAX_AGE": "0",
        **extra,
    }


def start_worker(
    queue: str, env: dict[str, str] | None = None, name: str = "", pool: str = "solo"
) -> CeleryProcess:
    """Start a worker consuming ``queue`` and wait until it is ready."""
    name = name or queue
    worker = CeleryProcess(
        [
            "worker",
            "--pool",
            pool,
            "--concurrency",
            "1",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-Q",
            queue,
            "--loglevel",
            "INFO",
            "-n",
            f"{name}@%h",
        ],
        env or service_env(queue),
        ROOT / "var" / f"worker-{name}.log",
    )
    try:
        worker.wait_for_log(" ready.")
    except BaseException:
        worker.stop()
        raise
    return worker


def start_beat(queue: str, env: dict[str, str], schedule: Path) -> CeleryProcess:
    """Start Celery beat (the sweeper's clock) sending to ``queue``."""
    beat = CeleryProcess(
        ["beat", "--loglevel", "INFO", "--schedule", str(schedule)],
        env,
        ROOT / "var" / f"beat-{queue}.log",
    )
    try:
        beat.wait_for_log("beat: Starting")
    except BaseException:
        beat.stop()
        raise
    return beat


def require_worker_services() -> None:
    """Skip unless Redis and PostgreSQL are configured (a laptop runs SQLite and no Redis)."""
    if _redis_url() is None:
        pytest.skip("REDIS_URL is not set: the real-worker tests need Redis")
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("the real-worker tests need PostgreSQL (an in-memory SQLite is per process)")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Start ``celery -A tournament worker`` and wait until it answers a ping."""
    require_worker_services()
    with django_db_blocker.unblock():
        connection.close()
    queue = f"podium-test-{uuid.uuid4().hex[:8]}"
    # Short retry back-off: the fault tests make the database fail under this worker.
    worker = start_worker(queue, service_env(queue, PODIUM_RETRY_BACKOFF_SECONDS="0.2"))
    celery_app.conf.task_default_queue = queue
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            replies = celery_app.control.ping(
                destination=[f"{queue}@{os.uname().nodename}"], timeout=0.5
            )
            if replies:
                break
        else:
            raise RuntimeError(f"worker did not answer: {worker.log_text()[-2000:]}")
        yield {"process": worker.process, "queue": queue, "log": worker.log_path, "worker": worker}
    finally:
        worker.stop()
        celery_app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE


@pytest.fixture
def real_worker(celery_worker_process: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Tasks go to the real worker during the test (not run eagerly in-process).

    Before the test's tables are emptied, the worker must have finished what the test sent it:
    a task still running (a retry, a cascade after the last checked state) would hold locks
    that deadlock with the truncation and spill into the next test.
    """
    celery_app.conf.task_always_eager = False
    try:
        yield celery_worker_process
    finally:
        celery_app.conf.task_always_eager = True
        wait_until_idle(celery_worker_process["queue"])


def wait_until_idle(queue: str, timeout: float = 60.0) -> None:
    """Wait until the worker of ``queue`` has nothing queued, reserved, scheduled or running."""
    name = f"{queue}@{os.uname().nodename}"
    inspect = celery_app.control.inspect(destination=[name], timeout=2.0, limit=1)
    broker = redis.Redis.from_url(_redis_url() or "")
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if not broker.llen(queue):
                # a busy solo worker answers only between tasks: no answer is not idle
                answers = [inspect.active(), inspect.reserved(), inspect.scheduled()]
                if all(a and not a.get(name) for a in answers) and not broker.llen(queue):
                    return
            time.sleep(0.05)
    finally:
        broker.close()
    raise AssertionError(f"the test worker on {queue} did not go idle in {timeout:.0f} s")


def wait_for(predicate: Any, timeout: float = 20.0, interval: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("condition not met in time")


def club_api(prefix: str) -> dict[str, APIClient]:
    """The club velo-lisboa, committed, with an organiser and a scorekeeper (``<prefix>-org``,
    ``<prefix>-sk``), and an API client for each and for an anonymous visitor: the cast of
    every real-worker test of a kind."""
    club = Club.objects.create(name="Velo Club Lisboa", slug="velo-lisboa")
    clients = {"anonymous": APIClient()}
    for role, name in ((Role.ORGANISER, "organiser"), (Role.SCOREKEEPER, "scorekeeper")):
        short = "org" if role == Role.ORGANISER else "sk"
        user = get_user_model().objects.create_user(f"{prefix}-{short}", password="x-correct-horse")
        Membership.objects.create(club=club, user=user, role=role)
        clients[name] = APIClient()
        clients[name].force_authenticate(user)
    return clients
