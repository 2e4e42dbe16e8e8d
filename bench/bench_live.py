"""Benchmark: live updates. Latency from a resolution's commit to its event at a client, and
the memory an ASGI process spends on idle viewers.

Starts ``uvicorn tournament.live.asgi:application`` (the ``live`` service of
docker/compose.yaml) against the configured PostgreSQL and Redis, builds a small tour, then:

1. **latency**: one viewer follows the tour's stream; the benchmark resolves stage 1 again and
   again (each a new results version, resolved in-process as a worker would, committed, then
   announced), waits for each event before the next, and reports the median and p99 of the time
   from the announcement (sent right after the commit) to the event's arrival at the viewer:
   Redis publish, the live process's bridge, its hub, the stream, the socket;
2. **idle viewers**: opens ``--viewers`` streams at once on the one process, reads their first
   bytes, and reports its resident memory before and after (``/proc/<pid>/status`` VmRSS) and
   the time for one more resolution to reach all of them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/podium REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python bench/bench_live.py [--resolutions 100] [--viewers 200]

Forecasts are turned off (``PODIUM_FORECASTS=0``): they would add their own work to every
resolution, and they are measured by bench/bench_forecast*.py.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ["PODIUM_FORECASTS"] = "0"
os.environ.setdefault("DEBUG", "1")  # the development SECRET_KEY; nothing measured depends on it

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

from tests.web.builders import build_tour  # noqa: E402
from tournament.celery import app as celery_app  # noqa: E402
from tournament.clubs.models import Club  # noqa: E402
from tournament.competitions.kinds import get_kind  # noqa: E402
from tournament.competitions.services import submit_results  # noqa: E402
from tournament.competitions.signals import standings_changed  # noqa: E402
from tournament.live import receivers  # noqa: E402
from tournament.tours.demo import demo_results  # noqa: E402
from tournament.tours.models import Rider  # noqa: E402

#: Viewers connecting at once while the benchmark opens them.
BATCH = 20


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_live(port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1", "DATABASE_CONN_MAX_AGE": "60"}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tournament.live.asgi:application", "--host",
         "127.0.0.1", "--port", str(port), "--timeout-graceful-shutdown", "1",
         "--log-level", "warning", "--backlog", "4096"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("uvicorn did not start")


class Viewer(threading.Thread):
    """One EventSource-like client recording when each standings version arrives."""

    def __init__(self, port: int, path: str) -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.arrived: dict[int, float] = {}
        self.changed = threading.Condition()

    def run(self) -> None:
        event = None
        while True:
            try:
                line = self.response.readline().decode()
            except (OSError, AttributeError):  # closed by the benchmark
                return
            if not line:
                return
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: ") and event == "standings":
                version = json.loads(line[6:])["version"]
                with self.changed:
                    self.arrived[version] = time.perf_counter()
                    self.changed.notify_all()

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        with self.changed:
            if not self.changed.wait_for(lambda: version in self.arrived, timeout):
                raise RuntimeError(f"version {version} never arrived")
            return self.arrived[version]


def resolve_again(tour: Any, riders: list[Any], seed: int) -> None:
    """A new results version of stage 1: committed, resolved eagerly, then announced."""
    import random

    submit_results(
        kind=get_kind("tour"),
        competition_id=tour.pk,
        number=1,
        rows=demo_results(riders, random.Random(seed), "flat"),
        by=None,
    )


def measure_latency(tour: Any, port: int, count: int, announced: dict[int, float]) -> list[float]:

    def stamp(sender: Any, change: Any, **kwargs: Any) -> None:
        if change.competition_id == tour.pk:
            announced[change.version] = time.perf_counter()

    # The stamp must run before the live receiver publishes: connect it first.
    standings_changed.disconnect(dispatch_uid="live.standings")
    standings_changed.connect(stamp, dispatch_uid="bench.stamp")
    receivers.connect()
    riders = list(Rider.objects.filter(team__tour=tour).order_by("team__order", "role"))
    tour.refresh_from_db()
    viewer = Viewer(port, f"/api/tours/{tour.pk}/events/?since={tour.standings_version}")
    viewer.start()
    time.sleep(0.5)  # the live process's bridge subscribes with its first viewer
    latencies = []
    for n in range(count):
        resolve_again(tour, riders, seed=1000 + n)
        version = max(announced)
        latencies.append(viewer.wait_for(version) - announced[version])
    viewer.connection.close()
    return latencies


async def open_viewers(port: int, path: str, count: int) -> list[Any]:
    async def one() -> Any:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        assert b" 200 " in head.split(b"\r\n")[0], head
        await reader.readuntil(b"\n\n")  # the prelude: this viewer's stream is open
        return reader, writer

    # In batches: each connection's view runs in a thread of its own with a database connection
    # for the visibility check, which it closes before streaming; a burst of hundreds at once
    # would need as many PostgreSQL connections for that moment (docs/live.md).
    opened: list[Any] = []
    for start in range(0, count, BATCH):
        opened += await asyncio.gather(*(one() for _ in range(min(BATCH, count - start))))
    return opened


async def fan_out(viewers: list[Any], resolve: Any, announced: dict[int, float]) -> list[float]:
    """Seconds from the resolution's announcement to its event at each viewer."""

    async def until_standings(reader: Any) -> tuple[int, float]:
        while True:
            block = await asyncio.wait_for(reader.readuntil(b"\n\n"), 30)
            if b"event: standings" in block:
                data = next(x for x in block.decode().splitlines() if x.startswith("data: "))
                return json.loads(data[6:])["version"], time.perf_counter()

    waits = [asyncio.ensure_future(until_standings(r)) for r, _ in viewers]
    await asyncio.to_thread(resolve)
    arrived = await asyncio.gather(*waits)
    return [at - announced[version] for version, at in arrived]


