"""Signals other parts of Podium listen to (live updates, forecasts, webhooks).

``standings_changed`` is sent once the transaction that changed a competition's standings has
committed, so a receiver always reads what was stored. Receivers must be quick and must not
raise: they queue work (a Celery task, a Redis message) rather than do it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.dispatch import Signal


@dataclass(frozen=True)
class StandingsChange:
    """What changed: ``kind`` is the game kind's label (``tour``, ``championship``, ...)."""

    kind: str
    competition_id: int
    #: The competition's ``standings_version`` after the change.
    version: int
    #: The last event of the resolved run from the first (``after_stage``), None for none.
    after: int | None
    #: The event whose resolution, failure or correction caused the change.
    event_number: int
    #: ``resolved``, ``failed`` or ``corrected`` (a new version withdrew later standings).
    outcome: str


#: Sent with ``change=StandingsChange(...)`` after the commit (``sender`` is the kind's label).
standings_changed = Signal()
