"""A player's best results and head-to-head against another player (issue #19 item 2).

Plain functions over :func:`tournament.players.history.club_history` values (no queries):

- *best results*, per game: the best rank in the main title (final or current) and in how many
  competitions, and the best finish in a single event (stage or race) and how many times;
- *head-to-head*, per game and per competition both players entered: who ranks ahead in the
  main title, and over the events both finished (a tour team finishes a stage where its best
  rider does), who finished ahead how often. A tie (same place) counts for neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournament.players.history import KINDS, CompetitionHistory, EntryHistory


@dataclass(frozen=True)
class Best:
    kind: str
    rank: int | None  # best rank in the main title
    rank_count: int  # competitions with that rank
    rank_in: tuple[tuple[str, int, str], ...]  # (kind, id, name) of those competitions
    event: int | None  # best finish in one event
    event_count: int  # events with that finish
    competitions: int


def best_results(history: list[CompetitionHistory], player_id: int) -> list[Best]:
    """Per game the player entered, in the pages' order of games."""
    mine: dict[str, list[tuple[CompetitionHistory, EntryHistory]]] = {}
    for competition in history:
        entry = competition.entry_of(player_id)
        if entry is not None:
            mine.setdefault(competition.kind, []).append((competition, entry))
    out = []
    for kind in KINDS:
        if kind not in mine:
            continue
        pairs = mine[kind]
        ranks = [e.rank for _, e in pairs if e.rank is not None]
        rank = min(ranks, default=None)
        places = [p for _, e in pairs for p in e.positions.values()]
        event = min(places, default=None)
        out.append(
            Best(
                kind=kind,
                rank=rank,
                rank_count=ranks.count(rank) if rank is not None else 0,
                rank_in=tuple((c.kind, c.pk, c.name) for c, e in pairs if e.rank == rank)
                if rank is not None
                else (),
                event=event,
                event_count=places.count(event) if event is not None else 0,
                competitions=len(pairs),
            )
        )
    return out


def _ahead(a: int | None, b: int | None) -> int:
    """1 when place ``a`` is ahead of ``b``, -1 when behind, 0 when equal or either is missing."""
    if a is None or b is None or a == b:
        return 0
    return 1 if a < b else -1


def head_to_head(
    history: list[CompetitionHistory], player_id: int, other_id: int
) -> dict[str, Any]:
    """The two players' meetings: per competition, per game and in all (API and page)."""
    meetings = []
    for competition in history:
        a, b = competition.entry_of(player_id), competition.entry_of(other_id)
        if a is None or b is None:
            continue
        shared = sorted(set(a.positions) & set(b.positions))
        duels = [_ahead(a.positions[n], b.positions[n]) for n in shared]
        standing = _ahead(a.rank, b.rank)
        meetings.append(
            {
                "kind": competition.kind,
                "id": competition.pk,
                "name": competition.name,
                "finished": competition.finished,
                "rank": a.rank,
                "other_rank": b.rank,
                "ahead": "player" if standing > 0 else "other" if standing < 0 else None,
                "events": len(shared),
                "events_ahead": duels.count(1),
                "events_behind": duels.count(-1),
            }
        )
    games = []
    for kind in KINDS:
        rows = [m for m in meetings if m["kind"] == kind]
        if rows:
            games.append({"kind": kind, **_totals(rows)})
    return {"competitions": meetings, "games": games, "total": _totals(meetings)}


def _totals(rows: list[dict[str, Any]]) -> dict[str, int]:
    return {
        "competitions": len(rows),
        "ahead": sum(1 for r in rows if r["ahead"] == "player"),
        "behind": sum(1 for r in rows if r["ahead"] == "other"),
        "events": sum(r["events"] for r in rows),
        "events_ahead": sum(r["events_ahead"] for r in rows),
        "events_behind": sum(r["events_behind"] for r in rows),
    }


def rank_series(
    history: list[CompetitionHistory], player_ids: list[int]
) -> tuple[list[CompetitionHistory], dict[int, list[int | None]]]:
    """The competitions any of ``player_ids`` has a rank in (oldest first), and per player the
    rank in each (``None`` where the player has none): the rank-over-time chart's data."""
    chosen = [
        c
        for c in history
        if any((e := c.entry_of(p)) is not None and e.rank is not None for p in player_ids)
    ]
    series: dict[int, list[int | None]] = {}
    for p in player_ids:
        values: list[int | None] = []
        for c in chosen:
            entry = c.entry_of(p)
            values.append(entry.rank if entry is not None else None)
        series[p] = values
    return chosen, series
