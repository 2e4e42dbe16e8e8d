"""Simulated events: the game engine plays an event and its results go through the workflow.

A simulation is requested (checked at once: 400/409), played by a worker, and stored as a result
version with ``source = simulated`` and the engine's replay log; from there it resolves exactly
like submitted results. The engine's randomness derives from the competition's seed and the
event number, so simulating again the same event on the same standings gives the same result.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.competitions import services
from tournament.competitions.errors import (
    Conflict,
    InvalidInput,
    ResolutionError,
    VersionConflict,
)
from tournament.competitions.kinds import AnyKind, Document
from tournament.competitions.models import Competition, Event, Source, Status

if TYPE_CHECKING:
    from tournament.competitions.services import Actor

log = logging.getLogger(__name__)


class SimulationUnavailable(InvalidInput):
    """400: the event cannot be simulated (no course or layout)."""


def check_simulation(*, kind: AnyKind, competition: Competition, event: Event) -> None:
    """Raise InvalidInput / Conflict when ``event`` cannot be simulated now.

    Simulating event k needs the standings after event k-1 (start order, carried state), so every
    earlier event must be resolved.
    """
    kind.check_simulable(competition, event)
    earlier = kind.event_model.objects.filter(competition=competition, number__lt=event.number)
    waiting = earlier.exclude(status=Status.RESOLVED).order_by("number").first()
    if waiting is not None:
        raise Conflict(
            _("%(event)s is not resolved yet; a simulation starts from the standings after it.")
            % {"event": kind.event_label(waiting.number)}
        )


def request_simulation(*, kind: AnyKind, competition: Competition, event: Event, by: Actor) -> None:
    """Check, then queue the simulation for a worker once the transaction commits."""
    # tasks imports this module (its task plays the simulation): imported at call time.
    from tournament.competitions.tasks import simulate_event_task

    check_simulation(kind=kind, competition=competition, event=event)
    # The request is stored (with the version seen now, which guards against storing the
    # simulation twice) before it is queued: a message lost with the broker, or taken by a
    # worker that dies, is queued again by the sweeper (tasks.sweep_pending).
    event.request_simulation(by=by, now=timezone.now())
    transaction.on_commit(lambda: simulate_event_task.delay(kind.label, event.pk), robust=True)


def simulate_event(
    *, kind: AnyKind, event_id: int, by: Actor, version: int | None = None
) -> Event | None:
    """Play the event with the engine and submit its results (the worker's job).

    Returns the updated event, or None when the event changed since the request in a way that
    makes the simulation moot (an earlier event no longer resolved).
    """
    event = kind.event_model.objects.select_related("competition").get(pk=event_id)
    competition = event.competition
    if version is not None and event.version != version:
        return None  # already stored by an earlier delivery, or superseded by a submission
    try:
        check_simulation(kind=kind, competition=competition, event=event)
    except (InvalidInput, Conflict) as exc:
        log.warning("simulation of %s %s skipped: %s", kind.label, event_id, exc)
        return None
    try:
        rows, replay = kind.simulate(competition, event)
    except ResolutionError as exc:
        event.record_engine_failure(exc.message)
        return None
    try:
        return services.submit_results(
            kind=kind,
            competition_id=competition.pk,
            number=event.number,
            rows=rows,
            by=by,
            source=Source.SIMULATED,
            replay=replay,
            expected_version=version,
        )
    except VersionConflict:
        return None


def replay_of(*, kind: AnyKind, event: Event) -> Document | None:
    """The replay log of the event's current version, or None if it was not simulated."""
    if event.version == 0 or event.source != Source.SIMULATED:
        return None
    return kind.version_model.objects.current(event).values_list("replay", flat=True).first()
