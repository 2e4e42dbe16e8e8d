"""Celery tasks of the forecasts: ids in, one service call (tournament/forecasts/service.py).

A forecast task of an older standings version finds its row moved on and stores nothing; a
chunk delivered twice stores its counts once. A lost message leaves its row ``computing``
until the next change of the standings (or the next read) plans it again.
"""

from __future__ import annotations

from celery import shared_task

from tournament.forecasts import service


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def forecast_task(kind: str, competition_id: int, after: int, version: int) -> str:
    """Compute the forecast of ``kind`` ``competition_id`` after event ``after``."""
    return service.compute(kind, competition_id, after, version)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def forecast_chunk_task(
    kind: str, competition_id: int, after: int, version: int, index: int
) -> str:
    """Simulate chunk ``index`` of that forecast; the last chunk merges and stores it."""
    return service.run_chunk(kind, competition_id, after, version, index)
