"""A simulated stage's log (FR-73) as a compact round-by-round table for the stage page.

The engine logs one row per rider and round with named columns; this turns it into rows of
rounds with one short cell per rider: the card played, the squares covered, and marks for
slipstream, exhaustion, tokens and the crossing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

CARD_MARKS = {"exhaustion": "X", "attack": "A"}


@dataclass(frozen=True)
class ReplayCell:
    card: str
    start: int
    end: int
    slip: int
    exhausted: bool
    tokens: str
    crossed: bool
    seconds: int | None


@dataclass(frozen=True)
class ReplayRound:
    number: int
    cells: tuple[ReplayCell | None, ...]  # None: the rider had already left the track


@dataclass(frozen=True)
class Replay:
    riders: tuple[tuple[int, str], ...]  # (rider id, name) in grid order, dummies included
    rounds: tuple[ReplayRound, ...]


def build_replay(replay: dict[str, Any] | None, name_of: Callable[[int], str]) -> Replay | None:
    """The table for a stored replay, or None when there is none or it cannot be read."""
    log = (replay or {}).get("log")
    if not isinstance(log, dict):
        return None
    try:
        columns = {name: i for i, name in enumerate(log["columns"])}
        cards = log["cards"]
        order = [entry[0] for entry in log["grid"]]
        column = {rider: i for i, rider in enumerate(order)}
        riders = tuple((rider, _name(rider, name_of)) for rider in order)
        rounds = []
        for entry in log["rounds"]:
            cells: list[ReplayCell | None] = [None] * len(order)
            for row in entry["riders"]:
                cells[column[row[columns["rider"]]]] = _cell(row, columns, cards)
            rounds.append(ReplayRound(number=entry["round"], cells=tuple(cells)))
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return Replay(riders=riders, rounds=tuple(rounds))


def _name(rider: int, name_of: Callable[[int], str]) -> str:
    # Dummy riders have negative ids (games.flamme_rouge.setup): Peloton -1/-2, Muscle -3/-4.
    if rider < 0:
        return {-1: "Peloton 1", -2: "Peloton 2", -3: "Muscle S", -4: "Muscle R"}.get(
            rider, f"Dummy {-rider}"
        )
    return name_of(rider)


def _cell(row: list[Any], columns: dict[str, int], cards: list[Any]) -> ReplayCell:
    kind, value, _symbols = cards[row[columns["played"]]]
    tokens = row[columns["tokens"]] or []
    return ReplayCell(
        card=CARD_MARKS.get(kind, str(value)),
        start=row[columns["from"]],
        end=row[columns["to"]],
        slip=int(row[columns["slip"]] or 0),
        exhausted=bool(row[columns["exhausted"]]),
        tokens="+".join(str(t[-1]) for t in tokens if isinstance(t, list) and t),
        crossed=bool(row[columns["crossed"]]),
        seconds=row[columns["seconds"]],
    )
