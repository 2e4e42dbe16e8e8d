"""Rally championship scoring (RM-47 to RM-51).

A championship scores complete rallies, in championship order, with one points table. Drivers
are matched across rallies by name, case-insensitively after trimming and collapsing spaces.
:func:`championship_standings` returns :class:`ChampionshipStandings`, whose ``to_json()`` is the
body of ``GET /api/rally-championships/{id}/standings/``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.params import ParamError, as_int, as_int_tuple, build_rules, param, rules_to_json
from scoring.rally.sheet import FINISHED
from scoring.rally.standings import RallyInputError, RallyStandings, shared_ranks
from scoring.tie_break import TieBreak, countback_break

# RM-47: the WRC scales (the 2025 Super Sunday bonus is not part of it).
PRESETS: dict[str, tuple[int, ...]] = {
    "wrc-2010": (25, 18, 15, 12, 10, 8, 6, 4, 2, 1),
    "wrc-2025": (25, 17, 15, 12, 10, 8, 6, 4, 2, 1),
}


def _table(value: Any) -> tuple[int, ...]:
    values = as_int_tuple(value, minimum=0, allow_empty=False)
    if any(a < b for a, b in itertools.pairwise(values)):
        raise ParamError("Points may not increase down the table.", "points_increasing")
    return values


def _points(value: Any) -> str | tuple[int, ...]:
    if isinstance(value, str):
        if value not in PRESETS:
            raise ParamError(
                "Unknown points preset; choose one of: " + ", ".join(PRESETS) + ".",
                "unknown_preset",
                choices=list(PRESETS),
            )
        return value
    return _table(value)


@dataclass(frozen=True)
class ChampionshipSettings:
    """The top-level settings of a rally championship (RM-47 to RM-50)."""

    points: str | tuple[int, ...] = param("wrc-2010", check=_points)
    power_stage: bool = False
    power_stage_points: tuple[int, ...] = param((5, 4, 3, 2, 1), check=_table)
    drop_worst: int = param(0, check=lambda v: as_int(v, minimum=0, maximum=100))

    @property
    def table(self) -> tuple[int, ...]:
        """The points table (a preset resolved)."""
        return PRESETS[self.points] if isinstance(self.points, str) else self.points

    def cross_check(self) -> Iterator[tuple[str, ParamError]]:
        """No checks across settings."""
        return iter(())

    def to_json(self) -> dict[str, Any]:
        """Every effective setting (``points`` as given: a preset name or a list)."""
        return rules_to_json(self)


def parse_championship_settings(
    data: Mapping[str, Any] | None,
) -> tuple[ChampionshipSettings, dict[str, list[ParamError]]]:
    """``build_rules(ChampionshipSettings, data)``: settings and ``{name: [errors]}``."""
    return build_rules(ChampionshipSettings, data)


def normalize_name(name: str) -> str:
    """The matching key of a driver name: trimmed, inner spaces collapsed, case-folded."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True, slots=True)
class ChampionshipRow:
    """A driver's line: ``results`` per rally (position or None), ``scores`` per rally."""

    rank: int
    name: str
    points: int
    wins: int
    results: tuple[int | None, ...]
    scores: tuple[int, ...]
    power_stage_points: tuple[int, ...]
    dropped: tuple[int, ...]  # 1-based numbers of the rallies whose scores are discarded
    tie_break: TieBreak | None = None  # RM-51 against the row above, when level on points

    def to_json(self) -> dict[str, Any]:
        """The line as the API shows it (``scores`` and the rest are additions)."""
        out: dict[str, Any] = {
            "rank": self.rank,
            "name": self.name,
            "points": self.points,
            "wins": self.wins,
            "results": list(self.results),
            "scores": list(self.scores),
            "power_stage_points": list(self.power_stage_points),
            "dropped": list(self.dropped),
        }
        if self.tie_break is not None:
            out["tie_break"] = self.tie_break.to_json()
        return out


@dataclass(frozen=True, slots=True)
class ChampionshipStandings:
    """Standings after ``after_rally`` counted rallies."""

    after_rally: int | None
    drivers: tuple[ChampionshipRow, ...]

    def to_json(self) -> dict[str, Any]:
        """The body of ``GET /api/rally-championships/{id}/standings/``."""
        return {"after_rally": self.after_rally, "drivers": [d.to_json() for d in self.drivers]}


def power_stage_scores(rally: RallyStandings, table: Sequence[int]) -> dict[int, int]:
    """RM-48: points of the last stage's fastest finishers by stage time; ties share points."""
    if not rally.stages:
        return {}
    last = rally.stages[-1]
    out: dict[int, int] = {}
    for t in last.times:
        if t.status == FINISHED and t.rank is not None and t.rank <= len(table):
            out[t.driver] = table[t.rank - 1]
    return out


