"""The organisers' league pages: ``/clubs/<slug>/leagues/new/`` and ``/leagues/<id>/edit/``
(issue #15, items 3 and 4).

A league is a game's name, a points table (a preset of the catalogue or the club's own list),
``drop_worst``, ``points_finishers_only``, ``bonus_points``, drivers with optional teams and
races with optional entry lists (API.md, "Leagues"). The posted boxes become the API's create
or PATCH request and run through the kind's serializers (``LeagueSetupSerializer``), so the
page, the API and the admin refuse the same things; errors come back on their boxes. What every
page of rows does (the rows, the dates, the lock) is :class:`~tournament.web.setup.rows_page.
RowsSetupPage`'s; this module says what a league adds.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.points import DEFAULT_LEAGUE_POINTS, LEAGUE_POINTS_PRESETS
from tournament.web.setup import entries
from tournament.web.setup.boxes import Box, ErrorMap, Values, box, ticked, whole_or_text
from tournament.web.setup.dates import date_box
from tournament.web.setup.flow import Lock
from tournament.web.setup.rows_page import RowsSetupPage, optional_parts


class LeagueSetupPage(RowsSetupPage):
    kind_label = "league"
    template = "web/setup/league.html"
    detail_route = "leagues:league"
    created_text = gettext_lazy("League %(name)s is set up.")
    new_title = gettext_lazy("New league")
    create_label = gettext_lazy("Create the league")
    blank_rows = {
        "drivers": {"name": "", "team": ""},
        "races": {"name": "", "drivers": "", "date": ""},
    }
    new_rows = {"drivers": 4, "races": 3}

    def settings_values(self, league: Any) -> Values:
        if league is None:
            values = {"game": "", "drop_worst": "0", "points_finishers_only": "on"}
            return (
                values | {"bonus_points": ""} | entries.points_values(None, DEFAULT_LEAGUE_POINTS)
            )
        return {
            "game": league.game,
            "drop_worst": str(league.drop_worst),
            "points_finishers_only": "on" if league.points_finishers_only else "",
            "bonus_points": "on" if league.bonus_points else "",
            **entries.points_values(league.points, league.points_preset),
        }

    def setup_body(self, values: Values, competition: Any) -> dict[str, Any]:
        drop = whole_or_text(values.get("drop_worst"))
        return {
            "game": values.get("game", ""),
            "points": entries.points_payload(values),
            "drop_worst": 0 if drop is None else drop,
            "points_finishers_only": ticked(values, "points_finishers_only"),
            "bonus_points": ticked(values, "bonus_points"),
        }

    def row_request(self, prefix: str, values: Values, row: str, index: int, state: Any) -> dict:
        if prefix == "drivers":
            return self.driver_request(values, row)
        return {"name": values.get(f"{row}-name", "")} | optional_parts(
            values, row, "drivers", "date"
        )

    def general(self, values: Values, errors: ErrorMap, competition: Any, lock: Lock) -> list[Box]:
        general = super().general(values, errors, competition, lock)
        if not lock.locked:
            general.append(
                box(
                    values,
                    errors,
                    "game",
                    _("Game"),
                    help=_("Free text shown on the pages, e.g. Heat: Pedal to the Metal."),
                )
            )
        return general

    def more_context(
        self, values: Values, errors: ErrorMap, *, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        scoring = [
            box(
                values,
                errors,
                "drop_worst",
                _("Drop worst results"),
                kind="number",
                unit=_("races"),
                help=_("Each driver's lowest race totals discarded (FD-74)."),
            ),
            box(
                values,
                errors,
                "points_finishers_only",
                _("Only finishers score"),
                kind="check",
                help=_("A driver who did not finish (DNF) scores nothing (FD-71)."),
            ),
            box(
                values,
                errors,
                "bonus_points",
                _("Bonus points"),
                kind="check",
                help=_("Result rows may give a driver bonus points (a fastest lap, a pole…)."),
            ),
        ]
        return {
            "points": entries.points_boxes(values, errors, LEAGUE_POINTS_PRESETS),
            "scoring_boxes": scoring,
        }

    def row_parts(
        self, prefix: str, values: Values, errors: ErrorMap, row: str, index: int | str, state: Any
    ) -> dict[str, Any]:
        if prefix == "drivers":
            return {"boxes": self.driver_boxes(values, errors, row)}
        boxes = [
            box(values, errors, f"{row}-name", _("Race name"), placeholder=_("e.g. USA")),
            box(
                values,
                errors,
                f"{row}-drivers",
                _("Drivers entered"),
                help=_("Names separated by commas; empty: every driver."),
            ),
            date_box(values, errors, f"{row}-date"),
        ]
        return {"boxes": boxes}


PAGE = LeagueSetupPage()
new = PAGE.new_view()
edit = PAGE.edit_view()
