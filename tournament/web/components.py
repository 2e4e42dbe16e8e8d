"""Generic page pieces: "competition → events → classifications", for every game.

A game's presenter (``grand_tour.py`` today; championships and rallies later) turns its stored
snapshots into these plain objects, and the templates under ``templates/components/`` render any
of them: a standings table, an event list, a line chart, a holder timeline. The CSV export reads
the same tables, so a page and its download never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournament.web.tables import EventLayout, TableLayout

# Cell kinds; the template tag ``cell`` formats each (``time`` → h:mm:ss, ``gap`` → +m:ss).
TEXT, RANK, TIME, GAP, NUMBER = "text", "rank", "time", "gap", "number"
NUMERIC_KINDS = frozenset({RANK, TIME, GAP, NUMBER})


#: Column priorities on a narrow screen (issue #16): ``key`` columns always show (rank, name, the
#: deciding figure); ``more`` columns fold under the name when the table would not fit.
KEY, MORE = "key", "more"


@dataclass(frozen=True)
class Column:
    key: str
    label: Any  # a lazy translation: rendered in the request's language
    kind: str = TEXT
    priority: str = ""  # KEY or MORE; "" lets Table.layout decide (see key_columns)

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
    tie_break: str = ""  # why it ranks after the level row above (issue #17), translated


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

    @cached_property
    def layout(self) -> TableLayout:
        """How the table shows on any width: which columns stay, fold or stick (tables.py)."""
        from tournament.web.tables import table_layout

        return table_layout(self)


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

    @cached_property
    def layout(self) -> EventLayout:
        """The width the list needs before its winner and holder columns fold (tables.py)."""
        from tournament.web.tables import event_layout

        return event_layout(self)


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
    winner: str = ""  # a finished competition's winner, from its last snapshot
    created_at: Any = None  # tells apart two imports of one competition (same name)


STATE_ORDER = {"running": 0, "upcoming": 1, "finished": 2}


def competition_cards(
    queryset: Any,
    *,
    events: str,
    kind_label: Any,
    url_name: str,
    progress: Callable[[int, int], Any],
    snapshots: Any = None,
    winner_path: str = "",
) -> list[CompetitionCard]:
    """Cards for the competitions of ``queryset`` (already filtered by visibility), one query.

    ``events`` is the reverse name of the competition's events (``stages``, ``races``);
    ``progress(done, total)`` words the progress line. With ``snapshots`` (the game's snapshot
    model) and ``winner_path`` (a JSON path in its data, e.g. ``general__0__name``), the
    winner after the last counted event is read by a subquery of the same query (no N+1).
    """
    from django.db.models import Count, OuterRef, Q, Subquery
    from django.db.models.fields.json import KT
    from django.urls import reverse
    from django.utils.translation import gettext as _

    annotations: dict[str, Any] = {
        # distinct: visible_to() joins memberships, which would multiply the counted events.
        "event_count": Count(events, distinct=True),
        "started": Count(events, filter=Q(**{f"{events}__version__gt": 0}), distinct=True),
    }
    if snapshots is not None and winner_path:
        last = snapshots._default_manager.filter(
            competition=OuterRef("pk"), number=OuterRef("standings_through")
        ).values_list(KT(f"data__{winner_path}"))[:1]
        annotations["last_winner"] = Subquery(last)
    competitions = queryset.select_related("club").annotate(**annotations)
    cards = []
    for competition in competitions:
        through = competition.standings_through or 0
        if competition.event_count and through >= competition.event_count:
            state, label = "finished", _("finished")
        elif competition.started:
            state, label = "running", _("running")
        else:
            state, label = "upcoming", _("upcoming")
        cards.append(
            CompetitionCard(
                kind_label=kind_label,
                name=competition.name,
                url=reverse(url_name, args=[competition.pk]),
                club=competition.club.name,
                club_url=reverse("web:club", args=[competition.club.slug]),
                state=state,
                state_label=label,
                progress=progress(through, competition.event_count),
                public=competition.public,
                extra={"club_id": competition.club_id},
                winner=(getattr(competition, "last_winner", None) or "")
                if state == "finished"
                else "",
                created_at=competition.created_at,
            )
        )
    return cards


def sort_cards(cards: list[CompetitionCard]) -> list[CompetitionCard]:
    """Running first, then upcoming, then finished; stable within each state."""
    return sorted(cards, key=lambda card: STATE_ORDER.get(card.state, 3))
