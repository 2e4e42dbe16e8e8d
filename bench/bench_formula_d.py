"""Benchmark: simulate N two-lap Monaco races with 10 automatic drivers.

Usage: ``.venv/bin/python bench/bench_formula_d.py [-n 100] [--seed 1] [--laps 2]
[--rule-set basic|advanced] [--tracemalloc]``

Prints races per second, moves per race and peak memory (the process's peak RSS; with
``--tracemalloc`` also the peak of Python allocations, which slows the run down).
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
    parser.add_argument("-n", "--races", type=int, default=100)
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
    start = time.perf_counter()
    cpu_start = time.process_time()
    for number in range(1, args.races + 1):
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
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"races: {args.races} x {args.laps}-lap Monaco, 10 cars, seed {args.seed}, "
        f"{args.rule_set} rules"
    )
    print(
        f"races per second: {args.races / elapsed:.1f} wall ({elapsed:.2f} s), "
        f"{args.races / cpu:.1f} per CPU second ({cpu:.2f} s, one core)"
    )
    print(f"moves per race: mean {statistics.mean(moves):.0f}, min {min(moves)}, max {max(moves)}")
    print(f"cars finished: {finished}, eliminated: {eliminated}")
    print(f"peak RSS: {rss_mb:.0f} MiB")
    if args.tracemalloc:
        _, peak = tracemalloc.get_traced_memory()
        print(f"peak Python allocations: {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
