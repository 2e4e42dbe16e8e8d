"""Fault injection against real PostgreSQL, Redis and Celery processes (``-m integration``).

Nothing of Podium's own code is mocked or patched: the faults are real (threads racing through the
API, SIGKILL, a Redis server stopped, locks and terminated backends in PostgreSQL). Each game is
one :class:`KindCase` in ``KINDS`` (tours, Formula D championships, rallies). The fault paths are
written once for every game (``GameKind``): a test runs for one game (:func:`kinds`), each test a
different one so that the run covers all three, and ``PODIUM_FAULTS_EVERY_KIND=1`` runs every test
for every game.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from tests.championships.helpers import payload as championship_payload
from tests.conftest import stage_rows, tour_payload
from tests.integration.conftest import (  # noqa: F401  (fixtures re-exported for this package)
    ROOT,
    CeleryProcess,
    celery_worker_process,
    real_worker,
    require_worker_services,
    service_env,
    start_beat,
    start_worker,
    wait_for,
)
from tests.rallies.helpers import rally_payload
from tournament.celery import app as celery_app
from tournament.clubs.models import Club, Membership, Role
from tournament.competitions.kinds import GameKind, get_kind

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


# --- the games under test ---


@dataclass(frozen=True)
class KindCase:
    """What a fault test needs of one game: create it, results to post, where to post them."""

    label: str  # GameKind label
    collection: str  # API collection: "tours", "championships", "rallies"
    events: str  # URL word for events: "stages", "races"
    payload: Callable[[], dict[str, Any]]
    rows: Callable[[dict[str, Any], int], list[dict[str, Any]]]  # (detail, variant) → rows

    @property
    def kind(self) -> GameKind:
        return get_kind(self.label)

    def create(self, client: APIClient) -> dict[str, Any]:
        response = client.post(f"/api/{self.collection}/", self.payload(), format="json")
        assert response.status_code == 201, response.content
        return response.json()

    def results_url(self, competition_id: int, number: int) -> str:
        return f"/api/{self.collection}/{competition_id}/{self.events}/{number}/results/"

    def event_url(self, competition_id: int, number: int) -> str:
        return f"/api/{self.collection}/{competition_id}/{self.events}/{number}/"

    def stored_as_sent(self, stored: list[dict[str, Any]], sent: list[dict[str, Any]]) -> bool:
        """Whether ``stored`` rows are exactly the ``sent`` ones, never a mix of two requests.

        Games keep rows in their own order and add computed fields (a rally's ``stage_time``, a
        race's absent optional fields as null): every sent field must be stored unchanged.
        """
        key = self.kind.entrant_field
        by_entrant = {row[key]: row for row in stored}
        return len(stored) == len(sent) and all(
            row[key] in by_entrant and {k: by_entrant[row[key]].get(k) for k in row} == row
            for row in sent
        )


_ORDERS = list(itertools.permutations(range(6)))


def _tour_rows(detail: dict[str, Any], variant: int) -> list[dict[str, Any]]:
    # Distinct finishing orders of the six riders, far apart in the permutation list.
    return stage_rows(detail, order=list(_ORDERS[(variant * 97) % len(_ORDERS)]))


# Four drivers entered in every one-lap race: 24 finishing orders, enough for distinct variants.
_DRIVERS = ["Ana", "Rui", "Eva", "Gil"]
_RACE_ORDERS = list(itertools.permutations(range(len(_DRIVERS))))


def _championship_payload() -> dict[str, Any]:
    races = [{"circuit": "monaco", "laps": 1} for _ in range(3)]
    drivers = [{"name": name, "team": f"Team {i // 2}"} for i, name in enumerate(_DRIVERS)]
    return championship_payload(drivers=drivers, races=races)


def _race_rows(detail: dict[str, Any], variant: int) -> list[dict[str, Any]]:
    """Every driver finishes the one lap, in the order ``variant`` picks (FD-78 rows)."""
    order = _RACE_ORDERS[(variant * 7) % len(_RACE_ORDERS)]
    drivers = detail["drivers"]
    return [
        {"driver": drivers[index]["id"], "position": position, "status": "finished", "laps": 1}
        for position, index in enumerate(order, start=1)
    ]


def _rally_payload() -> dict[str, Any]:
    # Stages without layouts: results are submitted, never simulated, in these tests.
    stages = [{"name": f"SS{n}"} for n in range(1, 4)]
    return rally_payload(stages=stages)


def _rally_rows(detail: dict[str, Any], variant: int) -> list[dict[str, Any]]:
    """A stage sheet (RM-52): distinct times per variant, nobody retired (RM-46)."""
    drivers = detail["drivers"]
    return [
        {"driver": d["id"], "time": 300 + variant + 15 * ((i + variant) % len(drivers))}
        for i, d in enumerate(drivers)
    ]


TOUR = KindCase("tour", "tours", "stages", tour_payload, _tour_rows)
CHAMPIONSHIP = KindCase("championship", "championships", "races", _championship_payload, _race_rows)
RALLY = KindCase("rally", "rallies", "stages", _rally_payload, _rally_rows)
KINDS = [
    pytest.param(TOUR, id="tour"),
    pytest.param(CHAMPIONSHIP, id="championship"),
    pytest.param(RALLY, id="rally"),
]
EVERY_KIND = os.environ.get("PODIUM_FAULTS_EVERY_KIND", "").lower() in {"1", "true", "yes"}


def kinds(label: str, params: list[Any] = KINDS) -> list[Any]:
    """The parameters a fault test runs over: the game ``label`` names (each test of a module
    names another, so every game meets every kind of fault), or every game with
    ``PODIUM_FAULTS_EVERY_KIND=1``. The suite stays within its five minutes: a fault test starts
    real workers, beat and web servers, so each game costs it 5 to 30 s."""
    if EVERY_KIND:
        return params
    chosen = [param for param in params if param.id == label]
    assert chosen, f"no fault case {label!r}"
    return chosen


# --- the cast ---


@pytest.fixture
def services_ready(django_db_setup: Any) -> None:
    require_worker_services()


@pytest.fixture
def cast(services_ready: None, db: Any) -> dict[str, Any]:
    """An organiser (admin staff) and a scorekeeper of velo-lisboa, with API clients."""
    User = get_user_model()
    organiser = User.objects.create_user("org-faults", password="x-correct-horse", is_staff=True)
    scorekeeper = User.objects.create_user("sk-faults", password="x-correct-horse")
    club = Club.objects.create(name="Velo Club Lisboa", slug="velo-lisboa")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    Membership.objects.create(club=club, user=scorekeeper, role=Role.SCOREKEEPER)
    return {
        "organiser": organiser,
        "scorekeeper": scorekeeper,
        "club": club,
        "api": client_for(organiser),
    }


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def workers(services_ready: None, db: Any) -> Iterator[Callable[..., CeleryProcess]]:
    """Start dedicated workers (``workers(queue, env)``); all are stopped after the test."""
    started: list[CeleryProcess] = []

    def start(queue: str, env: dict[str, str], name: str = "", pool: str = "solo") -> Any:
        worker = start_worker(queue, env, name=name, pool=pool)
        started.append(worker)
        return worker

    yield start
    # The test is over and the workers idle: a cold shutdown (SIGQUIT) skips the warm one's
    # seconds of waiting; stop() then reaps them (and kills any that did not exit).
    for worker in started:
        if worker.process.poll() is None:
            worker.process.send_signal(signal.SIGQUIT)
    for worker in started:
        worker.stop()


@contextmanager
def tasks_to(queue: str) -> Iterator[None]:
    """Send the tasks this process queues to ``queue`` (a real worker), not run them in-process."""
    eager, default = celery_app.conf.task_always_eager, celery_app.conf.task_default_queue
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = eager
        celery_app.conf.task_default_queue = default


def new_queue(tag: str) -> str:
    return f"podium-faults-{tag}-{uuid.uuid4().hex[:6]}"


# --- PostgreSQL: a second session that holds locks, and what the others wait for ---


def conninfo() -> dict[str, Any]:
    db = settings.DATABASES["default"]
    return {
        "dbname": db["NAME"],
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
        "host": db.get("HOST") or "127.0.0.1",
        "port": db.get("PORT") or 5432,
    }


class LockHolder:
    """A separate PostgreSQL session whose open transaction holds locks until ``release()``."""

    def __init__(self) -> None:
        self.conn = psycopg.connect(**conninfo(), autocommit=False)

    def execute(self, sql: str, params: Any = None) -> list[Any]:
        cursor = self.conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []

    def release(self) -> None:
        self.conn.rollback()

    def close(self) -> None:
        self.conn.rollback()
        self.conn.close()


@pytest.fixture
def lock_holder(services_ready: None, db: Any) -> Iterator[LockHolder]:
    holder = LockHolder()
    yield holder
    holder.close()


def lock_waiters() -> list[tuple[int, str]]:
    """(pid, query) of every session of the test database waiting for a lock."""
    with psycopg.connect(**conninfo(), autocommit=True) as conn:
        return conn.execute(
            "SELECT pid, query FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchall()


def wait_for_lock_waiter(fragment: str, timeout: float = 15.0) -> tuple[int, str]:
    """The session blocked on a lock whose query contains ``fragment`` (the worker's)."""
    return wait_for(  # type: ignore[no-any-return]
        lambda: next((w for w in lock_waiters() if fragment in w[1]), None), timeout=timeout
    )


def table(model: Any) -> str:
    return str(model._meta.db_table)


# --- threads hitting the API together ---


def run_together(calls: list[Callable[[], Any]], timeout: float = 60.0) -> list[Any]:
    """Run ``calls`` in threads released at once; each thread uses and closes its own DB session."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=timeout)
            results[index] = call()
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(t.is_alive() for t in threads), "a request thread hung"
    if errors:
        raise errors[0]
    return results


# --- what must hold after any fault ---


def assert_consistent(case: KindCase, competition_id: int) -> dict[str, Any]:
    """Every event with results resolved, one snapshot per resolved event equal to a fresh
    computation from the stored results, every version kept and numbered 1..version."""
    kind = case.kind
    competition = kind.competition_model.objects.get(pk=competition_id)
    events = list(kind.event_model.objects.filter(competition=competition).order_by("number"))
    with_results = [e for e in events if e.has_results]
    assert [e.status for e in with_results] == ["resolved"] * len(with_results)
    snapshots = list(
        kind.snapshot_model.objects.filter(competition=competition).order_by("number", "pk")
    )
    assert [s.number for s in snapshots] == [e.number for e in with_results], "snapshot rows"
    fresh = kind.compute_snapshots(competition, with_results)
    assert [s.data for s in snapshots] == fresh, "stored standings differ from a fresh computation"
    for event in with_results:
        versions = list(
            kind.version_model.objects.filter(event=event)
            .order_by("number")
            .values_list("number", "rows")
        )
        assert [n for n, _rows in versions] == list(range(1, event.version + 1))
        assert versions[-1][1] == event.results, "the current results are the latest version"
    assert competition.standings_through == (with_results[-1].number if with_results else None)
    return {"events": len(with_results), "snapshots": len(snapshots)}


# --- a private Redis server that a test may stop (never the shared one on 6379) ---


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateRedis:
    """``redis-server`` on a free port, without persistence: stopping it loses every message."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self.answers, timeout=10, interval=0.05)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def kill(self) -> None:
        """SIGKILL: Redis dies at once, mid-command, without closing its clients politely."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def private_redis(services_ready: None, tmp_path: Path) -> Iterator[PrivateRedis]:
    if not os.access(REDIS_SERVER, os.X_OK):
        pytest.skip(f"{REDIS_SERVER} is not installed: the broker-outage test starts its own Redis")
    redis = PrivateRedis(tmp_path)
    redis.start()
    yield redis
    redis.stop()


def elapsed(since: float) -> float:
    return round(time.monotonic() - since, 2)


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Callable[..., None]:
    """Record what a fault test showed: printed, and appended to ``var/fault-figures.jsonl``."""

    def write(**data: Any) -> None:
        line = json.dumps({"test": request.node.name, **data}, default=str)
        print(line)
        path = ROOT / "var" / "fault-figures.jsonl"
        path.parent.mkdir(exist_ok=True)
        with path.open("a") as out:
            out.write(line + "\n")

    return write
