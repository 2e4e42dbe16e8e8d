"""Benchmark: forecasts of a 10-race, 12-driver championship after race 5 (issue #17).

Generates the first five races from a Plackett–Luce generator with known strengths, then times
the exact statuses (drivers and teams) and 10,000 simulations of the remaining five races
through the real standings code (``scoring.points.compute_standings``, resumed from the tally of
the five played races), on one core. Wall times are the best of ``--repeat`` runs; CPU times
(``time.process_time``) are what the process itself used, the steadier figure on a shared host,
printed with the load average (1 and 5 minutes) at the time. Both
``points_finishers_only`` settings are run: with it on (the default) every rival may be
eliminated from a race, so the exact part is quick; with it off the integer program works.

    .venv/bin/python bench/bench_forecast.py [--simulations 10000] [--seed 7] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import plackett_luce_races
from scoring.forecast.montecarlo import simulate
from scoring.forecast.points import (
    PointsChampionship,
    PointsSimulation,
    dnf_counts,
    finishing_orders,
    points_scorer,
    points_spec,
    points_statuses,
)
from scoring.forecast.strengths import fit_plackett_luce
from scoring.points import Entrant, Scale


def championship(
    seed: int, finishers_only: bool, teams: bool = True, played: int = 5
) -> PointsChampionship:
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0, 0.8, 12)
    entrants = tuple(
        Entrant(i + 1, f"Driver {i + 1}", f"Team {i // 2 + 1}" if teams else None)
        for i in range(12)
    )
    races = plackett_luce_races(rng, strengths, played)
    scale = Scale((25, 18, 15, 12, 10, 8, 6, 4, 2, 1), finishers_only, drop_worst=1)
    return PointsChampionship(entrants, tuple(races), scale, total_races=10)


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulations", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (shared hosts vary)")
    args = parser.parse_args()
    for finishers_only, teams in ((True, False), (True, True), (False, True)):
        champ = championship(args.seed, finishers_only, teams)
        t0 = time.process_time()
        statuses = points_statuses(champ)
        exact = time.process_time() - t0
        t0 = time.perf_counter()
        strengths = fit_plackett_luce(
            [e.id for e in champ.entrants], finishing_orders(champ), prior_sd=1.0
        )
        fit = time.perf_counter() - t0
        spec = points_spec(champ, strengths)
        scorer = points_scorer(champ, PointsSimulation(dnf_counts(champ.races)))
        runs, cpu = [], []
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            forecast = simulate(
                spec, scorer, seed=args.seed, simulations=args.simulations, statuses=statuses
            )
            runs.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        sims = min(runs)
        marks = [r.status for r in statuses["drivers"].entrants]
        print(
            f"points_finishers_only={finishers_only}, " + ("6 teams of 2" if teams else "no teams")
        )
        print(
            f"  exact statuses ({' + '.join(statuses)}), CPU: {exact:.3f} s  drivers: "
            + ", ".join(f"{m}={marks.count(m)}" for m in ("clinched", "open", "eliminated"))
        )
        print(f"  Plackett-Luce fit: {fit * 1000:.1f} ms")
        print(
            f"  {args.simulations} simulations of 5 races: best {sims:.2f} s of "
            f"{', '.join(f'{r:.2f}' for r in runs)} wall; CPU {min(cpu):.2f} s "
            f"({min(cpu) / max(args.simulations, 1) * 1e6:.0f} us each); {_load()}"
        )
        late = championship(args.seed, finishers_only, teams, played=8)
        t0 = time.process_time()
        late_statuses = points_statuses(late)
        late_time = time.process_time() - t0
        late_marks = [r.status for r in late_statuses["drivers"].entrants]
        print(
            f"  exact statuses after race 8, CPU: {late_time:.3f} s  drivers: "
            + ", ".join(f"{m}={late_marks.count(m)}" for m in ("clinched", "open", "eliminated"))
            + f"; {_load()}"
        )
        top = forecast.titles["drivers"].ranked()[:3]
        print("  drivers' title, top 3: " + ", ".join(f"{e}: {p:.3f}" for e, p, _ in top))


if __name__ == "__main__":
    main()
