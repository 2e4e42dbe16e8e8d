"""Title odds by Monte Carlo: the remaining events simulated from Plackett–Luce strengths and
scored by the competition's own scoring code (through a game's scorer callback).

Reproducibility and chunks: simulations are numbered 0..N-1 and drawn in fixed blocks of
``spec.block`` simulations, block ``b`` from ``SeedSequence(seed, spawn_key=(b,))``. A chunk
(``chunk_index``, ``chunk_size``) draws the blocks it overlaps and scores only its own
simulations, so simulation ``i`` is the same whichever chunk runs it: chunks merged by
:func:`merge` (integer counts, summed exactly) equal one run of every simulation.

A simulation draws the strengths once from their Laplace posterior (uncertainty about the
entrants carries across the remaining events), then each event's finishing order by the
Gumbel trick (``argsort(-(theta + Gumbel))`` is a Plackett–Luce draw), and hands the scorer
``spec.extra_draws`` uniforms per event for whatever else it needs (non-finishers, pole, a
stage template).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.forecast.model import Forecast, Status, TitleOdds, TitleStatus
from scoring.forecast.strengths import Strengths

#: orders (one array of unit indices per remaining event, best first), uniforms of shape
#: (events, extra_draws), this simulation's strengths -> {title: rank of each of its entrants}
Scorer = Callable[[Sequence[np.ndarray], np.ndarray, np.ndarray], Mapping[str, Sequence[int]]]

DEFAULT_SIMULATIONS = 10_000


@dataclass(frozen=True)
class SimulationSpec:
    """What to simulate: strengths of the units, who takes part in each remaining event, and
    the titles the scorer ranks (entrants in the scorer's order); ``main`` names the
    classification whose rank distribution is kept (``general``, ``drivers``)."""

    strengths: Strengths
    entered: tuple[tuple[int, ...], ...]
    titles: Mapping[str, tuple[Hashable, ...]]
    main: str
    extra_draws: int = 2
    block: int = 100


@dataclass(frozen=True)
class ChunkResult:
    """Counts of one chunk: ``shares[title][e, k - 1]`` simulations where entrant ``e`` held
    rank 1 with ``k`` entrants sharing it; ``positions[e, r - 1]`` where it finished ``r``."""

    start: int
    count: int
    shares: Mapping[str, np.ndarray]
    positions: np.ndarray


def _block_draws(
    spec: SimulationSpec, seed: int, block: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block,))))
    n = len(spec.strengths.units)
    events = len(spec.entered)
    z = rng.standard_normal((spec.block, n))
    gumbel = rng.gumbel(size=(spec.block, events, n))
    uniforms = rng.random((spec.block, events, spec.extra_draws))
    theta = spec.strengths.mean + z @ spec.strengths.cholesky().T
    return theta, gumbel, uniforms


def simulate_chunk(
    spec: SimulationSpec,
    scorer: Scorer,
    *,
    seed: int,
    chunk_index: int,
    chunk_size: int,
    simulations: int = DEFAULT_SIMULATIONS,
) -> ChunkResult:
    """Run simulations ``chunk_index * chunk_size`` up to the next chunk (or ``simulations``)."""
    if chunk_size <= 0 or chunk_index < 0 or simulations < 0:
        raise ValueError("chunk_size must be positive, chunk_index and simulations >= 0")
    start = min(chunk_index * chunk_size, simulations)
    stop = min(start + chunk_size, simulations)
    main_size = len(spec.titles[spec.main])
    shares = {t: np.zeros((len(e), max(len(e), 1)), dtype=np.int64) for t, e in spec.titles.items()}
    positions = np.zeros((main_size, max(main_size, 1)), dtype=np.int64)
    n = len(spec.strengths.units)
    events = len(spec.entered)
    # units not in an event sort last (-inf) and are cut off: one argsort per block
    absent = np.zeros((events, n))
    for k, units in enumerate(spec.entered):
        absent[k] = -np.inf
        absent[k, list(units)] = 0.0
    sizes = [len(units) for units in spec.entered]
    i = start
    while i < stop:
        block = i // spec.block
        theta, gumbel, uniforms = _block_draws(spec, seed, block)
        keys = theta[:, None, :] + gumbel + absent[None, :, :]
        block_orders = np.argsort(-keys, axis=2, kind="stable")
        first = i - block * spec.block
        last = min(stop - block * spec.block, spec.block)
        for j in range(first, last):
            orders = [block_orders[j, k, : sizes[k]] for k in range(events)]
            ranks = scorer(orders, uniforms[j], theta[j])
            for title, rank in ranks.items():
                top = [e for e, r in enumerate(rank) if r == 1]
                for e in top:
                    shares[title][e, len(top) - 1] += 1
            for e, r in enumerate(ranks[spec.main]):
                positions[e, r - 1] += 1
        i = block * spec.block + last
    return ChunkResult(start, stop - start, shares, positions)


def merge(
    spec: SimulationSpec,
    chunks: Iterable[ChunkResult],
    *,
    seed: int,
    statuses: Mapping[str, TitleStatus] | None = None,
) -> Forecast:
    """Combine chunks covering simulations 0..N-1 into odds; exact statuses override them.

    A ``clinched`` entrant gets exactly 1 and an ``eliminated`` one exactly 0; the open ones
    share what is left in proportion to their simulated titles.
    """
    ordered = sorted(chunks, key=lambda c: c.start)
    expected = 0
    for c in ordered:
        if c.start != expected:
            raise ValueError(f"chunks leave a gap or overlap at simulation {expected}")
        expected += c.count
    total = expected
    titles: dict[str, TitleOdds] = {}
    for title, entrants in spec.titles.items():
        counts = sum(
            (c.shares[title] for c in ordered),
            start=np.zeros((len(entrants), max(len(entrants), 1)), dtype=np.int64),
        )
        divisors = np.arange(1, counts.shape[1] + 1, dtype=float)
        raw = (counts / divisors).sum(axis=1) / total if total else np.zeros(len(entrants))
        status = statuses.get(title) if statuses else None
        marks: list[Status] = (
            [status.status_of(e) for e in entrants] if status else ["open"] * len(entrants)
        )
        titles[title] = TitleOdds(title, tuple(entrants), _apply(raw, marks), tuple(marks))
    positions_counts = sum(
        (c.positions for c in ordered), start=np.zeros_like(ordered[0].positions)
    )
    main = spec.titles[spec.main]
    positions = {
        e: tuple(float(v) / total if total else 0.0 for v in positions_counts[i])
        for i, e in enumerate(main)
    }
    return Forecast(total, seed, titles, spec.main, positions)


def _apply(raw: np.ndarray, marks: Sequence[Status]) -> tuple[float, ...]:
    if "clinched" in marks:
        return tuple(1.0 if m == "clinched" else 0.0 for m in marks)
    values = [0.0 if m == "eliminated" else float(v) for v, m in zip(raw, marks, strict=True)]
    open_total = sum(values)
    if open_total <= 0:
        # no simulation gave an open entrant the title (too few runs): share evenly
        opens = [m == "open" for m in marks]
        k = sum(opens)
        return tuple((1.0 / k if o else 0.0) for o in opens) if k else tuple(values)
    return tuple(v / open_total for v in values)


def simulate(
    spec: SimulationSpec,
    scorer: Scorer,
    *,
    seed: int,
    simulations: int = DEFAULT_SIMULATIONS,
    statuses: Mapping[str, TitleStatus] | None = None,
) -> Forecast:
    """Every simulation in one chunk (what a single worker runs)."""
    chunk = simulate_chunk(
        spec,
        scorer,
        seed=seed,
        chunk_index=0,
        chunk_size=max(simulations, 1),
        simulations=simulations,
    )
    return merge(spec, [chunk], seed=seed, statuses=statuses)


__all__ = [
    "DEFAULT_SIMULATIONS",
    "ChunkResult",
    "Scorer",
    "SimulationSpec",
    "merge",
    "simulate",
    "simulate_chunk",
]
