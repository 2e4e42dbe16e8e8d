"""A player's record across the club's competitions (API.md "Players and club history").

Per competition entered: ``kind``, ``id``, ``name``, ``finished`` (every event resolved),
``rank`` (in the main title, final or current: Tour Points for tours, the drivers' standings for
Formula D championships and leagues, the overall time for rallies; ``null`` before the first
resolved event), ``titles`` (the main title when finished first, plus, for tours, the jerseys the
team's riders hold at the end of a finished tour), ``event_wins`` (stages or races won) and
``jerseys`` (for tours: per jersey, after how many stages one of the team's riders held it).

A projection of :func:`tournament.players.history.club_history` loaded with ``full`` (the same
rows the player page's best results, head-to-head and charts read), so a page that shows both
loads the club's rows once.
"""

from __future__ import annotations

from typing import Any

from tournament.clubs.models import Club
from tournament.players.history import (
    GAMES,
    KINDS,
    CompetitionHistory,
    EntryHistory,
    club_history,
)
from tournament.players.models import Player


def load(
    club: Club, player: Player, user: Any, *, rivals: tuple[int, ...] = ()
) -> list[CompetitionHistory]:
    """What :func:`player_record` reads, for ``player`` of ``club`` (and ``rivals``, for a
    head-to-head); the caller has the club already (no query for ``player.club``)."""
    return club_history(club, user, players=[player.pk, *rivals], full=True)


def player_record(
    player: Player, user: Any, history: list[CompetitionHistory] | None = None
) -> list[dict[str, Any]]:
    """Every competition of ``player`` that ``user`` may see, tours first, then by id.

    ``history`` is :func:`load`'s answer when the caller has it already (it must be loaded
    with ``full`` and include ``player``).
    """
    if history is None:
        history = load(player.club, player, user)
    records = []
    for competition in sorted(history, key=lambda c: (KINDS.index(c.kind), c.pk)):
        for entry in competition.entries.values():
            if entry.player_id == player.pk:
                records.append(_record(competition, entry))
    return records


def _record(competition: CompetitionHistory, entry: EntryHistory) -> dict[str, Any]:
    titles = [GAMES[competition.kind].rows] if competition.finished and entry.rank == 1 else []
    if competition.finished:
        titles += [j for j, team in competition.jerseys_now.items() if team == entry.pk]
    return {
        "kind": competition.kind,
        "id": competition.pk,
        "name": competition.name,
        "public": competition.public,
        "entry": entry.name,
        "finished": competition.finished,
        "rank": entry.rank,
        "titles": titles,
        "event_wins": entry.event_wins,
        "jerseys": dict(competition.jersey_stages.get(entry.pk, {})),
    }
