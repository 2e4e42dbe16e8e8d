"""Benchmark: exact "who can still win" statuses of a 10-race, 12-driver championship (issue #17).

The issue's target: exact statuses for a 10-race championship of 12 drivers after race 5 in
under 1 s. Races come from a Plackett–Luce generator with known strengths (bench/_common.py);
f1-2010 points, drop-worst 1. Each configuration is timed over ``--seeds`` generated
championships: every title of the competition (drivers, and teams when it has them), CPU time
(``time.process_time``, steady on a shared host) and wall time; the table gives the median and
the worst. Configurations: FD-71 on and off (off makes the integer program work: every car
scores), with and without 6 teams of 2, with a pole bonus, with entry lists that leave drivers
out of the remaining races, and the same after races 8 and 9, when drivers start to be
eliminated.

    .venv/bin/python bench/bench_forecast_exact.py [--seeds 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import plackett_luce_races
from scoring.forecast.points import PointsChampionship, points_statuses
from scoring.points import Entrant, Finish, Race, Scale

F1_2010 = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


def championship(
    seed: int,
    *,
    played: int,
    finishers_only: bool,
    teams: bool,
    pole_bonus: int = 0,
    entry_lists: bool = False,
) -> PointsChampionship:
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0, 0.8, 12)
    entrants = tuple(
        Entrant(i + 1, f"Driver {i + 1}", f"Team {i // 2 + 1}" if teams else None)
        for i in range(12)
    )
    races: list[Race] = list(plackett_luce_races(rng, strengths, played))
    if pole_bonus:
        races = [
            Race(
                r.number,
                tuple(
                    Finish(f.driver, f.position, f.status, pole_bonus if f.position == 1 else 0)
                    for f in r.finishes
                ),
            )
            for r in races
        ]
    entries: tuple[tuple[int, ...] | None, ...] = ()
    if entry_lists:
        # each remaining race leaves out two drivers at random
        entries = tuple(
            tuple(sorted(int(d) for d in rng.choice(np.arange(1, 13), 10, replace=False)))
            for _ in range(10 - played)
        )
    scale = Scale(F1_2010, finishers_only, drop_worst=1)
    return PointsChampionship(
        entrants, tuple(races), scale, 10, pole_bonus=pole_bonus, entries=entries
    )


CONFIGS: tuple[tuple[str, dict[str, object]], ...] = (
    ("FD-71 on, no teams", {"finishers_only": True, "teams": False}),
    ("FD-71 on, 6 teams", {"finishers_only": True, "teams": True}),
    ("FD-71 off, no teams", {"finishers_only": False, "teams": False}),
    ("FD-71 off, 6 teams", {"finishers_only": False, "teams": True}),
    ("FD-71 off, 6 teams, pole 1", {"finishers_only": False, "teams": True, "pole_bonus": 1}),
    (
        "FD-71 off, 6 teams, entry lists",
        {"finishers_only": False, "teams": True, "entry_lists": True},
    ),
)


def run(seeds: int, played: int) -> float:
    """Print one table; return the worst CPU time of any configuration."""
    print(
        f"after race {played} of 10 (12 drivers, f1-2010, drop-worst 1), {seeds} championships each"
    )
    print(f"{'configuration':36} {'CPU median':>11} {'CPU worst':>10} {'wall worst':>11}  statuses")
    worst_cpu = 0.0
    for label, options in CONFIGS:
        cpu, wall = [], []
        seen: Counter[str] = Counter()
        for seed in range(seeds):
            champ = championship(seed, played=played, **options)  # type: ignore[arg-type]
            t0, c0 = time.perf_counter(), time.process_time()
            statuses = points_statuses(champ)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - t0)
            for row in statuses["drivers"].entrants:
                seen[row.status] += 1
        worst_cpu = max(worst_cpu, max(cpu))
        counts = ", ".join(f"{k}={seen[k]}" for k in ("clinched", "open", "eliminated"))
        print(
            f"{label:36} {statistics.median(cpu):10.3f}s {max(cpu):9.3f}s {max(wall):10.3f}s  "
            f"drivers: {counts}"
        )
    return worst_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=10, help="championships per configuration")
    args = parser.parse_args()
    worst = run(args.seeds, 5)
    print(f"worst CPU after race 5: {worst:.3f} s (target: under 1 s)")
    for played in (8, 9):
        print()
        run(args.seeds, played)


if __name__ == "__main__":
    main()
