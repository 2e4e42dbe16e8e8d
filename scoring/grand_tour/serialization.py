"""Standings to and from the JSON of ``GET /api/tours/{id}/standings/`` (API.md).

The service stores one snapshot per stage as this JSON and may rebuild a :class:`Standings` from
it; the round trip is exact. Besides the contract's keys the JSON carries ``stage`` (the stage's
podium and Rest Day awards), ``final`` and ``winner``: adding fields is allowed by the contract.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from scoring.grand_tour.model import (
    JERSEYS,
    ExhaustionRow,
    RiderPointsRow,
    RiderTimeRow,
    StageSummary,
    Standings,
    TeamTimeRow,
    TourPointsRow,
)
from scoring.tie_break import TieBreak

Row = TypeVar("Row")
TIE_BREAK = "tie_break"


def _row_to_json(row: Any) -> dict[str, Any]:
    # Row field names are the contract's keys, in the contract's order; ``tie_break`` only on
    # the rows that have one (a row level with the one above, issue #17).
    out = {f.name: getattr(row, f.name) for f in dataclasses.fields(row) if f.name != TIE_BREAK}
    tie_break = getattr(row, TIE_BREAK, None)
    if tie_break is not None:
        out[TIE_BREAK] = tie_break.to_json()
    return out


def _rows_from_json(cls: type[Row], items: Any) -> tuple[Row, ...]:
    names = [f.name for f in dataclasses.fields(cls) if f.name != TIE_BREAK]  # type: ignore[arg-type]
    if TIE_BREAK not in {f.name for f in dataclasses.fields(cls)}:  # type: ignore[arg-type]
        return tuple(cls(**{name: item[name] for name in names}) for item in items)
    # Snapshots stored before tie-breaks existed have none: they read as None.
    return tuple(
        cls(
            **{name: item[name] for name in names},
            **{TIE_BREAK: TieBreak.from_json(item.get(TIE_BREAK))},
        )
        for item in items
    )


def standings_to_json(standings: Standings) -> dict[str, Any]:
    """The API's standings object for ``standings``: plain dicts, lists, ints, None and bools."""
    stage = standings.stage
    return {
        "after_stage": standings.after_stage,
        "general": [_row_to_json(r) for r in standings.general],
        "sprint": [_row_to_json(r) for r in standings.sprint],
        "mountain": [_row_to_json(r) for r in standings.mountain],
        "team": [_row_to_json(r) for r in standings.team],
        "jerseys": {name: standings.jerseys.get(name) for name in JERSEYS},
        "tour_points": [_row_to_json(r) for r in standings.tour_points],
        "exhaustion": [_row_to_json(r) for r in standings.exhaustion],
        "next_start_order": (
            None if standings.next_start_order is None else list(standings.next_start_order)
        ),
        "stage": None
        if stage is None
        else {
            "number": stage.number,
            "podium": list(stage.podium),
            "rest_day": stage.rest_day,
            "rest_day_awards": [
                {"classification": name, "rider": rider} for name, rider in stage.rest_day_awards
            ],
        },
        "final": standings.final,
        "winner": standings.winner,
    }


def standings_from_json(data: Mapping[str, Any]) -> Standings:
    """Rebuild :class:`Standings` from :func:`standings_to_json`'s output.

    Raises ``ValueError`` when ``data`` is not such a snapshot.
    """
    try:
        stage_data = data["stage"]
        stage = (
            None
            if stage_data is None
            else StageSummary(
                number=stage_data["number"],
                podium=tuple(stage_data["podium"]),
                rest_day=stage_data["rest_day"],
                rest_day_awards=tuple(
                    (item["classification"], item["rider"])
                    for item in stage_data["rest_day_awards"]
                ),
            )
        )
        order = data["next_start_order"]
        return Standings(
            after_stage=data["after_stage"],
            general=_rows_from_json(RiderTimeRow, data["general"]),
            sprint=_rows_from_json(RiderPointsRow, data["sprint"]),
            mountain=_rows_from_json(RiderPointsRow, data["mountain"]),
            team=_rows_from_json(TeamTimeRow, data["team"]),
            jerseys={name: data["jerseys"][name] for name in JERSEYS},
            tour_points=_rows_from_json(TourPointsRow, data["tour_points"]),
            exhaustion=_rows_from_json(ExhaustionRow, data["exhaustion"]),
            next_start_order=None if order is None else tuple(order),
            stage=stage,
            final=data["final"],
            winner=data["winner"],
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a Grand Tour standings snapshot: {exc!r}") from exc


__all__ = ["standings_from_json", "standings_to_json"]
