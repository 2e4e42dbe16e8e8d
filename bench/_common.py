"""Set-up shared by the bench scripts (imported after they put the repository on ``sys.path``)."""

from __future__ import annotations

import numpy as np

from scoring.points import Finish, Race

# Formula D's four rule configurations the replay benches play: name -> (rule set, rule data).
FORMULA_D_CONFIGS: dict[str, tuple[str, dict[str, object]]] = {
    "basic": ("basic", {}),
    "street": ("basic", {"street_rules": True}),
    "advanced": ("advanced", {}),
    "weather": ("advanced", {"tyres": True, "weather": True}),
}


def plackett_luce_races(
    rng: np.random.Generator, strengths: np.ndarray, races: int, dnf_rate: float = 0.1
) -> list[Race]:
    """Races from a Plackett–Luce generator: each car a non-finisher with ``dnf_rate``."""
    out = []
    n = len(strengths)
    for k in range(races):
        order = np.argsort(-(strengths + rng.gumbel(size=n)), kind="stable")
        dnf = int(rng.binomial(n, dnf_rate))
        out.append(
            Race(
                k + 1,
                tuple(
                    Finish(int(d) + 1, p + 1, "finished" if p < n - dnf else "eliminated")
                    for p, d in enumerate(order)
                ),
            )
        )
    return out
