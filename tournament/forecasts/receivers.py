"""What starts a forecast: a change of a competition's standings (``standings_changed``), a
rally added to a rally championship, and the first read of a competition never forecast."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from tournament.competitions.signals import StandingsChange, standings_changed
from tournament.forecasts import service
from tournament.forecasts.loaders import (
    RALLY_CHAMPIONSHIP,
    championship_rallies,
    competition_of,
    counted,
    current,
)

log = logging.getLogger(__name__)


def rally_championships_of(rally_id: int) -> list[Any]:
    from tournament.rallies.models import RallyChampionship

    return list(RallyChampionship.objects.filter(rallies__pk=rally_id).distinct())


def replan_rally_championship(championship: Any, rally_id: int | None) -> None:
    """A rally of the championship changed (or was added): re-forecast from where it counts."""
    rallies = championship_rallies(championship)
    after, version = len(counted(rallies)), current(RALLY_CHAMPIONSHIP, championship)[1]
    # an added rally changes what is left (recompute the current forecast, keep the others)
    position = next((i for i, r in enumerate(rallies, start=1) if r.pk == rally_id), after)
    service.request(RALLY_CHAMPIONSHIP, championship.pk, version, after, position)


def on_standings_changed(sender: Any, change: StandingsChange, **kwargs: Any) -> None:
    if not service.enabled():
        return
    try:
        service.request(
            change.kind,
            change.competition_id,
            change.version,
            change.after or 0,
            change.event_number,
        )
        if change.kind == "rally":
            for championship in rally_championships_of(change.competition_id):
                replan_rally_championship(championship, change.competition_id)
    except Exception:  # a receiver never raises (signals.py): the next change plans again
        log.exception("could not plan the forecast of %s %s", change.kind, change.competition_id)


def on_rally_added(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created or not service.enabled():
        return
    championship_id = instance.championship_id

    def plan() -> None:
        try:
            replan_rally_championship(competition_of(RALLY_CHAMPIONSHIP, championship_id), None)
        except Exception:
            log.exception("could not plan the forecast of rally championship %s", championship_id)

    transaction.on_commit(plan)


def connect() -> None:
    from tournament.rallies.models import ChampionshipRally

    standings_changed.connect(on_standings_changed, dispatch_uid="forecasts.standings_changed")
    post_save.connect(
        on_rally_added, sender=ChampionshipRally, dispatch_uid="forecasts.rally_added"
    )
