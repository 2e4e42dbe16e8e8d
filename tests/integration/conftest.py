"""A real Celery worker process against Redis and the test database.

The worker is started once per session with ``celery -A tournament worker`` on a queue of its
own, pointed at the database pytest-django created; tests that use it commit their data
(``transaction=True``) so the worker sees it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from tournament.celery import app as celery_app

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


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Start ``celery -A tournament worker`` and wait until it answers a ping."""
    if _redis_url() is None:
        pytest.skip("REDIS_URL is not set: the real-worker tests need Redis")
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("the real-worker tests need PostgreSQL (an in-memory SQLite is per process)")
    with django_db_blocker.unblock():
        database_url = _database_url()
        connection.close()
    queue = f"podium-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": _redis_url() or "",
        "PODIUM_QUEUE": queue,
        "PODIUM_TESTING": "1",
        "DATABASE_CONN_MAX_AGE": "0",
    }
    log_path = ROOT / "var" / f"worker-{queue}.log"
    log_path.parent.mkdir(exist_ok=True)
    log = log_path.open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tournament",
            "worker",
            "--pool",
            "solo",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-Q",
            queue,
            "--loglevel",
            "INFO",
            "-n",
            f"{queue}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    celery_app.conf.task_default_queue = queue
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"worker exited: {log_path.read_text()[-2000:]}")
            replies = celery_app.control.ping(
                destination=[f"{queue}@{os.uname().nodename}"], timeout=0.5
            )
            if replies:
                break
        else:
            raise RuntimeError(f"worker did not answer: {log_path.read_text()[-2000:]}")
        yield {"process": process, "queue": queue, "log": log_path}
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        celery_app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE


@pytest.fixture
def real_worker(celery_worker_process: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Tasks go to the real worker during the test (not run eagerly in-process)."""
    celery_app.conf.task_always_eager = False
    yield celery_worker_process
    celery_app.conf.task_always_eager = True


def wait_for(predicate: Any, timeout: float = 20.0, interval: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("condition not met in time")
