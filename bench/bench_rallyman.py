"""Benchmark: simulate N stages of each sample layout with 6 automatic cars.

Prints stages per second (one core, this process) and the peak memory traced while simulating.

    .venv/bin/python bench/bench_rallyman.py --stages 300
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rallyman.layout import SAMPLE_STAGES, load_layout
from games.rallyman.simulate import CarEntry, simulate_stage
from games.rallyman.track import build_track
from scoring.rally.rules import RallyRules
from scoring.rng import derive_rng


def main() -> None:
    """Run the benchmark and print one line per layout, then the total."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stages", type=int, default=300, help="stages per layout")
    parser.add_argument("--cars", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = RallyRules()
    entries = [CarEntry(c) for c in range(1, args.cars + 1)]
    total_stages, total_time, total_cpu = 0, 0.0, 0.0
    for name in SAMPLE_STAGES:
        track = build_track(load_layout(name))
        turns = finished = 0
        start, cpu = time.perf_counter(), time.process_time()
        for n in range(args.stages):
            run = simulate_stage(track, entries, rules, derive_rng(args.seed, "rally_stage", n))
            turns += len(run.replay)
            finished += sum(c.status == "finished" for c in run.cars)
        elapsed = time.perf_counter() - start
        total_cpu += time.process_time() - cpu
        total_stages += args.stages
        total_time += elapsed
        print(
            f"{name:14s} {args.stages / elapsed:8.1f} stages/s  "
            f"{turns / args.stages:5.1f} turns/stage  "
            f"{100 * finished / (args.stages * args.cars):5.1f}% finished"
        )
    # Peak memory is measured on a separate, shorter pass: tracing slows Python down.
    tracemalloc.start()
    for name in SAMPLE_STAGES:
        track = build_track(load_layout(name))
        for n in range(min(args.stages, 50)):
            simulate_stage(track, entries, rules, derive_rng(args.seed, "rally_stage", n))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{'all':14s} {total_stages / total_time:8.1f} stages/s  peak {peak / 1e6:.2f} MB traced")
    # On a shared machine wall time varies with the load; CPU time is the figure to compare.
    print(f"{'all':14s} {total_stages / total_cpu:8.1f} stages per CPU-second")


if __name__ == "__main__":
    main()
