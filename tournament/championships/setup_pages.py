"""The organisers' Formula D pages: ``/clubs/<slug>/championships/new/`` and
``/championships/<id>/edit/`` (issue #15, items 3 and 4).

Built on :class:`tournament.web.setup.rows_page.RowsSetupPage` (the rows, dates and lock every
page of rows shares; this module says what Formula D adds): the posted boxes become the API's own
create (or PATCH) request, which the kind's serializers check (``setup.check_setup``: one set of
checks for the API, the admin, import and this page); their errors come back on the boxes they
name. Circuits come from the catalogue; each race has its laps and, optionally, the drivers
entered (FD-78); drivers have a team and, under the advanced rules with own car builds, a build
(FD-59); the rules are typed boxes grouped by topic (``setup_rules``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.formula_d.rules import ADVANCED_DEFAULTS, DEFAULT_POINTS, POINTS_PRESETS, ZONES
from tournament.catalogue.data import catalogue
from tournament.championships.setup import default_rules_json, explicit_rules
from tournament.championships.setup_rules import ADVANCED_GROUPS, RULES, SCORING, ZONE_LABELS
from tournament.web.setup import entries
from tournament.web.setup.boxes import Box, ErrorMap, Values, box, whole_or_text
from tournament.web.setup.dates import date_box
from tournament.web.setup.flow import Lock
from tournament.web.setup.rows_page import RowsSetupPage, optional_parts

OTHER = "other"


def circuit_choices() -> list[tuple[str, Any]]:
    circuits = [(c["slug"], c["name"]) for c in catalogue()["circuits"]]
    return [("", gettext_lazy("— choose —")), *circuits, (OTHER, gettext_lazy("another board…"))]


def _rule_set(values: Values) -> str:
    chosen = values.get("rule_set", "basic")
    return chosen if chosen in ("basic", "advanced") else "basic"


def set_defaults(sections: list[dict[str, Any]], defaults: dict[str, Any]) -> None:
    """The boxes' defaults under the chosen rule set (FD-58/FD-60 change a few), so "Default:"
    and the groups' "changed" badges speak of the rule set the club plays."""
    for section in sections:
        for param in section["params"]:
            if param.name in ADVANCED_DEFAULTS and len(param.boxes) == 1:
                text = str(defaults[param.name])
                param.boxes[0].default = text
                param.boxes[0].data["default"] = text
        section["changed"] = any(b.changed for p in section["params"] for b in p.boxes)


