"""The pages' own background work: a tour's "simulate the remaining stages" (``web.run``)."""

from __future__ import annotations

from celery import shared_task
from django.contrib.auth import get_user_model

from tournament.competitions.kinds import get_kind


@shared_task(acks_late=True, reject_on_worker_lost=True)
def simulate_remaining_task(kind_label: str, competition_id: int, user_id: int | None) -> int:
    """Play every event without results, in order, each resolved before the next.

    Idempotent by construction: a redelivered message starts again from the first event that
    still has no results, and each event's simulation is stored once (its version guard).
    """
    from tournament.web.run import play_remaining

    by = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    return play_remaining(kind=get_kind(kind_label), competition_id=competition_id, by=by)
