"""Planning, computing and storing forecasts (the tasks call these; see docs/forecasts.md).

- :func:`plan` runs when a competition's standings change: rows of standings that no longer
  exist (or were recomputed) are dropped, the row of the new standings moves to the new version
  (``computing``, keeping its previous body to serve meanwhile), the rows of earlier events that
  are missing are made, and a task is queued for each.
- :func:`compute` (one task) loads the competition, computes the exact statuses, and either
  simulates everything itself or splits the simulations into chunks, one task each
  (:func:`run_chunk`); the last chunk to finish merges them, so more workers finish sooner.
- Every store is conditional on the row still being at the task's version: a newer change of
  the standings supersedes a running forecast, which then stores nothing.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.forecast import (
    ChunkResult,
    EntrantStatus,
    TitleStatus,
    merge,
    simulate_chunk,
)
from scoring.forecast import Forecast as EngineForecast
from tournament.forecasts.loaders import MAIN, NotForecastable, Problem, load
from tournament.forecasts.models import Forecast, ForecastChunk, ForecastStatus
from tournament.forecasts.signals import forecast_ready

log = logging.getLogger(__name__)

COMPUTING, READY = ForecastStatus.COMPUTING, ForecastStatus.READY


def enabled() -> bool:
    """Whether changes of the standings queue forecasts (``PODIUM_FORECASTS``; on by default,
    off under tests, which turn it on where they test forecasts)."""
    return bool(getattr(settings, "PODIUM_FORECASTS", not getattr(settings, "TESTING", False)))


def simulations() -> int:
    """Simulations per forecast (``PODIUM_FORECAST_SIMULATIONS``, default 10,000)."""
    return max(1, int(getattr(settings, "PODIUM_FORECAST_SIMULATIONS", 10_000)))


def chunk_size() -> int:
    """Simulations per chunk task (``PODIUM_FORECAST_CHUNK``, default 2,500)."""
    return max(1, int(getattr(settings, "PODIUM_FORECAST_CHUNK", 2_500)))


# --- planning ------------------------------------------------------------------------------


def plan(kind: str, competition_id: int, version: int, after: int, first_changed: int) -> list[int]:
    """Make the rows a change of the standings needs; answer the ``after`` values to compute
    (the new standings' first, then the missing earlier ones)."""
    rows = Forecast.objects.filter(kind=kind, competition_id=competition_id)
    with transaction.atomic():
        rows.filter(after__gt=after).delete()
        rows.filter(after__gte=first_changed, after__lt=after).delete()
        todo = []
        current = rows.select_for_update().filter(after=after).first()
        if current is None:
            Forecast.objects.create(
                kind=kind, competition_id=competition_id, after=after, version=version
            )
            todo.append(after)
        elif current.version < version:
            if first_changed > after and current.status == READY:
                # Nothing it forecasts from changed (a later rally of a rally championship).
                rows.filter(pk=current.pk).update(version=version)
            else:
                rows.filter(pk=current.pk).update(version=version, status=COMPUTING)
                todo.append(after)
        # earlier rows left computing by an older version (a lost message): asked for again
        waiting = rows.filter(after__lt=after, status=COMPUTING, version__lt=version)
        todo += sorted(waiting.values_list("after", flat=True), reverse=True)
        waiting.update(version=version)
        have = set(rows.values_list("after", flat=True))
        for earlier in range(after - 1, -1, -1):
            if earlier not in have:
                try:
                    with transaction.atomic():
                        Forecast.objects.create(
                            kind=kind, competition_id=competition_id, after=earlier, version=version
                        )
                except IntegrityError:
                    continue  # made meanwhile by another change
                todo.append(earlier)
    return todo


def queue(kind: str, competition_id: int, version: int, afters: Iterable[int]) -> None:
    """Queue a forecast task per ``after`` value (after the commit of the caller's work)."""
    from tournament.forecasts.tasks import forecast_task

    afters = list(afters)

    def send() -> None:
        for after in afters:
            try:
                forecast_task.delay(kind, competition_id, after, version)
            except Exception:  # a broker outage: the row stays computing; a later change redoes it
                log.exception("could not queue the forecast of %s %s", kind, competition_id)

    transaction.on_commit(send)


def request(kind: str, competition_id: int, version: int, after: int, first_changed: int) -> None:
    """Plan and queue (what the receivers and a first read call)."""
    todo = plan(kind, competition_id, version, after, first_changed)
    if todo:
        queue(kind, competition_id, version, todo)


# --- JSON ------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def plain(value: Any) -> Any:
    """``value`` as JSON data (numpy numbers, sets and tuples made plain)."""
    return json.loads(json.dumps(value, default=_plain))


def statuses_json(statuses: dict[str, TitleStatus]) -> dict[str, list[dict[str, Any]]]:
    return plain({t: [e.to_json() for e in s.entrants] for t, s in statuses.items()})


def statuses_from_json(data: dict[str, list[dict[str, Any]]]) -> dict[str, TitleStatus]:
    """Enough of the stored statuses for :func:`scoring.forecast.merge` (the marks)."""
    return {
        title: TitleStatus(
            title,
            0,
            tuple(EntrantStatus(e["entrant"], e["name"], e["status"]) for e in entrants),
        )
        for title, entrants in data.items()
    }


def chunk_json(chunk: ChunkResult) -> dict[str, Any]:
    return {
        "start": chunk.start,
        "count": chunk.count,
        "shares": {t: a.tolist() for t, a in chunk.shares.items()},
        "positions": chunk.positions.tolist(),
    }


def chunk_from_json(data: dict[str, Any]) -> ChunkResult:
    return ChunkResult(
        data["start"],
        data["count"],
        {t: np.array(a, dtype=np.int64) for t, a in data["shares"].items()},
        np.array(data["positions"], dtype=np.int64),
    )


def _entry(problem: Problem, title: str, entrant: Hashable) -> dict[str, Any]:
    key = problem.keys[title]
    name = problem.names[title].get(entrant, str(entrant))
    return {key: entrant, "name": name} if key else {"name": name}


def _scenario(problem: Problem, title: str, scenario: Any) -> Any:
    if scenario is None or problem.keys[title] is not None:
        return scenario
    # Rally championships: the engine's units are indices of its drivers; show the names.
    names = list(problem.names[title].values())
    for event in scenario:
        event["order"] = [
            names[u] if isinstance(u, int) and u < len(names) else u for u in event["order"]
        ]
    return scenario


def result_json(
    problem: Problem, forecast: EngineForecast, exact: dict[str, list[dict[str, Any]]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The stored ``titles`` and ``positions`` of a merged forecast."""
    titles: dict[str, Any] = {}
    for title, odds in forecast.titles.items():
        marks = {e["entrant"]: e for e in exact.get(title, [])}
        rows = []
        for entrant, probability, status in odds.ranked():
            known = marks.get(entrant, {})
            rows.append(
                {
                    **_entry(problem, title, entrant),
                    "probability": round(float(probability), 6),
                    "status": status,
                    "reason": known.get("reason")
                    and {
                        "code": known["reason"]["code"],
                        "params": known["reason"]["params"],
                    },
                    "needs_help": bool(known.get("needs_help")),
                    "scenario": _scenario(problem, title, known.get("scenario")),
                }
            )
        titles[title] = rows
    main = forecast.main
    dist = [
        {**_entry(problem, main, e), "distribution": [round(float(p), 6) for p in probs]}
        for e, probs in forecast.positions.items()
    ]
    # best expected rank first
    dist.sort(key=lambda row: sum((i + 1) * p for i, p in enumerate(row["distribution"])))
    return plain(titles), plain({MAIN[main]: dist})


# --- computing -------------------------------------------------------------------------------


def _row(kind: str, competition_id: int, after: int, version: int) -> Forecast | None:
    return Forecast.objects.filter(
        kind=kind, competition_id=competition_id, after=after, version=version, status=COMPUTING
    ).first()


def compute(kind: str, competition_id: int, after: int, version: int) -> str:
    """The forecast task's work: ``done``, ``queued`` (chunks), ``superseded`` or ``moot``."""
    row = _row(kind, competition_id, after, version)
    if row is None:
        return "superseded"
    try:
        problem = load(kind, competition_id, after)
    except NotForecastable:
        return "moot"
    total = simulations()
    count = max(1, math.ceil(total / chunk_size()))
    exact = statuses_json(problem.statuses)
    stored = Forecast.objects.filter(pk=row.pk, version=version, status=COMPUTING).update(
        exact=exact, chunks=count, simulations=total, seed=problem.seed
    )
    if not stored:
        return "superseded"
    if count == 1:
        chunk = simulate_chunk(
            problem.spec,
            problem.scorer,
            seed=problem.seed,
            chunk_index=0,
            chunk_size=total,
            simulations=total,
        )
        return "done" if finish(row.pk, version, problem, [chunk], exact) else "superseded"
    from celery import group

    from tournament.forecasts.tasks import forecast_chunk_task

    group(
        forecast_chunk_task.si(kind, competition_id, after, version, index)
        for index in range(count)
    ).apply_async()
    return "queued"


def run_chunk(kind: str, competition_id: int, after: int, version: int, index: int) -> str:
    """One chunk task: simulate, store the counts; the last chunk merges (``done``)."""
    row = _row(kind, competition_id, after, version)
    if row is None:
        return "superseded"
    try:
        problem = load(kind, competition_id, after)
    except NotForecastable:
        return "moot"
    size = math.ceil(row.simulations / row.chunks)
    chunk = simulate_chunk(
        problem.spec,
        problem.scorer,
        seed=row.seed,
        chunk_index=index,
        chunk_size=size,
        simulations=row.simulations,
    )
    try:
        with transaction.atomic():
            ForecastChunk.objects.create(
                forecast=row, version=version, index=index, counts=chunk_json(chunk)
            )
    except IntegrityError:
        pass  # a redelivered message: the counts are stored already
    with transaction.atomic():
        locked = (
            Forecast.objects.select_for_update()
            .filter(pk=row.pk, version=version, status=COMPUTING)
            .first()
        )
        if locked is None:
            return "superseded"
        parts = list(locked.parts.filter(version=version).order_by("index"))
        if len(parts) < locked.chunks:
            return "waiting"
        chunks = [chunk_from_json(p.counts) for p in parts]
        finish(locked.pk, version, problem, chunks, locked.exact)
    return "done"


def finish(
    pk: int,
    version: int,
    problem: Problem,
    chunks: Sequence[ChunkResult],
    exact: dict[str, list[dict[str, Any]]],
) -> bool:
    """Merge and store (if the row is still at ``version``); send ``forecast_ready``."""
    merged = merge(problem.spec, chunks, seed=problem.seed, statuses=statuses_from_json(exact))
    titles, positions = result_json(problem, merged, exact)
    with transaction.atomic():
        stored = Forecast.objects.filter(pk=pk, version=version, status=COMPUTING).update(
            status=READY,
            titles=titles,
            positions=positions,
            simulations=merged.simulations,
            seed=merged.seed,
            computed_at=timezone.now(),
        )
        ForecastChunk.objects.filter(forecast_id=pk).delete()
        if stored:
            kind, competition_id, after = problem.kind, problem.competition_id, problem.after

            def announce() -> None:
                forecast_ready.send_robust(
                    sender=kind,
                    kind=kind,
                    competition_id=competition_id,
                    version=version,
                    after=after,
                )

            transaction.on_commit(announce)
    return bool(stored)