def championship_standings(
    rallies: Sequence[RallyStandings], settings: ChampionshipSettings
) -> ChampionshipStandings:
    """RM-47 to RM-51 over complete rallies in championship order.

    Raises :class:`RallyInputError` when two drivers of one rally share a name (after
    normalising), since the championship could not tell them apart.
    """
    if not rallies:
        return ChampionshipStandings(None, ())
    keys, display = _drivers_by_first_appearance(rallies)
    sheet = _score_rallies(rallies, keys, settings)
    count = len(rallies)
    # RM-50: drop the N lowest rally scores (absences included), at most rallies - 1.
    drop = min(settings.drop_worst, count - 1)
    totals: dict[str, int] = {}
    dropped: dict[str, tuple[int, ...]] = {}
    for k in keys:
        worst = sorted(range(count), key=lambda i: (sheet.scores[k][i], i))[:drop]
        dropped[k] = tuple(sorted(i + 1 for i in worst))
        totals[k] = sum(s for i, s in enumerate(sheet.scores[k]) if i + 1 not in dropped[k])
    deepest = max((r for rs in sheet.results.values() for r in rs if r is not None), default=0)

    def order_key(k: str) -> tuple[int, ...]:
        # RM-51: total, then countback over every rally (dropped included): 1sts, 2nds, ...
        counts = [0] * deepest
        for r in sheet.results[k]:
            if r is not None:
                counts[r - 1] += 1
        return (-totals[k], *(-c for c in counts))

    first_seen = {k: i for i, k in enumerate(keys)}
    ordered = sorted(keys, key=lambda k: (order_key(k), first_seen[k]))
    ranks = shared_ranks([order_key(k) for k in ordered])
    rows = tuple(
        ChampionshipRow(
            rank=r,
            name=display[k],
            points=totals[k],
            wins=sum(1 for x in sheet.results[k] if x == 1),
            results=tuple(sheet.results[k]),
            scores=tuple(sheet.scores[k]),
            power_stage_points=tuple(sheet.power[k]),
            dropped=dropped[k],
            tie_break=_tie_break(order_key(ordered[i - 1]), order_key(k), r) if i else None,
        )
        for i, (k, r) in enumerate(zip(ordered, ranks, strict=True))
    )
    return ChampionshipStandings(count, rows)


def _tie_break(above: tuple[int, ...], key: tuple[int, ...], rank: int) -> TieBreak | None:
    """RM-51 between two rows' order keys (-points, -1sts, -2nds, ...): the countback place
    that separates them, or the shared rank; ``None`` when the points differ."""
    if above[0] != key[0]:
        return None
    counted = countback_break([-c for c in above[1:]], [-c for c in key[1:]], "RM-51")
    return counted or TieBreak("shared_points", "RM-51", {"rank": rank})


def _drivers_by_first_appearance(
    rallies: Sequence[RallyStandings],
) -> tuple[list[str], dict[str, str]]:
    """Driver keys in first-appearance order (API: tied drivers listed so), and display names."""
    keys: list[str] = []
    display: dict[str, str] = {}
    for rally in rallies:
        names = [normalize_name(d.name) for d in rally.drivers]
        if len(set(names)) != len(names):
            raise RallyInputError(
                "Two drivers of one rally have the same name.", "duplicate_driver_name"
            )
        for d, key in zip(rally.drivers, names, strict=True):
            if key not in display:
                display[key] = " ".join(d.name.split())
                keys.append(key)
    return keys, display


@dataclass(frozen=True, slots=True)
class _Sheet:
    """Per driver key, one entry per rally: overall rank, rally score, power-stage points."""

    results: dict[str, list[int | None]]
    scores: dict[str, list[int]]
    power: dict[str, list[int]]


def _score_rallies(
    rallies: Sequence[RallyStandings], keys: list[str], settings: ChampionshipSettings
) -> _Sheet:
    count = len(rallies)
    table = settings.table
    sheet = _Sheet(
        results={k: [None] * count for k in keys},
        scores={k: [0] * count for k in keys},
        power={k: [0] * count for k in keys},
    )
    for i, rally in enumerate(rallies):
        by_id = {d.id: normalize_name(d.name) for d in rally.drivers}
        for row in rally.overall:
            if row.rank is not None:
                # RM-49: the p-th value of the table for position p (shared by ties), 0 past it.
                key = by_id[row.driver]
                sheet.results[key][i] = row.rank
                sheet.scores[key][i] = table[row.rank - 1] if row.rank <= len(table) else 0
        if settings.power_stage:
            for driver, pts in power_stage_scores(rally, settings.power_stage_points).items():
                sheet.power[by_id[driver]][i] = pts
                sheet.scores[by_id[driver]][i] += pts
    return sheet