def report(name: str, values: list[float]) -> None:
    ordered = sorted(values)
    p99 = ordered[max(0, round(0.99 * len(ordered)) - 1)]
    print(
        f"{name}: n={len(values)} median {statistics.median(values) * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resolutions", type=int, default=100)
    parser.add_argument("--viewers", type=int, default=200)
    args = parser.parse_args()
    if not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        sys.exit("bench_live needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)")
    call_command("migrate", verbosity=0)
    celery_app.conf.task_always_eager = True  # resolve in this process, as a worker would
    club, _ = Club.objects.get_or_create(slug="bench-live", defaults={"name": "Bench Live"})
    user, _ = get_user_model().objects.get_or_create(username="bench-live")
    tour = build_tour(club=club, by=user, stages=3, resolved=1, name="Bench live")
    port = free_port()
    live = start_live(port)
    try:
        announced: dict[int, float] = {}
        latencies = measure_latency(tour, port, args.resolutions, announced)
        report("commit -> event at the client", latencies)
        path = f"/api/tours/{tour.pk}/events/"
        warm = Viewer(port, path)  # one stream first: the process has loaded what a stream needs
        warm.connection.close()
        time.sleep(0.3)
        before = rss_kib(live.pid)
        riders = list(Rider.objects.filter(team__tour=tour).order_by("team__order", "role"))

        async def viewers_run() -> tuple[int, list[float]]:
            started = time.perf_counter()
            viewers = await open_viewers(port, path, args.viewers)
            opened = time.perf_counter() - started
            await asyncio.sleep(1.0)
            held = rss_kib(live.pid)
            print(f"{args.viewers} idle viewers opened in {opened:.2f} s on one uvicorn process")
            waits = await fan_out(viewers, lambda: resolve_again(tour, riders, seed=7), announced)
            for _, writer in viewers:
                writer.close()
            return held, waits

        held, waits = asyncio.run(viewers_run())
        print(
            f"live process RSS: {before / 1024:.1f} MiB before, {held / 1024:.1f} MiB with "
            f"{args.viewers} viewers: {(held - before) / args.viewers:.1f} KiB per viewer"
        )
        report(f"one resolution -> all {args.viewers} viewers", waits)
    finally:
        live.terminate()
        live.wait(timeout=10)


if __name__ == "__main__":
    main()
