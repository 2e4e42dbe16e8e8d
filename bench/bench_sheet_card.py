"""Benchmark: the time to make a tour's printable sheet (PDF) and a share card (PNG).

Builds (once; later runs reuse it) a 21-stage, 6-team public tour with every stage resolved in
the configured database (``DATABASE_URL``, default the embedded SQLite file) — the same tour as
``bench_pages.py`` — then makes its sheet and the card of its last stage N times each, the way
the worker and the card view do (``store.make_sheet`` path without the cache: build + render),
and prints the median and best wall time and this process's CPU time per sheet and per card,
the sheet's pages and size, and the card's size.

    DEBUG=1 .venv/bin/python bench/bench_sheet_card.py [--sheets 5] [--cards 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
# The tour is built by resolving its stages in-process: without forecasts (their Monte Carlo
# would be most of the build, and is not what this measures).
os.environ.setdefault("PODIUM_FORECASTS", "false")

import django  # noqa: E402

django.setup()

from bench.bench_pages import STAGES, TEAMS, bench_tour  # noqa: E402
from tournament.competitions.kinds import get_kind  # noqa: E402
from tournament.printouts import cards  # noqa: E402
from tournament.printouts.sheets import render_pdf  # noqa: E402
from tournament.printouts.views import _card_queryset  # noqa: E402
from tournament.web import pages  # noqa: E402


def timed(run: object, count: int) -> tuple[list[float], list[float], object]:
    walls, cpus, result = [], [], None
    for _ in range(count):
        wall, cpu = time.perf_counter(), time.process_time()
        result = run()  # type: ignore[operator]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, result


def report(name: str, walls: list[float], cpus: list[float]) -> None:
    print(
        f"{name}: median {statistics.median(walls) * 1000:.0f} ms, best {min(walls) * 1000:.0f} ms"
        f" wall; median CPU {statistics.median(cpus) * 1000:.0f} ms (n={len(walls)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=5)
    parser.add_argument("--cards", type=int, default=20)
    args = parser.parse_args()
    tour = bench_tour()
    print(f"tour {tour.pk}: {STAGES} stages, {TEAMS} teams ({2 * TEAMS} riders)")
    render_pdf("tour", tour.pk, "en")  # warm: WeasyPrint's imports and fonts, once a process
    walls, cpus, result = timed(lambda: render_pdf("tour", tour.pk, "en"), args.sheets)
    pdf = result[0]  # type: ignore[index]
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(pdf)
        file.flush()
        info = subprocess.run(["pdfinfo", file.name], capture_output=True, text=True).stdout
    page_count = next((x.split()[1] for x in info.splitlines() if x.startswith("Pages:")), "?")
    report("sheet (build + WeasyPrint)", walls, cpus)
    print(f"sheet: {page_count} A4 pages, {len(pdf) / 1024:.0f} KiB")

    kind = get_kind("tour")

    def card() -> bytes:
        competition = _card_queryset("tour").get(pk=tour.pk)
        event = kind.event_model.objects.get(competition=competition, number=STAGES)
        snapshot = pages.event_snapshot(kind, competition, event)
        return cards.draw_card(cards.tour_card(competition, event, snapshot or {}))

    card()
    walls, cpus, png = timed(card, args.cards)
    report("card (queries + Pillow)", walls, cpus)
    print(f"card: 1200x630 PNG, {len(png) / 1024:.0f} KiB")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
