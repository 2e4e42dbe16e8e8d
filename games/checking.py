"""What the games' replay checkers share: the report they add up and their command line.

Each game's ``check`` module re-reads simulated stages from their logs with its own rules;
only the bookkeeping of a run (counts, violations, the printed totals) is game-neutral.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class CheckReport:
    """What a check found: counts and the violations (empty when every move is legal)."""

    rounds: int = 0
    moves: int = 0  # a Rallyman move is a turn
    checks: int = 0
    violations: list[str] = field(default_factory=list)

    def add(self, other: CheckReport) -> None:
        """Add another report's counts and violations to this one."""
        self.rounds += other.rounds
        self.moves += other.moves
        self.checks += other.checks
        self.violations += other.violations


def check_command(
    argv: list[str] | None,
    *,
    game: str,
    moves_word: str,
    default_stages: int,
    run: Callable[[int, int], tuple[int, CheckReport]],
) -> int:
    """Parse ``--stages``/``--start``, check that many seeded stages, print the totals.

    Returns the process exit status: 1 when any violation was found, else 0.
    """
    parser = argparse.ArgumentParser(description=f"Check simulated {game} stages.")
    parser.add_argument("--stages", type=int, default=default_stages)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    args = parser.parse_args(argv)
    began = time.process_time()
    stages, report = run(args.stages, args.start)
    print(
        f"{game.lower()}: {stages} stages, {report.rounds} rounds, {report.moves} {moves_word}, "
        f"{report.checks} checks, {len(report.violations)} violations "
        f"({time.process_time() - began:.1f} CPU s)"
    )
    for violation in report.violations[:20]:
        print(" ", violation)
    return 1 if report.violations else 0
