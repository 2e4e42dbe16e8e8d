"""Benchmark: the player page's server time and queries for a player with 20 competitions.

Builds (once; later runs reuse it) a club "bench-players" with a player who drove 20 public
rallies (entries linked to the player, no results: the page's queries do not depend on them,
the record reads one row of standings per competition), in the configured database
(``DATABASE_URL``), then requests ``/clubs/bench-players/players/<id>/`` N times as an anonymous
reader and prints the median server time and the queries per request.

    DEBUG=1 .venv/bin/python bench/bench_player_page.py [--requests 30] [--competitions 20]
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

from tournament.clubs.models import Club  # noqa: E402
from tournament.players.models import Player  # noqa: E402
from tournament.rallies.models import Driver, Rally  # noqa: E402


def bench_player(competitions: int) -> Player:
    club, _ = Club.objects.get_or_create(slug="bench-players", defaults={"name": "Bench Players"})
    player, _ = Player.objects.get_or_create(club=club, key="ana", defaults={"name": "Ana"})
    have = Driver.objects.filter(club_player=player).count()
    for n in range(have, competitions):
        rally = Rally.objects.create(club=club, name=f"Bench rally {n + 1}", public=True)
        Driver.objects.create(rally=rally, order=1, name="Ana", club_player=player)
        Driver.objects.create(rally=rally, order=2, name="Rui")
    return player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--competitions", type=int, default=20)
    args = parser.parse_args()
    player = bench_player(args.competitions)
    url = f"/clubs/bench-players/players/{player.pk}/"
    client = Client()
    client.get(url)  # warm-up
    timings = []
    for _ in range(args.requests):
        started = time.perf_counter()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    print(
        f"GET {url} ({args.competitions} competitions) x{args.requests}: "
        f"median {statistics.median(timings):.1f} ms, {len(queries)} queries per request"
    )


if __name__ == "__main__":
    main()
