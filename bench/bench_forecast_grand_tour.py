"""Benchmark: the forecast of a 21-stage, 6-team Grand Tour after stage 10 (issue #17).

The first ten stages are played by the Flamme Rouge simulator (``games.flamme_rouge``, the
5-6 player variants of the official courses 7-12 in turn, a Major sprint and a Minor mountain
stack on each), and each course's template pool is ``--pool`` simulator runs over it. Then:

- the exact statuses of every title;
- 10,000 simulations of the remaining 11 stages through the real scoring
  (``scoring.grand_tour.compute_standings``) in one process;
- the same simulations split in chunks over 1 and 2 worker processes (the merge is checked to
  equal the single run), with the speed-up and the workers' CPU time.

CPU times are ``time.process_time`` (the workers': ``getrusage(RUSAGE_CHILDREN)``), printed with
the load average: on a shared host wall times follow the load, CPU times much less.

    .venv/bin/python bench/bench_forecast_grand_tour.py [--simulations 10000] [--pool 200]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.flamme_rouge import (
    RiderEntry,
    StageSetup,
    TeamEntry,
    official_course,
    simulate_stage,
)
from games.flamme_rouge.setup import Stack
from scoring.forecast.grand_tour import GrandTour, StageTokens, grand_tour_statuses
from scoring.forecast.grand_tour_odds import (
    StageTemplate,
    grand_tour_scorer,
    grand_tour_spec,
    stage_orders,
)
from scoring.forecast.montecarlo import ChunkResult, merge, simulate, simulate_chunk
from scoring.forecast.strengths import fit_plackett_luce
from scoring.grand_tour import (
    GrandTourRules,
    Rider,
    RiderResult,
    StageResults,
    Team,
    TourSetup,
)

COLOURS = ("Red", "Blue", "Green", "Orange", "White", "Pink")
COURSES = (7, 8, 9, 10, 11, 12)
STACKS = (Stack("s", "major", "sprint", 30), Stack("m", "minor", "mountain", 20))
TOKENS = StageTokens(sprint=((4, 3, 2),), mountain=((3, 1),))  # GT-3.1 default stacks
SEED = 2026

# what the forked workers inherit: the spec and the scorer (a closure, not picklable)
_STATE: dict[str, Any] = {}


def tour_setup() -> TourSetup:
    teams = tuple(
        Team(
            t,
            COLOURS[t - 1],
            (
                Rider(10 * t + 1, f"{COLOURS[t - 1][0]}R", t, "rouleur"),
                Rider(10 * t + 2, f"{COLOURS[t - 1][0]}S", t, "sprinteur"),
            ),
        )
        for t in range(1, 7)
    )
    return TourSetup(SEED, teams, 21, frozenset({7, 14}))


def entries() -> tuple[TeamEntry, ...]:
    return tuple(
        TeamEntry(t, (RiderEntry(10 * t + 1, "rouleur"), RiderEntry(10 * t + 2, "sprinteur")))
        for t in range(1, 7)
    )


def course_of(stage: int) -> str:
    return official_course(COURSES[(stage - 1) % len(COURSES)]).for_players(6)


def play(stage: int, seed: int) -> list[tuple[int, int, int, int, int]]:
    """(rider, seconds, sprint, mountain, exhaustion) in finishing order."""
    outcome = simulate_stage(
        StageSetup(course_of(stage), entries(), STACKS), seed, record_log=False
    )
    return [
        (r.rider_id, r.time_s, r.sprint_points, r.mountain_points, r.exhaustion_end)
        for r in outcome.riders
        if not r.is_dummy
    ]


def _run_chunks(args: tuple[list[int], int, int]) -> list[ChunkResult]:
    indices, size, sims = args
    spec, scorer = _STATE["spec"], _STATE["scorer"]
    return [
        simulate_chunk(
            spec,
            scorer,
            seed=SEED,
            chunk_index=i,
            chunk_size=size,
            simulations=sims,
        )
        for i in indices
    ]


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


def _children_cpu() -> float:
    # the pool's workers, once they have exited (the pool's ``with`` joins them)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulations", type=int, default=10_000)
    parser.add_argument("--pool", type=int, default=200)
    args = parser.parse_args()
    setup = tour_setup()
    t0 = time.perf_counter()
    pools: dict[int, tuple[StageTemplate, ...]] = {}
    for k, _course in enumerate(COURSES):
        rows = [play(k + 1, 10_000 + k * 1000 + i) for i in range(args.pool)]
        pools[k] = tuple(StageTemplate(tuple(line[1:] for line in run)) for run in rows)
    stages = []
    for n in range(1, 11):
        result = play(n, n)
        stages.append(
            StageResults(
                n,
                tuple(
                    RiderResult(rider, p + 1, t // 60, t % 60, sp, mp, ex)
                    for p, (rider, t, sp, mp, ex) in enumerate(result)
                ),
            )
        )
    print(
        f"simulator: {args.pool} runs x {len(COURSES)} courses + 10 stages: "
        f"{time.perf_counter() - t0:.1f} s"
    )
    tour = GrandTour(setup, tuple(stages), GrandTourRules(timing_tile=False), (TOKENS,) * 11)
    t0 = time.process_time()
    statuses = grand_tour_statuses(tour)
    exact = time.process_time() - t0
    print(f"exact statuses of the 5 titles, CPU: {exact:.3f} s; {_load()}")
    for title, status in statuses.items():
        marks = [r.status for r in status.entrants]
        print(
            f"  {title}: "
            + ", ".join(f"{m}={marks.count(m)}" for m in ("clinched", "open", "eliminated"))
        )
    fit = fit_plackett_luce([r.id for r in setup.riders], stage_orders(tour))
    spec = grand_tour_spec(tour, fit)
    remaining = [pools[(n - 1) % len(COURSES)] for n in range(11, 22)]
    scorer = grand_tour_scorer(tour, remaining)
    t0, c0 = time.perf_counter(), time.process_time()
    single = simulate(spec, scorer, seed=SEED, simulations=args.simulations, statuses=statuses)
    one, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"{args.simulations} simulations of 11 stages, one process: {one:.2f} s wall, "
        f"CPU {cpu:.2f} s ({cpu / args.simulations * 1e6:.0f} us each); {_load()}"
    )
    _STATE.update(spec=spec, scorer=scorer)
    chunk = 500
    chunks = -(-args.simulations // chunk)
    timings = {}
    for workers in (1, 2):
        t0, c0 = time.perf_counter(), _children_cpu()
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(
                _run_chunks,
                [
                    (list(range(w, chunks, workers)), chunk, args.simulations)
                    for w in range(workers)
                ],
            )
        merged = merge(spec, [c for p in parts for c in p], seed=SEED, statuses=statuses)
        timings[workers] = time.perf_counter() - t0
        assert merged == single, "chunked run differs from the single run"
        print(
            f"  {chunks} chunks of {chunk} over {workers} worker process(es): "
            f"{timings[workers]:.2f} s wall, workers' CPU {_children_cpu() - c0:.2f} s "
            f"(merge equals the single run); {_load()}"
        )
    print(f"  speed-up with 2 workers: {timings[1] / timings[2]:.2f}x")
    for title in ("yellow", "tour_points", "green"):
        top = single.titles[title].ranked()[:3]
        print(f"  {title}, top 3: " + ", ".join(f"{e}: {p:.3f}" for e, p, _ in top))


if __name__ == "__main__":
    main()
