"""The set-up page of a competition made of rows: drivers and their events (Formula D
championships, leagues, rallies).

Those three pages share, beyond :class:`~tournament.web.setup.views.SetupPage`: the name and
visibility (and, for a game the simulator plays, the seed) on top; rows of drivers and of
events, added and removed by the ``add:<prefix>`` / ``remove:<prefix>:<i>`` buttons, blank ones
dropped and the rest renumbered before a submit (so the request's list indices are the boxes');
the stored rows read back into the edit form; the events' dates, which still change once the
set-up is locked (:class:`~tournament.web.setup.dates.EventDates`); and the read-only set-up a
locked page shows. A game's page says only what differs: its rows' fields and boxes
(:meth:`RowsSetupPage.row_parts`), its own settings (:meth:`RowsSetupPage.settings_values`,
:meth:`RowsSetupPage.setup_body`, :meth:`RowsSetupPage.more_context`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.utils.translation import gettext as _

from tournament.web.setup import entries
from tournament.web.setup.boxes import Box, ErrorMap, Values, box, renumber, ticked, whole_or_text
from tournament.web.setup.dates import EventDates, date_box, local_date, typed_date
from tournament.web.setup.flow import Lock
from tournament.web.setup.views import SetupPage

#: How a row's optional request keys are read from their boxes (left out when empty).
OPTIONAL_READERS = {"drivers": entries.names_list, "date": typed_date, "laps": whole_or_text}


def numbered(index: int | str) -> dict[str, Any]:
    """A row's index in the input names, and its number as people count (``__n__`` for the
    row template, which the script numbers)."""
    return {"index": index, "number": index + 1 if isinstance(index, int) else "__n__"}


def optional_parts(values: Values, row: str, *names: str) -> dict[str, Any]:
    """The optional keys ``names`` of row ``row``'s request object that were filled in: an
    entry list (``drivers``), a ``date``, ``laps``; an empty box sends nothing (the default)."""
    found = {}
    for name in names:
        read = OPTIONAL_READERS[name](values.get(f"{row}-{name}"))
        if read is not None:
            found[name] = read
    return found


def stored_text(value: Any) -> str:
    """A stored row's value as its box shows it: an entry list as names, None as empty."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return entries.names_text(value)
    return str(value)


