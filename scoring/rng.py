"""Deterministic random streams derived from a competition's seed.

Every random decision (start orders, draft order, simulated stages) takes its own stream, named by
purpose and stage number, so adding a new kind of draw never shifts an existing one (GT-1.4).
"""

from __future__ import annotations

import random


def derive_rng(seed: int, *parts: str | int) -> random.Random:
    """A ``random.Random`` for ``seed`` and the given purpose.

    Seeding with a string hashes it with SHA-512 inside ``random``, independent of
    ``PYTHONHASHSEED``, so the stream is the same on every machine and run.
    """
    label = ":".join(str(p) for p in ("podium", seed, *parts))
    return random.Random(label)
