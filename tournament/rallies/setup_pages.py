"""The organisers' rally pages: ``/clubs/<slug>/rallies/new/`` and ``/rallies/<id>/edit/``
(issue #15, items 3 and 4).

Drivers, stages drawn from the sample layouts (or none: scored from sheets only, not
simulated), Super Rally and every other rule of rules/rallyman.md as typed boxes
(``setup_rules``). The posted boxes become the API's request and run through the kind's
serializers (``RallySetupSerializer``): a rally without drivers or stages is refused here as by
the API and the admin, with the message on its section.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.rallyman import SAMPLE_STAGES
from tournament.championships.setup_pages import RowsAndDates, date_box, locked_summary, numbered
from tournament.rallies.setup import layout_name
from tournament.rallies.setup_rules import RULES
from tournament.tours.setup_page import local_date, typed_date
from tournament.web.setup import entries
from tournament.web.setup.boxes import ErrorMap, Values, box, ticked, whole_or_text
from tournament.web.setup.flow import Lock
from tournament.web.setup.views import SetupPage

_BLANK_DRIVER = {"name": ""}
_BLANK_STAGE = {"name": "", "layout": "", "date": ""}
ROWS = {"drivers": _BLANK_DRIVER, "stages": _BLANK_STAGE}
#: A stored layout document (not a sample's name) is kept as it is while the box says so.
KEEP = "keep"


def layout_choices(kept: str = "") -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", gettext_lazy("none: results only, no simulation"))]
    choices += [(name, layout_name(name)) for name in SAMPLE_STAGES]
    if kept:
        choices.append((KEEP, kept))
    return choices


class RallySetupPage(RowsAndDates, SetupPage):
    row_prefixes = ("drivers", "stages")
    event_prefix = "stages"

    kind_label = "rally"
    template = "web/setup/rally.html"
    rules = RULES

    def initial(self, club: Any) -> Values:
        values: Values = {"name": "", "public": "on", "seed": ""}
        values |= RULES.values()
        for index in range(4):
            values[f"drivers-{index}-name"] = ""
        for index, layout in enumerate(SAMPLE_STAGES):
            values |= {f"stages-{index}-name": f"SS{index + 1}", f"stages-{index}-layout": layout}
        return values

    def current(self, rally: Any) -> Values:
        setup = self.kind.setup_payload(rally)
        values: Values = {"name": rally.name, "public": "on" if rally.public else ""}
        values |= RULES.values(rally.rules)
        for index, driver in enumerate(setup["drivers"]):
            values[f"drivers-{index}-name"] = driver["name"]
        for index, stage in enumerate(setup["stages"]):
            layout = stage.get("layout")
            values[f"stages-{index}-name"] = stage["name"]
            values[f"stages-{index}-layout"] = (
                layout if isinstance(layout, str) else KEEP if layout else ""
            )
            values[f"stages-{index}-date"] = local_date(stage.get("date"))
        return values

    def act(self, values: Values, action: str) -> Values:
        return entries.row_action(super().act(values, action), action, ROWS)

    def payload(
        self, values: Values, *, club: Any = None, competition: Any = None, locked: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"name": values.get("name", ""), "public": ticked(values, "public")}
        if club is not None:
            body["club"] = club.slug
            seed = whole_or_text(values.get("seed"))
            if seed is not None:
                body["seed"] = seed
        if locked:
            return body
        kept = self._kept_layouts(competition)
        body |= {
            "drivers": [
                {"name": values.get(f"drivers-{i}-name", "")}
                for i in entries.row_numbers(values, "drivers")
            ],
            "stages": [self._stage(values, i, kept) for i in entries.row_numbers(values, "stages")],
            # A rally stores its rules whole: the full set keeps a value put back to default.
            "rules": RULES.payload(values) if competition is None else RULES.read(values),
        }
        return body

    def _kept_layouts(self, rally: Any) -> list[Any]:
        if rally is None:
            return []
        return [stage.get("layout") for stage in self.kind.setup_payload(rally)["stages"]]

    def _stage(self, values: Values, index: int, kept: list[Any]) -> dict[str, Any]:
        row = f"stages-{index}"
        layout: Any = values.get(f"{row}-layout", "") or None
        if layout == KEEP:
            layout = kept[index] if index < len(kept) else None
        stage: dict[str, Any] = {"name": values.get(f"{row}-name", ""), "layout": layout}
        date = typed_date(values.get(f"{row}-date"))
        if date is not None:
            stage["date"] = date
        return stage

    def context(
        self, values: Values, errors: ErrorMap, *, club: Any, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        # First: a locked page shows only these, and each box takes its own errors.
        dates = self.locked_dates(values, errors, competition, lock)
        general = [
            box(values, errors, "name", _("Name"), required=True),
            box(values, errors, "public", _("Public: anyone can read the standings"), kind="check"),
        ]
        if competition is None:
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
        kept = self._kept_layouts(competition)
        return {
            "general": general,
            "drivers": [
                self._driver_row(values, errors, i) for i in entries.drawn_rows(values, "drivers")
            ],
            "drivers_errors": errors.take("drivers"),
            "stages": [
                self._stage_row(values, errors, i, kept)
                for i in entries.drawn_rows(values, "stages")
            ],
            "stages_errors": errors.take("stages"),
            "driver_template": self._driver_row({}, ErrorMap(), "__i__"),
            "stage_template": self._stage_row({}, ErrorMap(), "__i__", []),
            "rule_sections": RULES.param_sections(values, errors),
            **locked_summary(self.kind, competition, lock),
            "locked_dates": dates,
        }

    def _driver_row(self, values: Values, errors: ErrorMap, index: int | str) -> dict[str, Any]:
        row = f"drivers-{index}"
        boxes = [box(values, errors, f"{row}-name", _("Driver"))]
        return {**numbered(index), "boxes": boxes, "errors": errors.take_under(row)}

    def _stage_row(
        self, values: Values, errors: ErrorMap, index: int | str, kept: list[Any]
    ) -> dict[str, Any]:
        row = f"stages-{index}"
        stored = kept[index] if isinstance(index, int) and index < len(kept) else None
        own = layout_name(stored) if isinstance(stored, dict) else ""
        boxes = [
            box(values, errors, f"{row}-name", _("Stage name"), placeholder=_("e.g. SS1 Pena")),
            box(
                values,
                errors,
                f"{row}-layout",
                _("Layout"),
                kind="select",
                choices=layout_choices(own),
                help=_("A sample stage of the box; without one the stage cannot be simulated."),
            ),
            date_box(values, errors, f"{row}-date"),
        ]
        return {**numbered(index), "boxes": boxes, "errors": errors.take_under(row)}

    def detail_url(self, rally: Any) -> str:
        return reverse("rallies:rally", args=[rally.pk])

    def created_message(self, rally: Any) -> str:
        return _("Rally %(name)s is set up.") % {"name": rally.name}


PAGE = RallySetupPage()
new = PAGE.new_view()
edit = PAGE.edit_view()