class RowsSetupPage(EventDates, SetupPage):
    """A set-up page of rows. Class attributes, besides :class:`SetupPage`'s:

    - ``blank_rows``: each row prefix (``drivers``, ``races``) → the fields a new row starts
      with, in the page's order; the last prefix holds the events (``event_prefix``);
    - ``new_rows``: how many blank rows of each prefix the new form offers;
    - ``takes_seed``: the create request takes a ``seed`` (the simulator's dice).
    """

    blank_rows: ClassVar[Mapping[str, Mapping[str, str]]]
    new_rows: ClassVar[Mapping[str, int]] = {}
    takes_seed: ClassVar[bool] = False

    # --- what a game supplies --------------------------------------------------------------

    def settings_values(self, competition: Any) -> Values:
        """The form's values of the game's own settings: of ``competition``, or the defaults."""
        return {}

    def setup_body(self, values: Values, competition: Any) -> dict[str, Any]:
        """The set-up keys of the request besides the rows (no part of a locked edit)."""
        return {}

    def row_parts(
        self, prefix: str, values: Values, errors: ErrorMap, row: str, index: int | str, state: Any
    ) -> dict[str, Any]:
        """One row's ``boxes`` (and any other parts its template draws); ``row`` is its
        name prefix (``races-2``), ``state`` what :meth:`row_state` read."""
        raise NotImplementedError

    def row_request(self, prefix: str, values: Values, row: str, index: int, state: Any) -> dict:
        """One filled row as the request's object."""
        raise NotImplementedError

    def row_state(self, competition: Any) -> Any:
        """What drawing or reading the rows needs of the stored competition (read once)."""
        return None

    def stored_row(self, prefix: str, item: Mapping[str, Any]) -> Values:
        """A stored row (an item of the set-up payload) as its boxes' values, field by field."""
        return {
            name: local_date(item.get(name)) if name == "date" else stored_text(item.get(name))
            for name in self.blank_rows[prefix]
        }

    def more_context(
        self, values: Values, errors: ErrorMap, *, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        """The page's own boxes besides the top ones and the rows."""
        return {}

    # --- values ----------------------------------------------------------------------------

    def initial(self, club: Any) -> Values:
        values: Values = {"name": "", "public": "on"}
        if self.takes_seed:
            values["seed"] = ""
        values |= self.settings_values(None)
        for prefix, count in self.new_rows.items():
            for index in range(count):
                values |= self.blank_row(prefix, index)
        return values

    def blank_row(self, prefix: str, index: int | str) -> Values:
        return {f"{prefix}-{index}-{k}": v for k, v in self.blank_rows[prefix].items()}

    def current(self, competition: Any) -> Values:
        setup = self.kind.setup_payload(competition)
        values: Values = {
            "name": competition.name,
            "public": "on" if competition.public else "",
        }
        values |= self.settings_values(competition)
        for prefix in self.blank_rows:
            for index, item in enumerate(setup[prefix]):
                stored = self.stored_row(prefix, item)
                values |= {f"{prefix}-{index}-{k}": v for k, v in stored.items()}
        return values

    def normalise(self, values: Values) -> Values:
        for prefix in self.blank_rows:
            values = renumber(values, prefix, entries.row_numbers(values, prefix))
        return values

    def act(self, values: Values, action: str) -> Values:
        return entries.row_action(super().act(values, action), action, self.blank_rows)

    # --- the request -----------------------------------------------------------------------

    def payload(
        self, values: Values, *, club: Any = None, competition: Any = None, locked: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"name": values.get("name", ""), "public": ticked(values, "public")}
        if club is not None:
            body["club"] = club.slug
            seed = whole_or_text(values.get("seed")) if self.takes_seed else None
            if seed is not None:
                body["seed"] = seed
        if locked:
            return body
        state = self.row_state(competition)
        body |= self.setup_body(values, competition)
        for prefix in self.blank_rows:
            body[prefix] = [
                self.row_request(prefix, values, f"{prefix}-{i}", i, state)
                for i in entries.row_numbers(values, prefix)
            ]
        return body

    # --- the page --------------------------------------------------------------------------

    def context(
        self, values: Values, errors: ErrorMap, *, club: Any, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        # First: a locked page shows only these, and each box takes its own errors.
        dates = self.locked_dates(values, errors, competition, lock)
        context: dict[str, Any] = {"general": self.general(values, errors, competition, lock)}
        state = self.row_state(competition)
        context["rows"] = {
            prefix: {
                "prefix": prefix,
                "rows": [
                    self.row(prefix, values, errors, i, state)
                    for i in entries.drawn_rows(values, prefix)
                ],
                "errors": errors.take(prefix),
                # What the script copies for a new row (and the page numbers for it).
                "template": self.row(
                    prefix, self.blank_row(prefix, "__i__"), ErrorMap(), "__i__", state
                ),
            }
            for prefix in self.blank_rows
        }
        context |= self.more_context(values, errors, competition=competition, lock=lock)
        context |= self.locked_summary(competition, lock)
        context["locked_dates"] = dates
        return context

    def general(self, values: Values, errors: ErrorMap, competition: Any, lock: Lock) -> list[Box]:
        """The boxes on top: the name, the visibility, a new competition's seed."""
        general = [
            box(values, errors, "name", _("Name"), required=True),
            box(values, errors, "public", _("Public: anyone can read the standings"), kind="check"),
        ]
        if self.takes_seed and competition is None:
            general.append(
                box(
                    values,
                    errors,
                    "seed",
                    _("Seed"),
                    kind="number",
                    help=_("Optional: the simulator's dice follow it. Empty: a random one."),
                )
            )
        return general

    def row(
        self, prefix: str, values: Values, errors: ErrorMap, index: int | str, state: Any
    ) -> dict[str, Any]:
        """One row for ``championship_rows.html``: its boxes take their errors first, then the
        row gathers what is left below it."""
        row = f"{prefix}-{index}"
        parts = self.row_parts(prefix, values, errors, row, index, state)
        return {**numbered(index), **parts, "errors": errors.take_under(row)}

    def driver_boxes(
        self, values: Values, errors: ErrorMap, row: str, *, team: bool = True
    ) -> list[Box]:
        """A driver row's name and, where drivers of one team score together, team."""
        boxes = [box(values, errors, f"{row}-name", _("Driver"))]
        if team:
            boxes.append(
                box(
                    values,
                    errors,
                    f"{row}-team",
                    _("Team"),
                    help=_("Optional; drivers of one team score together."),
                )
            )
        return boxes

    @staticmethod
    def driver_request(values: Values, row: str, *, team: bool = True) -> dict[str, Any]:
        driver: dict[str, Any] = {"name": values.get(f"{row}-name", "")}
        if team:
            driver["team"] = values.get(f"{row}-team", "").strip() or None
        return driver

    def locked_dates(
        self, values: Values, errors: ErrorMap, competition: Any, lock: Lock
    ) -> list[Box]:
        """The date boxes a locked page still offers, one per event."""
        if competition is None or not lock.locked:
            return []
        found = []
        for number, _date in self.event_dates(values, competition):
            made = date_box(values, errors, self.date_name(number))
            made.label = self.kind.event_label(number)
            found.append(made)
        return found

    def locked_summary(self, competition: Any, lock: Lock) -> dict[str, Any]:
        """What a locked set-up page shows instead of the boxes: the set-up as it is stored."""
        if competition is None or not lock.locked:
            return {"setup_summary": None, "lock_more": []}
        setup = self.kind.setup_payload(competition)
        return {
            "setup_summary": setup,
            "locked_points": list(getattr(competition, "points", ()) or ()),
            "locked_rules": sorted(setup.get("rules", {}).items()),
            "lock_more": [],
        }


__all__ = ["RowsSetupPage", "local_date", "numbered", "optional_parts", "typed_date"]
