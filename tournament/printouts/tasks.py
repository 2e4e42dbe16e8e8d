"""The sheet is made by a worker: WeasyPrint takes a second or more for a long tour."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, reject_on_worker_lost=True)
def make_sheet_task(label: str, pk: int, language: str) -> int:
    """Render the sheet of competition ``pk`` in ``language`` and cache it under the standings
    version it shows. Idempotent: a redelivered message renders the same sheet again."""
    from tournament.printouts import store

    return store.make_sheet(label, pk, language)
