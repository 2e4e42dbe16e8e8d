"""A club's hall of fame (issue #19 item 3): titles, records and current holders.

Plain functions over :func:`tournament.players.history.club_history` (with ``full``), so the
page and the API read the same figures:

- **titles**, per player: the main titles of finished competitions won (Tour Points, the
  drivers' standings, the rally's overall), per game, and the jerseys a tour team's riders held
  at the end of a finished tour;
- **records**, per game: the most event wins in one competition (stages or races); the largest
  winning margin of a finished competition (Tour Points or championship points; seconds for
  rallies); the longest run leading (for tours, in the yellow jersey: consecutive stages after
  which one of the team's riders wore it); for tours also the most jerseys (stages after which
  one of the team's riders wore a jersey, every jersey counted). A record needs a figure above
  zero; every entry that equals it holds it (oldest first);
- **holders**, per running competition (some results, not finished): the leader of the main
  title now, and for tours each jersey's team.

Entries without a club player are shown by their name, without a link.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tournament.clubs.models import Club
from tournament.players.history import KINDS, CompetitionHistory, club_history
from tournament.players.models import Player

#: Records per game, in the page's order: (key, games it applies to).
RECORDS = (
    ("event_wins", KINDS),
    ("margin", KINDS),
    ("lead_run", KINDS),
    ("jersey_stages", ("tour",)),
)


@dataclass(frozen=True)
class Holder:
    player_id: int | None
    name: str  # the player's name (the entry's when it has no player)
    kind: str
    competition_id: int
    competition: str


def _longest_runs(leaders: list[int | None]) -> dict[int, int]:
    """Per entry, its longest run of consecutive events in the lead."""
    best: dict[int, int] = {}
    run, previous = 0, None
    for leader in leaders:
        run = run + 1 if leader is not None and leader == previous else 1
        previous = leader
        if leader is not None:
            best[leader] = max(best.get(leader, 0), run)
    return best


def _figures(record: str, competition: CompetitionHistory) -> dict[int, int]:
    """Entry → its figure for ``record`` in one competition."""
    if record == "event_wins":
        return {pk: e.event_wins for pk, e in competition.entries.items()}
    if record == "margin":
        if not competition.finished or competition.margin is None:
            return {}
        winner = next((pk for pk, e in competition.entries.items() if e.rank == 1), None)
        return {} if winner is None else {winner: competition.margin}
    if record == "lead_run":
        return _longest_runs(competition.leaders)
    return {team: sum(held.values()) for team, held in competition.jersey_stages.items()}


def _holder(competition: CompetitionHistory, entry_pk: int, names: dict[int, str]) -> Holder:
    entry = competition.entries[entry_pk]
    name = names.get(entry.player_id, entry.name) if entry.player_id else entry.name
    return Holder(entry.player_id, name, competition.kind, competition.pk, competition.name)


def records(history: list[CompetitionHistory], names: dict[int, str]) -> list[dict[str, Any]]:
    """Each game's records with a figure above zero: key, kind, figure and its holders."""
    out = []
    for key, kinds in RECORDS:
        for kind in kinds:
            best, leaders = 0, list[Holder]()
            for competition in history:
                if competition.kind != kind:
                    continue
                for entry_pk, figure in _figures(key, competition).items():
                    if entry_pk not in competition.entries or figure < best or figure <= 0:
                        continue
                    if figure > best:
                        best, leaders = figure, []
                    leaders.append(_holder(competition, entry_pk, names))
            if best > 0:
                out.append({"key": key, "kind": kind, "figure": best, "holders": leaders})
    out.sort(key=lambda r: KINDS.index(r["kind"]))  # stable: the records' order within a game
    return out


def titles(history: list[CompetitionHistory], names: dict[int, str]) -> list[dict[str, Any]]:
    """Per player with a title: main titles per game, tour jerseys, total (most first)."""
    table: dict[int, dict[str, Any]] = {}
    for competition in history:
        if not competition.finished:
            continue
        won = [e for e in competition.entries.values() if e.rank == 1]
        jerseys = [competition.entries.get(t) for t in competition.jerseys_now.values() if t]
        for entry, field in [(e, competition.kind) for e in won] + [
            (e, "jerseys") for e in jerseys
        ]:
            if entry is None or entry.player_id is None:
                continue
            row = table.setdefault(
                entry.player_id,
                {
                    "player_id": entry.player_id,
                    "name": names.get(entry.player_id, entry.name),
                    "games": dict.fromkeys(KINDS, 0),
                    "jerseys": 0,
                },
            )
            if field == "jerseys":
                row["jerseys"] += 1
            else:
                row["games"][field] += 1
    rows = list(table.values())
    for row in rows:
        row["total"] = sum(row["games"].values()) + row["jerseys"]
    rows.sort(key=lambda r: (-r["total"], r["name"].casefold(), r["player_id"]))
    return rows


def holders(history: list[CompetitionHistory], names: dict[int, str]) -> list[dict[str, Any]]:
    """Per running competition (newest first): the leader now and, for tours, the jerseys."""
    out = []
    for competition in reversed(history):
        if not competition.running:
            continue
        held = [("leader", pk) for pk, e in competition.entries.items() if e.rank == 1]
        held += [(j, t) for j, t in competition.jerseys_now.items() if t in competition.entries]
        out.append(
            {
                "kind": competition.kind,
                "id": competition.pk,
                "name": competition.name,
                "after": competition.resolved,
                "titles": [
                    {"title": title, **asdict(_holder(competition, pk, names))}
                    for title, pk in held
                    if pk is not None
                ],
            }
        )
    return out


def club_hall_of_fame(club: Club, user: Any) -> dict[str, Any]:
    """The hall of fame over what ``user`` may see (page and API): titles, records, holders."""
    history = club_history(club, user, full=True)
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    return {
        "titles": titles(history, names),
        "records": records(history, names),
        "holders": holders(history, names),
    }
