"""Deterministic cost of Formula D races: instructions counted by callgrind.

Wall-clock rates on a shared host vary by 10 % or more from one minute to the next; instruction
counts do not. This script runs ``--warmup`` races uncounted (the memo tables fill up), then
switches callgrind's instrumentation on for ``-n`` races and off again. Run it under callgrind:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/fd.cg .venv/bin/python bench/instructions_formula_d.py
    callgrind_annotate /tmp/fd.cg | grep "PROGRAM TOTALS"

(≈1 minute with the defaults). Compare two versions by running it in each checkout.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.formula_d import Entrant, simulate_race
from scoring.formula_d.rules import build_formula_d_rules
from scoring.rng import derive_rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", "--races", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    entrants = [Entrant(i + 1, f"Driver {i + 1}") for i in range(10)]
    rules = build_formula_d_rules({}, "basic")[0]

    def run(first: int, count: int) -> None:
        for number in range(first, first + count):
            simulate_race(
                "monaco", entrants, laps=2, rules=rules, rng=derive_rng(args.seed, "race", number)
            )

    def instrument(state: str) -> None:
        subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=False)

    run(1, args.warmup)
    instrument("on")
    run(args.warmup + 1, args.races)
    instrument("off")
    print(f"counted races {args.warmup + 1}-{args.warmup + args.races}")


if __name__ == "__main__":
    main()
