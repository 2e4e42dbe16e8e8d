"""Replay-check seeded Formula D races: every move of every log against the rules.

Usage: ``.venv/bin/python bench/replay_check_formula_d.py [--races 350] [--seed 20240]
[--rule-sets basic,street,advanced,weather] [--laps 2]``

Plays ``--races`` 10-car Monaco races per rule set (basic; basic with street rules; advanced;
advanced with tyres and weather) with dice from ``derive_rng(seed, "race", n)`` as the
championship service draws them, checks each replay with :func:`games.formula_d.check.check_replay`
(which reads only the log and the set-up) and prints the totals: races, moves, checks and
violations (each violation is listed). Exits 1 when there is any violation. The CI runs a
smaller set: ``tests/games/formula_d/test_replay_check.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import FORMULA_D_CONFIGS
from games.formula_d import Entrant, load_circuit, simulate_race
from games.formula_d.check import Totals, check_replay
from scoring.formula_d.rules import build_formula_d_rules
from scoring.rng import derive_rng


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=350)
    parser.add_argument("--seed", type=int, default=20240)
    parser.add_argument("--laps", type=int, default=2)
    parser.add_argument("--rule-sets", default=",".join(FORMULA_D_CONFIGS))
    args = parser.parse_args()
    circuit = load_circuit("monaco")
    entrants = [Entrant(i + 1, f"Driver {i + 1}") for i in range(10)]
    grand = Totals()
    for name in args.rule_sets.split(","):
        rule_set, data = FORMULA_D_CONFIGS[name]
        rules = build_formula_d_rules(data, rule_set)[0]
        totals = Totals()
        simulated = checked = 0.0
        for number in range(1, args.races + 1):
            start = time.process_time()
            outcome = simulate_race(
                circuit,
                entrants,
                laps=args.laps,
                rules=rules,
                rule_set=rule_set,
                rng=derive_rng(args.seed, "race", number),
            )
            middle = time.process_time()
            check_replay(
                outcome.replay_json(),
                circuit=circuit,
                rules=rules,
                entrants=[e.driver for e in entrants],
                rule_set=rule_set,
                totals=totals,
                label=f"{name} seed {args.seed} race {number}",
            )
            simulated += middle - start
            checked += time.process_time() - middle
        print(
            f"{name}: {totals.races} races, {totals.moves} moves, {totals.checks} checks, "
            f"{len(totals.violations)} violations (CPU: {simulated:.1f} s simulating, "
            f"{checked:.1f} s checking)"
        )
        for line in totals.violations:
            print("  ", line)
        grand.races += totals.races
        grand.moves += totals.moves
        grand.checks += totals.checks
        grand.violations += totals.violations
    print(
        f"total: {grand.races} races, {grand.moves} moves, {grand.checks} checks, "
        f"{len(grand.violations)} violations"
    )
    return 1 if grand.violations else 0


if __name__ == "__main__":
    sys.exit(main())
