"""Signal receivers that publish live messages (connected in ``LiveConfig.ready``).

``standings_changed`` is sent after the commit of a resolution, failure or correction, in the
process that made it (a worker, or the web process when tasks run eagerly); the receiver
publishes one ``standings`` message for the competition, and for a rally one for each rally
championship counting it. ``forecast_ready`` (``tournament.forecasts``, when that app exists)
publishes ``forecast``. Receivers are quick and never raise (``publish`` logs its errors).
"""

from __future__ import annotations

import logging
from importlib import import_module
from typing import Any

from django.db import DatabaseError

from tournament.competitions.signals import StandingsChange, standings_changed
from tournament.live.hub import Message, publish
from tournament.live.state import RALLY_CHAMPIONSHIP, Target, rally_championship_state

log = logging.getLogger(__name__)

#: Where the forecasts app sends its signal, if it is installed.
FORECAST_SIGNALS = "tournament.forecasts.signals"


def standings_message(state_json: dict[str, Any], change: StandingsChange) -> Message:
    """``{"after_stage": 4, "version": 17}`` (API.md), with the event and outcome added."""
    data = {**state_json, "event": change.event_number, "outcome": change.outcome}
    return Message("standings", data, id=int(state_json["version"]))


def on_standings_changed(sender: Any, change: StandingsChange, **kwargs: Any) -> None:
    target = Target(change.kind, change.competition_id)
    publish(
        target.key,
        standings_message({target.after_key: change.after, "version": change.version}, change),
    )
    if change.kind == "rally":
        _publish_rally_championships(change)


def _publish_rally_championships(change: StandingsChange) -> None:
    from tournament.rallies.models import ChampionshipRally

    try:
        championships = list(
            ChampionshipRally.objects.filter(rally_id=change.competition_id).values_list(
                "championship_id", flat=True
            )
        )
        states = {pk: rally_championship_state(pk) for pk in championships}
    except DatabaseError as exc:  # the rally's own message is out; the pages poll
        log.warning("live update of the championships of rally %s: %s", change.competition_id, exc)
        return
    for pk, state in states.items():
        publish(Target(RALLY_CHAMPIONSHIP, pk).key, standings_message(state.as_json(), change))


def on_forecast_ready(sender: Any, **kwargs: Any) -> None:
    """``forecast`` for the competition named by the signal (``kind`` or sender, and
    ``competition_id``), with whatever JSON-safe numbers it sends (``version``, ``after_*``)."""
    kind = kwargs.get("kind") or sender
    pk = kwargs.get("competition_id")
    if not isinstance(kind, str) or not isinstance(pk, int):
        log.warning("forecast_ready without kind and competition_id: %r", kwargs)
        return
    data = {
        name: value
        for name, value in kwargs.items()
        if name not in ("signal", "kind", "competition_id")
        and (value is None or isinstance(value, int | str | bool))
    }
    publish(Target(kind, pk).key, Message("forecast", data))


def connect() -> None:
    standings_changed.connect(on_standings_changed, dispatch_uid="live.standings")
    try:
        signals = import_module(FORECAST_SIGNALS)
    except ModuleNotFoundError as exc:
        if exc.name not in (FORECAST_SIGNALS, FORECAST_SIGNALS.rsplit(".", 1)[0]):
            raise  # a broken import inside the forecasts app is a bug, not an absent app
        return
    forecast_ready = getattr(signals, "forecast_ready", None)
    if forecast_ready is not None:
        forecast_ready.connect(on_forecast_ready, dispatch_uid="live.forecast")
