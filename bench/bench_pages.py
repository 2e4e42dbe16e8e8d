"""Benchmark: the tour page's server time and page weight for a 21-stage, 6-team tour.

Builds (once; later runs reuse it) a 21-stage, 6-team public tour with every stage resolved, in
the configured database (``DATABASE_URL``, default the embedded SQLite file), then requests
``/tours/<id>/`` N times with Django's test client as an anonymous reader and prints the median
server time (and this process's CPU time, steadier on a busy machine), the queries per
request, and the page weight: HTML, CSS and JS bytes (as served and
gzipped), separately and in total.

    DEBUG=1 .venv/bin/python bench/bench_pages.py [--requests 50] [--forecast]

``--forecast`` measures the tour's full forecast page (``/tours/<id>/forecast/``) instead. The
forecasts shown are those stored when the tour was built: build it with ``PODIUM_FORECASTS=1``
(on by default, off under ``PODIUM_TESTING``; 10,000 simulations after each of the 21 stages
take minutes) to measure the page a club sees. The load average is printed before and after,
since the host is shared.

``DEBUG=1`` only so that static files resolve without ``collectstatic`` and the development
``SECRET_KEY`` is accepted; the template, ORM and view work measured is the same.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.staticfiles import finders  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tests.web.builders import build_tour  # noqa: E402
from tournament.celery import app as celery_app  # noqa: E402
from tournament.clubs.models import Club, Membership, Role  # noqa: E402
from tournament.tours.models import Tour  # noqa: E402

STAGES, TEAMS = 21, 6
TOUR_NAME = "Bench 21 stages × 6 teams"


def bench_tour() -> Tour:
    """The benchmark tour, built through the services the first time."""
    club, _ = Club.objects.get_or_create(slug="bench-pages", defaults={"name": "Bench Club"})
    existing = Tour.objects.filter(club=club, name=TOUR_NAME, standings_through=STAGES).first()
    if existing is not None:
        return existing
    user, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    Membership.objects.get_or_create(club=club, user=user, defaults={"role": Role.ORGANISER})
    # Resolve in-process: the benchmark must not depend on (or leave messages for) a worker.
    celery_app.conf.task_always_eager = True
    started = time.perf_counter()
    tour = build_tour(
        club=club, by=user, stages=STAGES, teams=TEAMS, resolved=STAGES, name=TOUR_NAME, seed=21
    )
    print(f"built tour {tour.pk} in {time.perf_counter() - started:.1f} s")
    return tour


def asset_bytes(html: str) -> dict[str, tuple[int, int]]:
    """(bytes, gzipped bytes) of the CSS and JS files the page links, by kind."""
    sizes: dict[str, tuple[int, int]] = {"css": (0, 0), "js": (0, 0)}
    patterns = {
        "css": r'<link rel="stylesheet" href="/static/([^"]+)"',
        "js": r'<script src="/static/([^"]+)"',
    }
    for kind, pattern in patterns.items():
        for name in re.findall(pattern, html):
            path = finders.find(name)
            data = Path(path).read_bytes()
            raw, packed = sizes[kind]
            sizes[kind] = (raw + len(data), packed + len(gzip.compress(data, 9)))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--forecast", action="store_true", help="the full forecast page")
    args = parser.parse_args()
    tour = bench_tour()
    url = f"/tours/{tour.pk}/forecast/" if args.forecast else f"/tours/{tour.pk}/"
    load_before = os.getloadavg()
    client = Client()
    client.get(url)  # warm-up: template loading and compilation happen once per process
    timings, cpu = [], []
    for _ in range(args.requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    html = response.content
    assets = asset_bytes(html.decode())
    html_gz = len(gzip.compress(html, 9))
    total = len(html) + assets["css"][0] + assets["js"][0]
    total_gz = html_gz + assets["css"][1] + assets["js"][1]
    vendor = connection.vendor
    print(f"database: {vendor}; tour {tour.pk}: {STAGES} stages, {TEAMS} teams, all resolved")
    after = os.getloadavg()
    load = ", ".join(f"{a:.2f} → {b:.2f}" for a, b in zip(load_before, after, strict=True))
    print(f"load average (1, 5, 15 min) before → after: {load}")
    print(
        f"GET {url}  x{args.requests}: median {statistics.median(timings):.1f} ms, "
        f"p90 {statistics.quantiles(timings, n=10)[-1]:.1f} ms, min {min(timings):.1f} ms, "
        f"{len(queries)} queries"
    )
    # This process's CPU time per request (PostgreSQL's own work excluded): on a shared, busy
    # machine it moves far less than the wall-clock time above.
    print(
        f"CPU time of this process: median {statistics.median(cpu):.1f} ms, min {min(cpu):.1f} ms"
    )
    print(
        f"page weight: HTML {len(html)} B, CSS {assets['css'][0]} B, JS {assets['js'][0]} B, "
        f"total {total} B"
    )
    print(
        f"gzipped:     HTML {html_gz} B, CSS {assets['css'][1]} B, JS {assets['js'][1]} B, "
        f"total {total_gz} B"
    )


if __name__ == "__main__":
    main()
