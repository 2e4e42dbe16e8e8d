"""How often the Tour Points statuses stay unproven (``exact=False``), on random small tours.

Tour Points is the one title whose exact method has a gap (docs/forecasts.md): an entrant that
neither the pairwise tests, the relaxation nor a scored scenario decides stays ``open`` with
``exact=False``. This counts them over random tours of 2-4 teams with 1-2 stages left (random
finishing orders, time gaps and tokens so far; a Major sprint and a Minor mountain stack on each
remaining stage).

    .venv/bin/python bench/bench_forecast_tour_points.py [--tours 300]
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.forecast.grand_tour import GrandTour, StageTokens, grand_tour_statuses
from scoring.grand_tour import (
    GrandTourRules,
    Rider,
    RiderResult,
    StageResults,
    Team,
    TourSetup,
)

RULES = GrandTourRules(timing_tile=False)


def setup(teams: int, stages: int, rest: int, seed: int) -> TourSetup:
    return TourSetup(
        seed,
        tuple(
            Team(
                t,
                f"T{t}",
                (
                    Rider(10 * t + 1, f"R{t}", t, "rouleur"),
                    Rider(10 * t + 2, f"S{t}", t, "sprinteur"),
                ),
            )
            for t in range(1, teams + 1)
        ),
        stages,
        frozenset({rest}),
    )


def stage(rng: random.Random, riders: list[int], number: int) -> StageResults:
    order = riders[:]
    rng.shuffle(order)
    rows, clock = [], 0
    for position, rider in enumerate(order, start=1):
        clock += rng.choice([0, 10, 60])
        rows.append(
            RiderResult(
                rider,
                position,
                clock // 60,
                clock % 60,
                rng.choice([0, 0, 2, 4]),
                rng.choice([0, 0, 1, 3]),
            )
        )
    return StageResults(number, tuple(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tours", type=int, default=300)
    args = parser.parse_args()
    counts: collections.Counter[tuple[str, bool]] = collections.Counter()
    t0 = time.perf_counter()
    for seed in range(args.tours):
        rng = random.Random(1000 + seed)
        teams, total, left = rng.choice([2, 3, 4]), rng.choice([3, 5, 8]), rng.choice([1, 1, 2])
        tour_setup = setup(teams, total, rng.randint(1, total - 1), seed)
        riders = [r.id for r in tour_setup.riders]
        stages = tuple(stage(rng, riders, n) for n in range(1, total - left + 1))
        tokens = (StageTokens(((4, 3, 2),), ((3, 1),)),) * left
        tour = GrandTour(tour_setup, stages, RULES, tokens)
        for row in grand_tour_statuses(tour)["tour_points"].entrants:
            counts[row.status, row.exact] += 1
    total_rows = sum(counts.values())
    print(f"{args.tours} tours, {total_rows} entrants ({time.perf_counter() - t0:.0f} s)")
    for (status, exact), count in sorted(counts.items()):
        print(f"  {status:<10} {'proven' if exact else 'UNPROVEN':<9} {count}")


if __name__ == "__main__":
    main()
