"""The thin loading step: rally rows → the pure engines' dataclasses, and back.

Stored result rows (``RallyStage.results``) are the checked sheet entries of RM-52 with their
computed times; these helpers turn them into :class:`scoring.rally.StageEntry` and compute who is
out of the rally before a stage (RM-46), without Django queries of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.rallyman import RallyRules, parse_rules
from scoring.rally import Penalty, RallyDriver, StageEntry, StageSheet

#: The championship settings of RM-47 to RM-50: top-level fields of a rally championship, never
#: part of a rally's ``rules`` (API.md).
CHAMPIONSHIP_SETTINGS = frozenset({"points", "power_stage", "power_stage_points", "drop_worst"})


#: Fields the service computes (RM-52 "stored per entry"); ignored on input, so the rows of a
#: stage detail can be sent back as they are, and stored rows re-validate after a correction.
COMPUTED_FIELDS = frozenset(
    {"net_time", "penalty_time", "stage_time", "cards", "tokens", "warnings"}
)


def submitted_fields(row: Any) -> Any:
    """A sheet row without the computed fields (anything not an object is left to the checks)."""
    if not isinstance(row, Mapping):
        return row
    return {k: v for k, v in row.items() if k not in COMPUTED_FIELDS}


def rally_rules(rules: Mapping[str, Any]) -> RallyRules:
    """The rules of a rally's stored (already checked) ``rules`` JSON."""
    built, _errors = parse_rules(dict(rules))
    return built


def rally_drivers(rows: Iterable[tuple[int, str]]) -> tuple[RallyDriver, ...]:
    """``(id, name)`` pairs in entry-list order → the engine's drivers."""
    return tuple(RallyDriver(id=pk, name=name) for pk, name in rows)


def stored_entry(row: Mapping[str, Any]) -> StageEntry:
    """A stored result row → the engine's entry (net time without penalties, RM-52)."""
    return StageEntry(
        driver=row["driver"],
        status=row["status"],
        net_time=row.get("net_time"),
        penalties=tuple(Penalty(p["seconds"], p["reason"]) for p in row.get("penalties") or []),
        cards=row.get("cards"),
        tokens=row.get("tokens"),
    )


def stage_sheets(results: Sequence[Sequence[Mapping[str, Any]]]) -> list[StageSheet]:
    """The stored rows of stages 1..k → the engine's sheets, numbered from 1."""
    return [
        StageSheet(number, tuple(stored_entry(row) for row in rows))
        for number, rows in enumerate(results, start=1)
    ]


def out_of_rally(earlier: Iterable[Iterable[Mapping[str, Any]]], rules: RallyRules) -> set[int]:
    """Drivers out of the rally after the given earlier stages' rows (RM-46).

    With Super Rally nobody is ever out; without it, a driver retired on any earlier stage is.
    Computed row by row (not through the full classification) so that a later stage can be
    checked even while an earlier one is itself invalid after a correction.
    """
    if rules.super_rally:
        return set()
    return {
        row["driver"]
        for rows in earlier
        for row in rows
        if isinstance(row, Mapping) and row.get("status") == "retired"
    }


def result_row(entry: StageEntry, raw: Mapping[str, Any], warnings: list[str]) -> dict[str, Any]:
    """The stored row: the fields as submitted (``time`` in whole seconds) plus computed times.

    ``driver`` comes first: the audit diff matches rows by their first key.
    """
    time = raw.get("time")
    return {
        "driver": entry.driver,
        "status": entry.status,
        # "As submitted", but API.md: responses always give integer seconds, so an m:ss time is
        # stored converted; null when only a log was given.
        "time": entry.net_time if time is not None else None,
        "log": " ".join(raw["log"].split()) if raw.get("log") is not None else None,
        "penalties": [{"seconds": p.seconds, "reason": p.reason} for p in entry.penalties],
        "net_time": entry.net_time,
        "penalty_time": entry.penalty_time,
        "stage_time": entry.stage_time,
        "cards": entry.cards,
        "tokens": entry.tokens,
        "warnings": warnings,
    }
