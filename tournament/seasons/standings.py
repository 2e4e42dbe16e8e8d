"""A season's standings for one reader: load the final ranks, call the pure engine.

Only competitions the reader may see count (a private competition only for the club's members,
as on a player's page), and of those only the finished ones (every event resolved). A player's
rank in a competition is the final rank in its main title (Tour Points for tours, the drivers'
standings for Formula D championships and leagues, the overall classification for rallies), read
by the loader of a player's record and the hall of fame,
:func:`tournament.players.history.club_history`, through the entries' ``club_player`` links. A
player with two entries in one competition keeps the better rank.

The queries are that loader's fixed number per game present in the season, plus one for the
players, whatever the number of competitions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from scoring.seasons import season_standings
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.competitions.tie_break import ordinal, tie_break_text
from tournament.players.history import club_history
from tournament.players.models import Player
from tournament.seasons.models import Season

#: The season codes' sentences; the English msgids are scoring.seasons.TEMPLATES word for word
#: (``%(rank)s`` for ``{rank}``). The countback's codes are the shared ones.
SENTENCES: dict[str, Any] = {
    "season_name": gettext_lazy("Same points and countback; name order"),
    "season_shared": gettext_lazy("Same points, countback and name: they share %(rank)s"),
}


@dataclass(frozen=True)
class Shown:
    """A season's competition as a reader sees it."""

    kind: str
    id: int
    name: str
    finished: bool

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "name": self.name, "finished": self.finished}


def visible_competitions(
    club_id: int, pairs: Iterable[tuple[str, int]], user: Any
) -> dict[tuple[str, int], str]:
    """``(kind, id)`` → name, for the pairs that are competitions of the club ``user`` may see."""
    by_kind: dict[str, list[int]] = defaultdict(list)
    for kind, pk in pairs:
        by_kind[kind].append(pk)
    names: dict[tuple[str, int], str] = {}
    for kind, ids in by_kind.items():
        model = get_kind(kind).competition_model
        rows = model.objects.visible_to(user).filter(club_id=club_id, pk__in=ids)
        for pk, name in rows.values_list("pk", "name"):
            names[(kind, pk)] = name
    return names


def finished_ids(kind: str, ids: list[int]) -> set[int]:
    """Of ``ids``, the competitions whose events are all resolved (and that have events)."""
    statuses: dict[int, set[str]] = defaultdict(set)
    rows = get_kind(kind).event_model.objects.filter(competition_id__in=ids)
    for competition_id, status in rows.values_list("competition_id", "status"):
        statuses[competition_id].add(status)
    return {pk for pk, found in statuses.items() if found == {Status.RESOLVED}}


def _before(rank: int | None, other: int | None) -> bool:
    """Whether ``rank`` is better than ``other`` (no rank is the worst)."""
    return rank is not None and (other is None or rank < other)


def season_table(season: Season, user: Any) -> dict[str, Any]:
    """The standings document: ``competitions`` (as the reader sees them, in the season's order),
    ``points`` and ``players`` (rows of :func:`scoring.seasons.season_standings`)."""
    items = [(i.kind, i.competition_id) for i in season.items.all()]
    history = {(c.kind, c.pk): c for c in club_history(season.club, user, competitions=items)}
    shown = [
        Shown(kind, pk, history[(kind, pk)].name, history[(kind, pk)].finished)
        for kind, pk in items
        if (kind, pk) in history
    ]
    results: dict[int, list[int | None]] = {}
    for index, item in enumerate(shown):
        competition = history[(item.kind, item.id)]
        if not competition.finished:
            continue
        for entry in competition.entries.values():
            if entry.player_id is None:
                continue
            row = results.setdefault(entry.player_id, [None] * len(shown))
            # A player with two entries in one competition keeps the better rank.
            if row[index] is None or _before(entry.rank, row[index]):
                row[index] = entry.rank
    players = dict(Player.objects.filter(pk__in=results).values_list("pk", "name"))
    rows = season_standings(
        points=season.points,
        names=players,
        results={p: r for p, r in results.items() if p in players},
    )
    return {
        "id": season.pk,
        "name": season.name,
        "points": list(season.points),
        "competitions": [c.to_json() for c in shown],
        "players": [localize(row.to_json()) for row in rows],
    }


def localize(row: dict[str, Any]) -> dict[str, Any]:
    """The row's ``tie_break.text`` in the active language (in place)."""
    found = row.get("tie_break")
    if isinstance(found, dict):
        sentence = SENTENCES.get(str(found.get("code")))
        if sentence is None:
            found["text"] = tie_break_text(found)
        else:
            params = {k: ordinal(v) for k, v in (found.get("params") or {}).items()}
            found["text"] = f"{sentence % params} ({found.get('rule', '')})"
    return row