class ChampionshipSetupPage(RowsSetupPage):
    kind_label = "championship"
    template = "web/setup/championship.html"
    detail_route = "championships:championship"
    created_text = gettext_lazy("Championship %(name)s is set up.")
    new_title = gettext_lazy("New Formula D championship")
    create_label = gettext_lazy("Create the championship")
    rules = RULES
    blank_rows = {
        "drivers": {"name": "", "team": ""},
        "races": {"circuit": "monaco", "laps": "", "drivers": "", "date": ""},
    }
    new_rows = {"drivers": 4, "races": 2}
    takes_seed = True

    # --- values ----------------------------------------------------------------------------

    def settings_values(self, championship: Any) -> Values:
        if championship is None:
            values: Values = {"rule_set": "basic"} | RULES.values(default_rules_json("basic"))
            return values | entries.points_values(None, DEFAULT_POINTS)
        values = {"rule_set": championship.rule_set} | RULES.values(championship.rules)
        return values | entries.points_values(championship.points, championship.points_preset)

    def stored_row(self, prefix: str, item: Any) -> Values:
        values = super().stored_row(prefix, item)
        if prefix == "drivers":
            for zone, wp in (item.get("build") or {}).items():
                values[f"build-{zone}"] = str(wp)
        else:
            shipped = item["circuit"] in {c["slug"] for c in catalogue()["circuits"]}
            values["circuit"] = item["circuit"] if shipped else OTHER
            values["circuit_name"] = "" if shipped else item["circuit"]
        return values

    # --- the request -----------------------------------------------------------------------

    def setup_body(self, values: Values, competition: Any) -> dict[str, Any]:
        base = default_rules_json(_rule_set(values))
        before = explicit_rules(competition.rules, competition.rule_set) if competition else {}
        read = RULES.read(values)
        # An edit also sends what the club set before, so a value put back to its default
        # replaces the old one (a PATCH merges the rules it is sent).
        rules = {k: v for k, v in read.items() if v != base.get(k) or k in before}
        return {
            "rule_set": values.get("rule_set", "basic"),
            "points": entries.points_payload(values),
            "rules": rules,
        }

    def row_request(self, prefix: str, values: Values, row: str, index: int, state: Any) -> dict:
        if prefix == "drivers":
            driver = self.driver_request(values, row)
            build = {zone: whole_or_text(values.get(f"{row}-build-{zone}")) for zone in ZONES}
            if any(v is not None for v in build.values()):
                driver["build"] = build
            return driver
        circuit = values.get(f"{row}-circuit", "")
        if circuit == OTHER:
            circuit = values.get(f"{row}-circuit_name", "")
        return {"circuit": circuit} | optional_parts(values, row, "laps", "drivers", "date")

    # --- the page --------------------------------------------------------------------------

    def more_context(
        self, values: Values, errors: ErrorMap, *, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        rule_set = _rule_set(values)
        sections = RULES.param_sections(values, errors)
        set_defaults(sections, default_rules_json(rule_set))
        for section in sections:
            section["when"] = "advanced" if section["slug"] in ADVANCED_GROUPS else ""
        scoring = next(s for s in sections if s["slug"] == SCORING)
        return {
            "rule_set": box(
                values,
                errors,
                "rule_set",
                _("Rule set"),
                kind="select",
                choices=[
                    ("basic", _("basic (the box's rules)")),
                    ("advanced", _("advanced (rulebook)")),
                ],
                help=_("Advanced: six WP zones, 2 laps by default, tyres, weather (FD-58)."),
            ),
            "current_rule_set": rule_set,
            # The boxes the script moves to the other set's default when the rule set changes.
            "rule_set_defaults": {
                name: {k: default_rules_json(name)[k] for k in ADVANCED_DEFAULTS}
                for name in ("basic", "advanced")
            },
            "points": entries.points_boxes(values, errors, POINTS_PRESETS),
            "scoring_boxes": [b for p in scoring["params"] for b in p.boxes],
            "rule_sections": [s for s in sections if s["slug"] != SCORING],
        }

    def row_parts(
        self, prefix: str, values: Values, errors: ErrorMap, row: str, index: int | str, state: Any
    ) -> dict[str, Any]:
        if prefix == "drivers":
            build = [
                box(values, errors, f"{row}-build-{zone}", ZONE_LABELS[zone], kind="number")
                for zone in ZONES
            ]
            if build:
                build[0].errors = errors.take_under(f"{row}-build") + build[0].errors
            return {"boxes": self.driver_boxes(values, errors, row), "build": build}
        circuit = box(
            values, errors, f"{row}-circuit", _("Circuit"), kind="select", choices=circuit_choices()
        )
        other = box(
            values,
            errors,
            f"{row}-circuit_name",
            _("Board name"),
            help=_("Another circuit: results can be entered, not simulated."),
            data={"other-board": "1"},
        )
        boxes: list[Box] = [
            circuit,
            other,
            box(
                values,
                errors,
                f"{row}-laps",
                _("Laps"),
                kind="number",
                placeholder=_("default"),
                help=_("Basic: 1 or 2; advanced: 1 to 3. Empty: 1 (basic) or 2 (advanced)."),
            ),
            box(
                values,
                errors,
                f"{row}-drivers",
                _("Drivers entered"),
                help=_(
                    "Names separated by commas; empty: every driver (at most the cars per race)."
                ),
            ),
            date_box(values, errors, f"{row}-date"),
        ]
        return {"boxes": boxes}


PAGE = ChampionshipSetupPage()
new = PAGE.new_view()
edit = PAGE.edit_view()
