"""The organisers' league pages: ``/clubs/<slug>/leagues/new/`` and ``/leagues/<id>/edit/``
(issue #15, items 3 and 4).

A league is a game's name, a points table (a preset of the catalogue or the club's own list),
``drop_worst``, ``points_finishers_only``, ``bonus_points``, drivers with optional teams and
races with optional entry lists (API.md, "Leagues"). The posted boxes become the API's create
or PATCH request and run through the kind's serializers (``LeagueSetupSerializer``), so the
page, the API and the admin refuse the same things; errors come back on their boxes.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.points import DEFAULT_LEAGUE_POINTS, LEAGUE_POINTS_PRESETS
from tournament.championships.setup_pages import RowsAndDates, date_box, locked_summary, numbered
from tournament.tours.setup_page import local_date, typed_date
from tournament.web.setup import entries
from tournament.web.setup.boxes import ErrorMap, Values, box, ticked, whole_or_text
from tournament.web.setup.flow import Lock
from tournament.web.setup.views import SetupPage

_BLANK_DRIVER = {"name": "", "team": ""}
_BLANK_RACE = {"name": "", "drivers": "", "date": ""}
ROWS = {"drivers": _BLANK_DRIVER, "races": _BLANK_RACE}


class LeagueSetupPage(RowsAndDates, SetupPage):
    kind_label = "league"
    template = "web/setup/league.html"

    def initial(self, club: Any) -> Values:
        values: Values = {"name": "", "public": "on", "game": "", "drop_worst": "0"}
        values |= {"points_finishers_only": "on", "bonus_points": ""}
        values |= entries.points_values(None, DEFAULT_LEAGUE_POINTS)
        for index in range(4):
            values |= {f"drivers-{index}-{k}": v for k, v in _BLANK_DRIVER.items()}
        for index in range(3):
            values |= {f"races-{index}-{k}": v for k, v in _BLANK_RACE.items()}
        return values

    def current(self, league: Any) -> Values:
        setup = self.kind.setup_payload(league)
        values: Values = {
            "name": league.name,
            "public": "on" if league.public else "",
            "game": league.game,
            "drop_worst": str(league.drop_worst),
            "points_finishers_only": "on" if league.points_finishers_only else "",
            "bonus_points": "on" if league.bonus_points else "",
        }
        values |= entries.points_values(league.points, league.points_preset)
        for index, driver in enumerate(setup["drivers"]):
            values[f"drivers-{index}-name"] = driver["name"]
            values[f"drivers-{index}-team"] = driver.get("team") or ""
        for index, race in enumerate(setup["races"]):
            values[f"races-{index}-name"] = race["name"]
            values[f"races-{index}-drivers"] = entries.names_text(race.get("drivers"))
            values[f"races-{index}-date"] = local_date(race.get("date"))
        return values

    def act(self, values: Values, action: str) -> Values:
        return entries.row_action(super().act(values, action), action, ROWS)

    def payload(
        self, values: Values, *, club: Any = None, competition: Any = None, locked: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"name": values.get("name", ""), "public": ticked(values, "public")}
        if club is not None:
            body["club"] = club.slug
        if locked:
            return body
        drop = whole_or_text(values.get("drop_worst"))
        body |= {
            "game": values.get("game", ""),
            "points": entries.points_payload(values),
            "drop_worst": 0 if drop is None else drop,
            "points_finishers_only": ticked(values, "points_finishers_only"),
            "bonus_points": ticked(values, "bonus_points"),
            "drivers": [
                {
                    "name": values.get(f"drivers-{i}-name", ""),
                    "team": values.get(f"drivers-{i}-team", "").strip() or None,
                }
                for i in entries.row_numbers(values, "drivers")
            ],
            "races": [self._race(values, i) for i in entries.row_numbers(values, "races")],
        }
        return body

    def _race(self, values: Values, index: int) -> dict[str, Any]:
        row = f"races-{index}"
        race: dict[str, Any] = {"name": values.get(f"{row}-name", "")}
        entered = entries.names_list(values.get(f"{row}-drivers"))
        if entered is not None:
            race["drivers"] = entered
        date = typed_date(values.get(f"{row}-date"))
        if date is not None:
            race["date"] = date
        return race

    def context(
        self, values: Values, errors: ErrorMap, *, club: Any, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        # First: a locked page shows only these, and each box takes its own errors.
        dates = self.locked_dates(values, errors, competition, lock)
        general = [
            box(values, errors, "name", _("Name"), required=True),
            box(values, errors, "public", _("Public: anyone can read the standings"), kind="check"),
        ]
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
            "general": general,
            "points": entries.points_boxes(values, errors, LEAGUE_POINTS_PRESETS),
            "scoring_boxes": scoring,
            "drivers": [
                self._driver_row(values, errors, i) for i in entries.drawn_rows(values, "drivers")
            ],
            "drivers_errors": errors.take("drivers"),
            "races": [
                self._race_row(values, errors, i) for i in entries.drawn_rows(values, "races")
            ],
            "races_errors": errors.take("races"),
            "driver_template": self._driver_row({}, ErrorMap(), "__i__"),
            "race_template": self._race_row({}, ErrorMap(), "__i__"),
            **locked_summary(self.kind, competition, lock),
            "locked_dates": dates,
        }

    def _driver_row(self, values: Values, errors: ErrorMap, index: int | str) -> dict[str, Any]:
        row = f"drivers-{index}"
        boxes = [
            box(values, errors, f"{row}-name", _("Driver")),
            box(
                values,
                errors,
                f"{row}-team",
                _("Team"),
                help=_("Optional; drivers of one team score together."),
            ),
        ]
        return {**numbered(index), "boxes": boxes, "errors": errors.take_under(row)}

    def _race_row(self, values: Values, errors: ErrorMap, index: int | str) -> dict[str, Any]:
        row = f"races-{index}"
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
        return {**numbered(index), "boxes": boxes, "errors": errors.take_under(row)}

    def detail_url(self, league: Any) -> str:
        return reverse("leagues:league", args=[league.pk])

    def created_message(self, league: Any) -> str:
        return _("League %(name)s is set up.") % {"name": league.name}


PAGE = LeagueSetupPage()
new = PAGE.new_view()
edit = PAGE.edit_view()
