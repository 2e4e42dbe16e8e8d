"""Redis down at submission: results are stored and answered; beat's sweeper resolves them later.

A private ``redis-server`` (never the shared one) is the broker and cache of a real web server
(gunicorn) started for the test. It is stopped, results are posted over HTTP, and it is started
again empty (no persistence: the outage lost every message); then a worker and ``celery beat`` run
and the sweeper must find every stage left behind.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.faults.conftest import (
    ROOT,
    KindCase,
    PrivateRedis,
    assert_consistent,
    elapsed,
    free_port,
    kinds,
    new_queue,
    service_env,
    start_beat,
    wait_for,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# A submission with the broker down must not hang on it (settings: fail-fast transport options).
ANSWER_WITHIN_SECONDS = 1.5


class WebServer:
    """gunicorn serving Podium on a free port with the given environment."""

    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.log_path = ROOT / "var" / f"web-{self.port}.log"
        self._log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "tournament.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "1",
                "--threads",
                "2",
                "--timeout",
                "30",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        wait_for(lambda: self._up(), timeout=30, interval=0.1)

    def _up(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(self.log_path.read_text()[-2000:])
        try:
            return self.request("GET", "/api/clubs/")[0] == 200
        except OSError:
            return False

    def request(self, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
        if token:
            headers["Authorization"] = f"Token {token}"
        try:
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = conn.getresponse()
            data = response.read()
            return response.status, json.loads(data) if data else None
        finally:
            conn.close()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self._log.close()


@pytest.fixture
def stack(private_redis: PrivateRedis, db: Any, tmp_path: Any) -> Iterator[dict[str, Any]]:
    """Web, worker and beat environments on the private Redis; processes stopped after the test."""
    queue = new_queue("broker")
    env = service_env(
        queue,
        REDIS_URL=private_redis.url,
        PODIUM_SWEEP_SECONDS="1",
        PODIUM_SWEEP_AFTER_SECONDS="1",
        CACHE_KEY_PREFIX=queue,
    )
    started: list[Any] = []
    web = WebServer(env)
    started.append(web)
    yield {"queue": queue, "env": env, "web": web, "started": started, "tmp": tmp_path}
    for process in reversed(started):
        process.stop()


@pytest.mark.parametrize("case", kinds("championship"))
def test_broker_down_at_submission_then_the_sweeper_resolves_everything(
    case: KindCase,
    cast: dict[str, Any],
    private_redis: PrivateRedis,
    stack: dict[str, Any],
    workers: Any,
    figures: Any,
) -> None:
    web = stack["web"]
    token = Token.objects.create(user=cast["scorekeeper"]).key
    first, second = case.create(cast["api"]), case.create(cast["api"])
    left_behind = [(first["id"], 1), (first["id"], 2), (second["id"], 1)]

    private_redis.stop()
    answer_times = []
    for cid, number in left_behind:
        detail = first if cid == first["id"] else second
        started = time.monotonic()
        code, body = web.request(
            "POST",
            case.results_url(cid, number),
            {"results": case.rows(detail, number)},
            token=token,
        )
        answer_times.append(elapsed(started))
        assert code == 202, body
        assert body["status"] == "submitted" and body["version"] == 1
    assert max(answer_times) < ANSWER_WITHIN_SECONDS
    # Stored, and nothing resolves them while the broker is away.
    time.sleep(1.5)
    for cid, number in left_behind:
        code, body = web.request("GET", case.event_url(cid, number))
        assert (code, body["status"], body["version"]) == (200, "submitted", 1)
        assert len(body["results"]) == len(case.rows(first, number))

    private_redis.start()  # empty: the outage lost whatever the broker held
    back = time.monotonic()
    workers(stack["queue"], stack["env"], name=f"{stack['queue']}-w")
    stack["started"].append(start_beat(stack["queue"], stack["env"], stack["tmp"] / "beat"))

    def resolved() -> bool:
        return all(
            web.request("GET", case.event_url(cid, n))[1]["status"] == "resolved"
            for cid, n in left_behind
        )

    wait_for(resolved, timeout=30, interval=0.2)
    resolved_in = elapsed(back)
    for cid in (first["id"], second["id"]):
        assert_consistent(case, cid)
    beat_log = (ROOT / "var" / f"beat-{stack['queue']}.log").read_text()
    assert "sweep_pending" in beat_log
    figures(
        answer_times_s=answer_times,
        left_behind=len(left_behind),
        resolved_after_broker_back_s=resolved_in,
    )
