"""Benchmark: standings reads through gunicorn, and stage resolution, on PostgreSQL.

Builds a 21-stage, 6-team tour, resolves every stage (timing the worker's service call), then
serves Podium under gunicorn and measures ``GET /api/tours/{id}/standings/`` — median and p99
latency for one client, and requests per second with 8 concurrent clients (``wrk`` when it is
installed, else a threaded Python client) — and the same for a bare DRF view returning a payload
of the same size, and prints the ratio.

    .venv/bin/python bench/bench_standings.py    # DATABASE_URL defaults to a local podium_bench
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/podium_bench"
os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
os.environ.setdefault("SECRET_KEY", "bench-only-key")
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.bench_settings"
os.environ.pop("REDIS_URL", None)  # tasks in-process while building; the resolve is timed apart


def ensure_database(url: str) -> None:
    """Create the benchmark database on the PostgreSQL server if it does not exist."""
    if not url.startswith("postgres"):
        return
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def build_tour(stages: int, teams: int) -> tuple[int, list[float], float]:
    """Create and resolve the tour; return its id, per-stage resolve times and a correction time."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournament.celery import app as celery_app
    from tournament.clubs.models import Club
    from tournament.competitions import services as workflow
    from tournament.competitions.kinds import get_kind
    from tournament.tours.demo import demo_results
    from tournament.tours.models import Rider, Stage
    from tournament.tours.setup import TourSetupSerializer

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench", is_superuser=True)
    club, _ = Club.objects.get_or_create(slug="bench", defaults={"name": "Bench"})
    # 6 teams (12 riders) need a Peloton start tile: the 5-6 player courses of FR-11.
    courses = [
        "^123gMRPkeqos4cDHjT^9niu",
        "^12h4oIcQDF3prsejLktg^9u",
        "12^93p5^7okjq4e8^6hgirsTu",
        "^12h4^9Lopc5^6r3gqJksteIU",
    ]
    setup = TourSetupSerializer(
        data={
            "stages": [
                {"name": f"Stage {n}", "course": courses[n % len(courses)]}
                for n in range(1, stages + 1)
            ],
            "rest_days_after": [7, 14],
            "teams": [
                {
                    "name": f"Team {t}",
                    "player": f"P{t}",
                    "riders": [
                        {"name": f"R{t}", "role": "rouleur"},
                        {"name": f"S{t}", "role": "sprinteur"},
                    ],
                }
                for t in range(1, teams + 1)
            ],
        }
    )
    setup.is_valid(raise_exception=True)
    kind = get_kind("tour")
    tour = workflow.create_competition(
        kind=kind,
        club=club,
        name="Benchmark Tour",
        public=True,
        seed=7,
        setup=setup.validated_data,
        by=user,
    )
    riders = list(Rider.objects.filter(team__tour=tour).order_by("team__order", "role"))
    rng = random.Random(7)
    celery_app.conf.task_always_eager = False  # queued into memory://; we call the service
    celery_app.conf.broker_url = "memory://"
    times = []
    for stage in Stage.objects.filter(competition=tour).order_by("number"):
        workflow.submit_results(
            kind=kind,
            competition_id=tour.pk,
            number=stage.number,
            rows=demo_results(riders, rng, stage.finish),
            by=user,
        )
        start = time.perf_counter()
        assert workflow.resolve_event(kind=kind, event_id=stage.pk) == "resolved"
        times.append(time.perf_counter() - start)
    first = Stage.objects.get(competition=tour, number=1)
    workflow.submit_results(
        kind=kind,
        competition_id=tour.pk,
        number=1,
        rows=demo_results(riders, rng, first.finish),
        by=user,
    )
    start = time.perf_counter()
    assert workflow.resolve_event(kind=kind, event_id=first.pk) == "resolved"
    correction = time.perf_counter() - start
    return tour.pk, times, correction


def sequential_latency(port: int, path: str, count: int) -> list[float]:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        samples.append(time.perf_counter() - start)
        if response.getheader("Connection", "").lower() == "close" or response.will_close:
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.close()
    return samples


def throughput(port: int, path: str, seconds: int, clients: int) -> tuple[float, str]:
    """Requests per second with ``clients`` concurrent connections."""
    wrk = shutil.which("wrk")
    url = f"http://127.0.0.1:{port}{path}"
    if wrk:
        out = subprocess.run(
            [wrk, "-t", "2", "-c", str(clients), "-d", f"{seconds}s", url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        match = re.search(r"Requests/sec:\s+([\d.]+)", out)
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        if errors:
            raise SystemExit(f"{path}: {errors.group(1)} error responses")
        return float(match.group(1)) if match else 0.0, "wrk"
    count = [0]
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def client() -> None:
        done = 0
        while time.monotonic() < stop:
            done += len(sequential_latency(port, path, 10))
        with lock:
            count[0] += done

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return count[0] / seconds, "python threads"


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stages", type=int, default=21)
    parser.add_argument("--teams", type=int, default=6)
    parser.add_argument("--requests", type=int, default=2000, help="sequential requests")
    parser.add_argument("--seconds", type=int, default=10, help="duration of each load run")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    args = parser.parse_args()

    if not args.port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            args.port = probe.getsockname()[1]
    ensure_database(os.environ["DATABASE_URL"])
    tour_id, resolve_times, correction = build_tour(args.stages, args.teams)
    standings_path = f"/api/tours/{tour_id}/standings/"

    from django.test import Client

    payload = Client(HTTP_HOST="127.0.0.1").get(standings_path).content
    payload_file = Path(tempfile.mkstemp(suffix=".json")[1])
    payload_file.write_bytes(payload)
    env = {**os.environ, "BENCH_PAYLOAD_FILE": str(payload_file), "LOG_LEVEL": "WARNING"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tournament.wsgi",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                sequential_latency(args.port, "/bench/bare/", 1)
                break
            except OSError:
                time.sleep(0.1)
        results = {}
        for label, path in (("standings", standings_path), ("bare DRF view", "/bench/bare/")):
            sequential_latency(args.port, path, 200)  # warm-up: connections, caches
            samples = sequential_latency(args.port, path, args.requests)
            rps, tool = throughput(args.port, path, args.seconds, args.clients)
            results[label] = (statistics.median(samples), percentile(samples, 0.99), rps, tool)
    finally:
        server.terminate()
        server.wait(timeout=10)
        payload_file.unlink()

    print(f"tour: {args.stages} stages, {args.teams} teams; standings payload {len(payload)} bytes")
    print(
        f"database: {os.environ['DATABASE_URL'].split('@')[-1]}; gunicorn workers: {args.workers}"
    )
    for label, (median, p99, rps, tool) in results.items():
        print(
            f"{label:>14}: median {median * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms (1 client, "
            f"{args.requests} requests); {rps:,.0f} req/s with {args.clients} clients ({tool})"
        )
    ratio = results["standings"][2] / results["bare DRF view"][2]
    print(f"throughput ratio standings / bare view: {ratio:.2f}")
    print(
        f"resolve one stage (worker service call): median "
        f"{statistics.median(resolve_times) * 1000:.1f} ms, max {max(resolve_times) * 1000:.1f} ms"
        f" over {len(resolve_times)} stages"
    )
    print(f"correction of stage 1 (recomputes {args.stages} stages): {correction * 1000:.1f} ms")


if __name__ == "__main__":
    main()
