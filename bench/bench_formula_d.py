"""Benchmark: simulate N two-lap Monaco races with 10 automatic drivers.

Usage: ``.venv/bin/python bench/bench_formula_d.py [-n 200] [--warmup 300] [--seed 1]
[--laps 2] [--rule-set basic|advanced] [--tracemalloc]``

The engine keeps per-circuit memo tables for the life of the process (path searches on the
empty track, gear choices, look-ahead geometry), so a fresh process is slower than one that has
already run races, as a Celery worker has. The script prints both, on one core (CPU time of this
process): the first ``--warmup`` races of the fresh process, then ``-n`` more races. With
``--warmup 0`` only the fresh-process figure is printed. Also printed: moves per race, cars
finished and eliminated, and peak memory (the process's peak RSS; with ``--tracemalloc`` also
the peak of Python allocations, which slows the run down).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.formula_d import Entrant, simulate_race
from scoring.formula_d.rules import build_formula_d_rules
from scoring.rng import derive_rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", "--races", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--laps", type=int, default=2)
    parser.add_argument("--rule-set", choices=("basic", "advanced"), default="basic")
    parser.add_argument("--tracemalloc", action="store_true")
    args = parser.parse_args()
    entrants = [Entrant(i + 1, f"Driver {i + 1}") for i in range(10)]
    rules = build_formula_d_rules({}, args.rule_set)[0]
    if args.tracemalloc:
        tracemalloc.start()
    moves: list[int] = []
    finished = eliminated = 0

    def run(first: int, count: int) -> tuple[float, float]:
        nonlocal finished, eliminated
        start, cpu_start = time.perf_counter(), time.process_time()
        for number in range(first, first + count):
            outcome = simulate_race(
                "monaco",
                entrants,
                laps=args.laps,
                rules=rules,
                rule_set=args.rule_set,
                rng=derive_rng(args.seed, "race", number),
            )
            moves.append(len(outcome.moves))
            finished += sum(1 for r in outcome.results if r.status == "finished")
            eliminated += sum(1 for r in outcome.results if r.status == "eliminated")
        return time.perf_counter() - start, time.process_time() - cpu_start

    print(
        f"{args.laps}-lap Monaco, 10 cars, seed {args.seed}, {args.rule_set} rules, "
        "races per CPU second (one core)"
    )
    if args.warmup:
        wall, cpu = run(1, args.warmup)
        print(
            f"fresh process, races 1-{args.warmup}: {args.warmup / cpu:.1f} per CPU second "
            f"({cpu:.2f} s CPU, {wall:.2f} s wall)"
        )
    wall, cpu = run(args.warmup + 1, args.races)
    label = "fresh process" if not args.warmup else "after them"
    print(
        f"{label}, races {args.warmup + 1}-{args.warmup + args.races}: "
        f"{args.races / cpu:.1f} per CPU second ({cpu:.2f} s CPU, {wall:.2f} s wall)"
    )
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"moves per race: mean {statistics.mean(moves):.0f}, min {min(moves)}, max {max(moves)}")
    print(f"cars finished: {finished}, eliminated: {eliminated} (all {len(moves)} races)")
    print(f"peak RSS: {rss_mb:.0f} MiB")
    if args.tracemalloc:
        _, peak = tracemalloc.get_traced_memory()
        print(f"peak Python allocations: {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
