"""Live updates end to end: uvicorn serving the stream, a real Celery worker resolving.

The worker (its own process, like ``worker`` in docker/compose.yaml) publishes on Redis after
the commit; the ASGI process (``uvicorn tournament.live.asgi:application``, the ``live``
service) relays to the open stream. Both point at the test database, which the test commits to.
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.conftest import stage_rows, tour_payload
from tests.integration.conftest import ROOT, require_worker_services, service_env
from tournament.clubs.models import Club, Membership, Role

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: API.md: within 2 seconds of the resolution; the worker's own time comes on top.
DEADLINE = 10.0


@pytest.fixture
def api() -> dict[str, APIClient]:
    club = Club.objects.create(name="Velo Club Lisboa", slug="velo-lisboa")
    clients = {}
    for role in (Role.ORGANISER, Role.SCOREKEEPER):
        user = get_user_model().objects.create_user(f"live-{role}", password="x-correct-horse")
        Membership.objects.create(club=club, user=user, role=role)
        clients[str(role)] = APIClient()
        clients[str(role)].force_authenticate(user)
    return clients


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def live_server_asgi(celery_worker_process: dict[str, Any]) -> Iterator[str]:
    """``uvicorn tournament.live.asgi:application`` on a free port, against the test database."""
    require_worker_services()
    port = free_port()
    env = service_env(
        celery_worker_process["queue"],
        PODIUM_LIVE_KEEPALIVE_SECONDS="1",
        ALLOWED_HOSTS="127.0.0.1",
    )
    log = (ROOT / "var" / "uvicorn-live-test.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tournament.live.asgi:application",
         "--host", "127.0.0.1", "--port", str(port), "--timeout-graceful-shutdown", "1",
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError as exc:
                if process.poll() is not None:
                    log_text = (ROOT / "var" / "uvicorn-live-test.log").read_text()
                    raise RuntimeError(log_text) from exc
                time.sleep(0.05)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


class EventStream:
    """A plain HTTP client of one event stream (what a browser's EventSource reads)."""

    def __init__(self, host: str, path: str) -> None:
        self.connection = http.client.HTTPConnection(host, timeout=DEADLINE)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()

    def next_block(self) -> str:
        """The next event or comment: lines up to a blank one."""
        lines = []
        while True:
            line = self.response.readline().decode()
            if line in ("\n", ""):
                if lines or line == "":
                    return "".join(lines)
                continue
            lines.append(line)

    def next_standings(self, seen: list[str]) -> dict[str, Any]:
        while True:
            block = self.next_block()
            seen.append(block)
            if block.startswith("event: standings"):
                data = next(line for line in block.splitlines() if line.startswith("data: "))
                return json.loads(data.removeprefix("data: "))  # type: ignore[no-any-return]

    def close(self) -> None:
        self.connection.close()


def test_the_stream_delivers_what_a_real_worker_resolved(
    real_worker: dict[str, Any], api: dict[str, APIClient], live_server_asgi: str
):
    tour = api["organiser"].post("/api/tours/", tour_payload(), format="json").json()
    stream = EventStream(live_server_asgi, f"/api/tours/{tour['id']}/events/?since=0")
    assert stream.response.status == 200
    assert stream.response.getheader("Content-Type") == "text/event-stream"
    seen = [stream.next_block()]
    assert seen[0].startswith("retry: ")
    try:
        timings = []
        for number in (1, 2):
            started = time.monotonic()
            answer = api["scorekeeper"].post(
                f"/api/tours/{tour['id']}/stages/{number}/results/",
                {"results": stage_rows(tour)},
                format="json",
            )
            assert answer.status_code == 202 and answer.json()["status"] == "submitted"
            data = stream.next_standings(seen)
            timings.append(time.monotonic() - started)
            assert data["after_stage"] == number and data["version"] == number
        # The second one is the worker's own message through Redis (the first may also be
        # the stream's catch-up read, if the worker was quicker than the stream's subscription).
        assert data == {"after_stage": 2, "version": 2, "event": 2, "outcome": "resolved"}
        assert max(timings) < DEADLINE
        # Nothing more happens: comment lines keep the connection open (every 1 s here).
        assert stream.next_block() == ": keep-alive\n"
    finally:
        stream.close()
    # A private competition's stream is a 404 from the live service too.
    hidden = api["organiser"].post("/api/tours/", tour_payload(public=False), format="json")
    refused = EventStream(live_server_asgi, f"/api/tours/{hidden.json()['id']}/events/")
    assert refused.response.status == 404
    refused.close()
