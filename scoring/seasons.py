"""Club seasons (issue #19 item 4): points by final rank over several competitions.

A season groups finished competitions of any game. Each one gives a player the points of their
final rank in its main title (``points[rank - 1]``; nothing past the end of the table). The
season's standings order the players by (SEASON-1) points, then (SEASON-2) countback of those
ranks (more 1st places, then more 2nd places, ...), then (SEASON-3) name, case-insensitively.
Rows level on points with the row above carry a :class:`~scoring.tie_break.TieBreak` saying which
criterion separated them, in the project's style (``tie_break`` in the JSON, a sentence on the
page). The rule numbers are Podium's own (docs/seasons.md), not a game's rulebook.

Pure: plain numbers and names in, plain rows out; the loading step (``tournament/seasons``)
reads the competitions' final standings and the entries' player links.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.tie_break import TieBreak, countback_break, format_params, place_counts

RULE_POINTS = "SEASON-1"
RULE_COUNTBACK = "SEASON-2"
RULE_NAME = "SEASON-3"

#: The season's own tie-break codes (the countback reuses ``more_wins`` / ``more_places``).
TEMPLATES: dict[str, str] = {
    "season_name": "Same points and countback; name order",
    "season_shared": "Same points, countback and name: they share {rank}",
}


def points_for(points: Sequence[int], rank: int | None) -> int:
    """What a final ``rank`` is worth in the season's table (0 past its end or unranked)."""
    if rank is None or rank < 1 or rank > len(points):
        return 0
    return points[rank - 1]


@dataclass(frozen=True)
class SeasonRow:
    """One player's line in the season's standings."""

    rank: int
    player_id: int
    name: str
    points: int
    #: The player's final rank in each competition of the season, in the season's order;
    #: ``None`` where they did not enter it or it does not count (not finished).
    results: tuple[int | None, ...]
    tie_break: TieBreak | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank,
            "player_id": self.player_id,
            "name": self.name,
            "points": self.points,
            "results": list(self.results),
        }
        if self.tie_break is not None:
            out["tie_break"] = tie_break_json(self.tie_break)
        return out


def tie_break_json(tie_break: TieBreak) -> dict[str, Any]:
    """The stored form of a season row's tie-break (the project's ``code/rule/params/text``)."""
    if tie_break.code not in TEMPLATES:
        return tie_break.to_json()
    text = TEMPLATES[tie_break.code].format(**format_params(tie_break.params))
    return {
        "code": tie_break.code,
        "rule": tie_break.rule,
        "params": dict(tie_break.params),
        "text": f"{text} ({tie_break.rule})",
    }


def season_standings(
    *,
    points: Sequence[int],
    names: Mapping[int, str],
    results: Mapping[int, Sequence[int | None]],
) -> list[SeasonRow]:
    """The season's standings from each player's final ranks.

    ``names``: player id → name; ``results``: player id → final rank in each competition that
    counts (``None`` where the player has none). Every player of ``results`` gets a row, even
    with 0 points (they took part). Players level on points, countback and name (which a club's
    unique player names never are) share the rank.
    """
    deepest = max((r for ranks in results.values() for r in ranks if r is not None), default=0)
    totals = {p: sum(points_for(points, r) for r in ranks) for p, ranks in results.items()}
    counts = {p: place_counts(ranks, deepest) for p, ranks in results.items()}

    def order(player: int) -> tuple[Any, ...]:
        return (-totals[player], [-c for c in counts[player]], names[player].casefold())

    ordered = sorted(results, key=lambda p: (*order(p), p))
    rows: list[SeasonRow] = []
    for position, player in enumerate(ordered, start=1):
        rank, tie_break = position, None
        above = rows[-1] if rows else None
        if above is not None and totals[above.player_id] == totals[player]:
            tie_break = countback_break(counts[above.player_id], counts[player], RULE_COUNTBACK)
            if tie_break is None and order(above.player_id) == order(player):
                rank = above.rank
                tie_break = TieBreak("season_shared", RULE_NAME, {"rank": rank})
            elif tie_break is None:
                tie_break = TieBreak("season_name", RULE_NAME, {})
        rows.append(
            SeasonRow(
                rank=rank,
                player_id=player,
                name=names[player],
                points=totals[player],
                results=tuple(results[player]),
                tie_break=tie_break,
            )
        )
    return rows


__all__ = [
    "RULE_COUNTBACK",
    "RULE_NAME",
    "RULE_POINTS",
    "TEMPLATES",
    "SeasonRow",
    "points_for",
    "season_standings",
    "tie_break_json",
]
