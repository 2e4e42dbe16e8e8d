"""A player's record across the club's competitions (API.md "Players and club history").

Per competition: ``kind``, ``id``, ``name``, ``finished`` (every event resolved), ``rank`` (in
the main title, final or current: Tour Points for tours, the drivers' standings for Formula D
championships and leagues, the overall time for rallies; ``null`` before the first resolved
event), ``titles`` (the main title when finished first, plus, for tours, the jerseys the team's
riders hold at the end of a finished tour), ``event_wins`` (stages or races won) and
``jerseys`` (for tours: per jersey, after how many stages one of the team's riders held it).

The queries are a fixed number per game (entries, events, standings, and riders for tours),
whatever the length of the player's history.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.players.models import Player


@dataclass(frozen=True)
class DriverGame:
    kind: str
    model: Any
    link: str
    rows: str  # the standings list of the main title
    wins: str  # the field counting event wins in a standings row


def _driver_games() -> list[DriverGame]:
    from tournament.championships.models import Driver as FDDriver
    from tournament.leagues.models import Driver as LeagueDriver
    from tournament.rallies.models import Driver as RallyDriver

    return [
        DriverGame("championship", FDDriver, "championship", "drivers", "wins"),
        DriverGame("league", LeagueDriver, "league", "drivers", "wins"),
        DriverGame("rally", RallyDriver, "rally", "overall", "stage_wins"),
    ]


def _events(kind: str, ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The events of competitions ``ids``: number, status (and results for tours)."""
    fields = ["competition_id", "number", "status"]
    if kind == "tour":
        fields.append("results")
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = get_kind(kind).event_model.objects.filter(competition_id__in=ids).order_by("number")
    for row in rows.values(*fields):
        out[row["competition_id"]].append(row)
    return out


def _finished(events: list[dict[str, Any]]) -> bool:
    return bool(events) and all(e["status"] == Status.RESOLVED for e in events)


def _latest(snapshot_model: Any, ids: list[int]) -> dict[int, dict[str, Any]]:
    """The latest standings of each competition (PostgreSQL DISTINCT ON, one query)."""
    rows = (
        snapshot_model.objects.filter(competition_id__in=ids)
        .order_by("competition_id", "-number")
        .distinct("competition_id")
        .values("competition_id", "data")
    )
    return {r["competition_id"]: r["data"] for r in rows}


def _driver_records(game: DriverGame, player: Player, user: Any) -> list[dict[str, Any]]:
    competition_model = game.model._meta.get_field(game.link).related_model
    entries = list(
        game.model.objects.filter(
            club_player=player,
            **{f"{game.link}__in": competition_model.objects.visible_to(user)},
        ).select_related(game.link)
    )
    if not entries:
        return []
    ids = [getattr(e, f"{game.link}_id") for e in entries]
    events = _events(game.kind, ids)
    latest = _latest(get_kind(game.kind).snapshot_model, ids)
    out = []
    for entry in entries:
        competition = getattr(entry, game.link)
        data = latest.get(competition.pk, {})
        row: dict[str, Any] = next(
            (r for r in data.get(game.rows, []) if r.get("driver") == entry.pk), {}
        )
        finished = _finished(events[competition.pk])
        rank = row.get("rank")
        out.append(
            {
                "kind": game.kind,
                "id": competition.pk,
                "name": competition.name,
                "public": competition.public,
                "entry": entry.name,
                "finished": finished,
                "rank": rank,
                "titles": [game.rows] if finished and rank == 1 else [],
                "event_wins": int(row.get(game.wins) or 0),
                "jerseys": {},
            }
        )
    return out


def _tour_records(player: Player, user: Any) -> list[dict[str, Any]]:
    from tournament.tours.models import Rider, StageStandings, Team, Tour

    teams = list(
        Team.objects.filter(club_player=player, tour__in=Tour.objects.visible_to(user))
        .select_related("tour")
        .order_by("tour_id")
    )
    if not teams:
        return []
    ids = [t.tour_id for t in teams]
    riders: dict[int, set[int]] = defaultdict(set)
    for pk, team_id in Rider.objects.filter(team__in=teams).values_list("pk", "team_id"):
        riders[team_id].add(pk)
    events = _events("tour", ids)
    snapshots: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for competition_id, data in (
        StageStandings.objects.filter(competition_id__in=ids)
        .order_by("competition_id", "number")
        .values_list("competition_id", "data")
    ):
        snapshots[competition_id].append(data)
    return [_tour_record(t, riders[t.pk], events[t.tour_id], snapshots[t.tour_id]) for t in teams]


def _tour_record(
    team: Any, riders: set[int], events: list[dict[str, Any]], snapshots: list[dict[str, Any]]
) -> dict[str, Any]:
    finished = _finished(events)
    last = snapshots[-1] if snapshots else {}
    row: dict[str, Any] = next(
        (r for r in last.get("tour_points", []) if r.get("team") == team.pk), {}
    )
    rank = row.get("rank")
    jerseys: dict[str, int] = defaultdict(int)
    for data in snapshots:
        for jersey, rider in (data.get("jerseys") or {}).items():
            if rider in riders:
                jerseys[jersey] += 1
    titles = ["tour_points"] if finished and rank == 1 else []
    if finished:
        titles += [j for j, r in (last.get("jerseys") or {}).items() if r in riders]
    wins = sum(
        1
        for e in events
        if e["status"] == Status.RESOLVED
        and any(r.get("position") == 1 and r.get("rider") in riders for r in e["results"] or [])
    )
    return {
        "kind": "tour",
        "id": team.tour.pk,
        "name": team.tour.name,
        "public": team.tour.public,
        "entry": team.name,
        "finished": finished,
        "rank": rank,
        "titles": titles,
        "event_wins": wins,
        "jerseys": dict(jerseys),
    }


def player_record(player: Player, user: Any) -> list[dict[str, Any]]:
    """Every competition of ``player`` that ``user`` may see, tours first, then by id."""
    records = _tour_records(player, user)
    for game in _driver_games():
        records += _driver_records(game, player, user)
    return records
