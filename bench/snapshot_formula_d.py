"""Fingerprints of seeded Formula D races: proof that a change keeps replays byte-identical.

Usage: ``.venv/bin/python bench/snapshot_formula_d.py [--races 8] [--save FILE | --check FILE]``

Plays ``--races`` two-lap and one-lap Monaco races (10 cars, dice from
``derive_rng(seed, "race", n)`` as the championship service draws them) under four rule
configurations (basic; basic with street rules; advanced; advanced with tyres and weather) and
prints one SHA-256 per race of its replay and result JSON, then one over them all. ``--save``
writes the lines to a file; ``--check`` compares against such a file and lists the races whose
replays changed (a rule fix may change some: then bump ``SIMULATOR_VERSION``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import FORMULA_D_CONFIGS
from games.formula_d import Entrant, simulate_race
from scoring.formula_d.rules import build_formula_d_rules
from scoring.rng import derive_rng

SEED = 20240


def fingerprints(races: int) -> list[str]:
    entrants = [Entrant(i + 1, f"Driver {i + 1}") for i in range(10)]
    lines: list[str] = []
    for name, (rule_set, data) in FORMULA_D_CONFIGS.items():
        rules = build_formula_d_rules(data, rule_set)[0]
        for laps in (2, 1):
            for number in range(1, races + 1):
                outcome = simulate_race(
                    "monaco",
                    entrants,
                    laps=laps,
                    rules=rules,
                    rule_set=rule_set,
                    rng=derive_rng(SEED, "race", number),
                )
                blob = json.dumps(outcome.replay_json(), sort_keys=True).encode()
                lines.append(f"{name} laps={laps} race={number} {hashlib.sha256(blob).hexdigest()}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=8)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--check", type=Path)
    args = parser.parse_args()
    lines = fingerprints(args.races)
    total = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    if args.save:
        args.save.write_text("\n".join(lines) + "\n")
    if args.check:
        old = dict(line.rsplit(" ", 1) for line in args.check.read_text().splitlines())
        pairs = [line.rsplit(" ", 1) for line in lines]
        changed = [line for line, digest in pairs if old.get(line) != digest]
        for line in changed:
            print("changed:", line)
        print(f"{len(lines)} races, {len(changed)} changed")
    else:
        print("\n".join(lines))
    print("all:", total)


if __name__ == "__main__":
    main()
