"""``standings_changed`` → deliveries queued (connected in ``WebhooksConfig.ready``)."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction

from tournament.competitions.signals import StandingsChange, standings_changed

log = logging.getLogger(__name__)


def on_standings_changed(sender: Any, change: StandingsChange, **kwargs: Any) -> None:
    from tournament.webhooks import services, tasks

    try:
        made = services.announce(change)
    except Exception:  # a receiver never raises (signals.py); the standings are stored anyway
        log.exception("webhooks for %s %s", change.kind, change.competition_id)
        return
    for pk in made:
        transaction.on_commit(partial(tasks.queue, pk), robust=True)


def connect() -> None:
    standings_changed.connect(on_standings_changed, dispatch_uid="webhooks.standings")
