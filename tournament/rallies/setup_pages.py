"""The organisers' rally pages: ``/clubs/<slug>/rallies/new/`` and ``/rallies/<id>/edit/``
(issue #15, items 3 and 4).

Drivers, stages drawn from the sample layouts (or none: scored from sheets only, not
simulated), Super Rally and every other rule of rules/rallyman.md as typed boxes
(``setup_rules``). The posted boxes become the API's request and run through the kind's
serializers (``RallySetupSerializer``): a rally without drivers or stages is refused here as by
the API and the admin, with the message on its section. What every page of rows does is
:class:`~tournament.web.setup.rows_page.RowsSetupPage`'s; this module says what a rally adds.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.rallyman import SAMPLE_STAGES
from tournament.rallies.setup import layout_name
from tournament.rallies.setup_rules import RULES
from tournament.web.setup.boxes import ErrorMap, Values, box
from tournament.web.setup.dates import date_box
from tournament.web.setup.flow import Lock
from tournament.web.setup.rows_page import RowsSetupPage, optional_parts

#: A stored layout document (not a sample's name) is kept as it is while the box says so.
KEEP = "keep"


def layout_choices(kept: str = "") -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", gettext_lazy("none: results only, no simulation"))]
    choices += [(name, layout_name(name)) for name in SAMPLE_STAGES]
    if kept:
        choices.append((KEEP, kept))
    return choices


class RallySetupPage(RowsSetupPage):
    event_prefix = "stages"
    kind_label = "rally"
    template = "web/setup/rally.html"
    detail_route = "rallies:rally"
    created_text = gettext_lazy("Rally %(name)s is set up.")
    new_title = gettext_lazy("New rally")
    create_label = gettext_lazy("Create the rally")
    rules = RULES
    blank_rows = {"drivers": {"name": ""}, "stages": {"name": "", "layout": "", "date": ""}}
    new_rows = {"drivers": 4}  # the stages: the box's sample ones
    takes_seed = True

    def settings_values(self, rally: Any) -> Values:
        if rally is not None:
            return RULES.values(rally.rules)
        values = RULES.values()
        for index, layout in enumerate(SAMPLE_STAGES):
            values |= {f"stages-{index}-name": f"SS{index + 1}", f"stages-{index}-layout": layout}
        return values

    def stored_row(self, prefix: str, item: Any) -> Values:
        values = super().stored_row(prefix, item)
        if prefix == "stages":
            layout = item.get("layout")
            values["layout"] = layout if isinstance(layout, str) else KEEP if layout else ""
        return values

    def row_state(self, rally: Any) -> list[Any]:
        """The stored stages' layouts: a layout document the samples do not name is kept."""
        if rally is None:
            return []
        return [stage.get("layout") for stage in self.kind.setup_payload(rally)["stages"]]

    def setup_body(self, values: Values, competition: Any) -> dict[str, Any]:
        # A rally stores its rules whole: the full set keeps a value put back to default.
        return {"rules": RULES.payload(values) if competition is None else RULES.read(values)}

    def row_request(self, prefix: str, values: Values, row: str, index: int, state: Any) -> dict:
        if prefix == "drivers":
            return self.driver_request(values, row, team=False)
        layout: Any = values.get(f"{row}-layout", "") or None
        if layout == KEEP:
            layout = state[index] if index < len(state) else None
        stage = {"name": values.get(f"{row}-name", ""), "layout": layout}
        return stage | optional_parts(values, row, "date")

    def more_context(
        self, values: Values, errors: ErrorMap, *, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        return {"rule_sections": RULES.param_sections(values, errors)}

    def row_parts(
        self, prefix: str, values: Values, errors: ErrorMap, row: str, index: int | str, state: Any
    ) -> dict[str, Any]:
        if prefix == "drivers":
            return {"boxes": self.driver_boxes(values, errors, row, team=False)}
        stored = state[index] if isinstance(index, int) and index < len(state) else None
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
        return {"boxes": boxes}


PAGE = RallySetupPage()
new = PAGE.new_view()
edit = PAGE.edit_view()
