"""Benchmark: the player page's server time and queries for a player with 20 competitions.

Builds (once; later runs reuse it) a club "bench-players" whose player Ana entered 20 public
competitions of every game against Rui (tours of 3 stages, Formula D championships and leagues
of 3 races, rallies of 3 stages; hand-made rows and standings, tests/players/builders.py), in the
configured database (``DATABASE_URL``), then requests, as an anonymous reader, N times each:

- ``/clubs/bench-players/players/<ana>/?vs=<rui>`` (record, best results, head-to-head, charts);
- ``/clubs/bench-players/hall-of-fame/``;

and prints per page the median server time in CPU time (``time.process_time``: the machine's
cores are shared, wall time is noise) and wall time, and the queries per request.

    PODIUM_TESTING=1 .venv/bin/python bench/bench_player_page.py [--requests 30] [--competitions 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tests.players import builders  # noqa: E402
from tournament.clubs.models import Club  # noqa: E402
from tournament.players.models import Player  # noqa: E402


def bench_players(competitions: int) -> tuple[Player, Player]:
    club, _ = Club.objects.get_or_create(slug="bench-players", defaults={"name": "Bench Players"})
    ana, _ = Player.objects.get_or_create(club=club, key="ana", defaults={"name": "Ana"})
    rui, _ = Player.objects.get_or_create(club=club, key="rui", defaults={"name": "Rui"})
    have = len(builders_made(club))
    for n in range(have, competitions):
        name = f"Bench {n + 1}"
        if n % 3 == 0:
            builders.tour(club, name, [ana, rui], [[0, 1], [1, 0], [0, 1]], yellow=[0, 1, 0])
        elif n % 3 == 1:
            builders.championship(club, name, [ana, rui], [[0, 1], [1, 0], [0, 1]])
        else:
            builders.rally(club, name, [ana, rui], [[300, 310], [320, 300], [290, 295]])
    return ana, rui


def builders_made(club: Club) -> list[str]:
    from tournament.championships.models import Championship
    from tournament.rallies.models import Rally
    from tournament.tours.models import Tour

    names: list[str] = []
    for model in (Tour, Championship, Rally):
        names += model.objects.filter(club=club).values_list("name", flat=True)
    return names


def measure(client: Client, url: str, requests: int) -> str:
    client.get(url)  # warm-up
    cpu, wall = [], []
    for _ in range(requests):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return (
        f"GET {url} x{requests}: median {statistics.median(cpu):.1f} ms CPU "
        f"({statistics.median(wall):.1f} ms wall), {len(queries)} queries per request"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--competitions", type=int, default=20)
    args = parser.parse_args()
    ana, rui = bench_players(args.competitions)
    client = Client()
    print(f"{args.competitions} competitions")
    print(measure(client, f"/clubs/bench-players/players/{ana.pk}/?vs={rui.pk}", args.requests))
    print(measure(client, "/clubs/bench-players/hall-of-fame/", args.requests))


if __name__ == "__main__":
    main()
