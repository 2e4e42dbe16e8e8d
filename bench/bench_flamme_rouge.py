"""Benchmark of the Flamme Rouge stage engine with the automatic policy.

Runs N stages (half with 4 teams on Avenue Corso Paseo, half with 5 teams on La Haute Montagne,
every rider to the line) and prints stages per second, rounds per stage, time per round and peak
memory. Usage: ``python bench/bench_flamme_rouge.py --stages 2000 [--no-log] [--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.flamme_rouge import (
    RiderEntry,
    StageSetup,
    TeamEntry,
    official_course,
    simulate_stage,
)


def _setup(course: str, teams: int, number: int) -> StageSetup:
    entries = tuple(
        TeamEntry(t, (RiderEntry(10 * t + 1, "rouleur"), RiderEntry(10 * t + 2, "sprinteur")))
        for t in range(1, teams + 1)
    )
    return StageSetup(course=official_course(course).small, teams=entries, number=number)


def run(stages: int, record_log: bool) -> tuple[float, float, int]:
    """Simulate ``stages`` stages; returns (wall seconds, CPU seconds, rounds played)."""
    setups = [_setup("Avenue Corso Paseo", 4, 1), _setup("La Haute Montagne", 5, 2)]
    rounds = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(stages):
        outcome = simulate_stage(setups[seed % 2], seed, record_log=record_log)
        rounds += outcome.header["rounds"]
    return time.perf_counter() - start, time.process_time() - cpu, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stages", type=int, default=2000)
    parser.add_argument("--no-log", action="store_true", help="skip the FR-73 round log")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()
    record_log = not args.no_log
    run(min(args.stages, 50), record_log)  # warm the course tables
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
    elapsed, cpu, rounds = run(args.stages, record_log)
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)
    tracemalloc.start()
    run(min(args.stages, 200), record_log)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"stages: {args.stages} (log {'on' if record_log else 'off'})")
    print(f"stages per second: {args.stages / elapsed:.0f}")
    # On a shared machine wall time varies with the load; CPU time is the figure to compare.
    print(f"stages per CPU-second: {args.stages / cpu:.0f}")
    print(f"rounds per stage: {rounds / args.stages:.1f}")
    print(f"time per round: {1e6 * elapsed / rounds:.1f} us")
    print(
        f"peak traced memory (200 stages): {peak / 1024:.0f} KiB; max RSS {rss_kb / 1024:.1f} MiB"
    )


if __name__ == "__main__":
    main()
