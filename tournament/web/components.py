"""Generic page pieces: "competition → events → classifications", for every game.

A game's presenter (``grand_tour.py`` today; championships and rallies later) turns its stored
snapshots into these plain objects, and the templates under ``templates/components/`` render any
of them: a standings table, an event list, a line chart, a holder timeline. The CSV export reads
the same tables, so a page and its download never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Cell kinds; the template tag ``cell`` formats each (``time`` → h:mm:ss, ``gap`` → +m:ss).
TEXT, RANK, TIME, GAP, NUMBER = "text", "rank", "time", "gap", "number"
NUMERIC_KINDS = frozenset({RANK, TIME, GAP, NUMBER})


@dataclass(frozen=True)
class Column:
    key: str
    label: Any  # a lazy translation: rendered in the request's language
    kind: str = TEXT

    @property
    def numeric(self) -> bool:
        return self.kind in NUMERIC_KINDS


@dataclass(frozen=True)
class Cell:
    value: Any
    kind: str = TEXT
    href: str | None = None
    icon: str | None = None  # a jersey (or badge) name shown before the value


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    highlight: bool = False  # e.g. the rows of the team whose page this is


@dataclass(frozen=True)
class Table:
    """One classification (or any ranked list) with its columns and rows."""

    slug: str  # anchor, CSV file name
    title: Any
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    icon: str | None = None  # the jersey its leader wears
    csv_url: str | None = None
    empty: Any = ""

    def raw_rows(self) -> list[list[Any]]:
        """Unformatted values, one list per row (CSV: times stay whole seconds, as in the API)."""
        return [[cell.value for cell in row.cells] for row in self.rows]


@dataclass(frozen=True)
class Award:
    """A column of the event list naming who holds something after each event (a jersey)."""

    key: str
    label: Any
    icon: str | None = None


@dataclass(frozen=True)
class EventRow:
    number: int
    name: str
    url: str | None
    status: str
    status_label: Any
    note: Any = ""  # finish type, circuit, ...
    winner: str = ""
    holders: tuple[str, ...] = ()  # one per Award, in order
    after_break: Any = ""  # a Rest Day after this stage


@dataclass(frozen=True)
class EventList:
    title: Any
    awards: tuple[Award, ...]
    rows: tuple[EventRow, ...]
    event_label: Any  # the column heading for the number ("Stage", "Race")


@dataclass
class CompetitionCard:
    """One competition on the home and club pages."""

    kind_label: Any  # "Grand Tour", later "Championship", "Rally"
    name: str
    url: str
    club: str
    club_url: str
    state: str  # running | upcoming | finished: the home page lists running first
    state_label: Any
    progress: Any
    public: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


STATE_ORDER = {"running": 0, "upcoming": 1, "finished": 2}


def sort_cards(cards: list[CompetitionCard]) -> list[CompetitionCard]:
    """Running first, then upcoming, then finished; stable within each state."""
    return sorted(cards, key=lambda card: STATE_ORDER.get(card.state, 3))
