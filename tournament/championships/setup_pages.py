"""The organisers' Formula D pages: ``/clubs/<slug>/championships/new/`` and
``/championships/<id>/edit/`` (issue #15, items 3 and 4).

Built on :class:`tournament.web.setup.views.SetupPage`: the posted boxes become the API's own
create (or PATCH) request, which the kind's serializers check (``setup.check_setup``: one set of
checks for the API, the admin, import and this page); their errors come back on the boxes they
name. Circuits come from the catalogue; each race has its laps and, optionally, the drivers
entered (FD-78); drivers have a team and, under the advanced rules with own car builds, a build
(FD-59); the rules are typed boxes grouped by topic (``setup_rules``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.formula_d.rules import ADVANCED_DEFAULTS, DEFAULT_POINTS, POINTS_PRESETS, ZONES
from tournament.catalogue.data import catalogue
from tournament.championships.setup import default_rules_json, explicit_rules
from tournament.championships.setup_rules import ADVANCED_GROUPS, RULES, SCORING, ZONE_LABELS
from tournament.competitions import services
from tournament.competitions.serializers import EventDateSerializer
from tournament.tours.setup_page import local_date, typed_date
from tournament.web.setup import entries
from tournament.web.setup.boxes import Box, ErrorMap, Values, box, renumber, ticked, whole_or_text
from tournament.web.setup.flow import Lock
from tournament.web.setup.views import SetupPage

OTHER = "other"
_BLANK_RACE = {"circuit": "monaco", "laps": "", "drivers": "", "date": ""}
_BLANK_DRIVER = {"name": "", "team": ""}
ROWS = {"drivers": _BLANK_DRIVER, "races": _BLANK_RACE}


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


def date_box(values: Values, errors: ErrorMap, name: str) -> Box:
    """An event's optional date (API.md, "Dates"), in the page's time zone."""
    return box(
        values,
        errors,
        name,
        _("Date (optional)"),
        kind="datetime",
        help=_("When it is played, for the club's calendar; it may change at any time."),
    )


class RowsAndDates:
    """What the Formula D, league and rally pages share beyond the base: their rows (blank ones
    dropped and the rest renumbered before a submit, so the request's list indices are the
    boxes'), and the events' dates, which still change once the set-up is locked (one by one,
    with the event PATCH's own serializer, as the tour page does)."""

    row_prefixes: ClassVar[tuple[str, ...]] = ("drivers", "races")
    event_prefix: ClassVar[str] = "races"
    kind: Any

    def normalise(self, values: Values) -> Values:
        for prefix in self.row_prefixes:
            values = renumber(values, prefix, entries.row_numbers(values, prefix))
        return values

    def _dates(self, values: Values, competition: Any) -> list[tuple[int, Any]]:
        numbers = self.kind.event_model.objects.filter(competition=competition)
        return [
            (n, typed_date(values.get(f"{self.event_prefix}-{n - 1}-date")))
            for n in numbers.order_by("number").values_list("number", flat=True)
        ]

    def check_more(self, values: Values, competition: Any, lock: Lock) -> Any:
        if not lock.locked:
            return None  # the dates travel with the events in the PATCH
        errors = {}
        for number, date in self._dates(values, competition):
            body = EventDateSerializer(data={"date": date})
            if not body.is_valid():
                errors[f"{self.event_prefix}-{number - 1}-date"] = body.errors["date"]
        return errors or None

    def apply_more(self, values: Values, competition: Any, lock: Lock, by: Any) -> None:
        if not lock.locked:
            return
        for number, date in self._dates(values, competition):
            body = EventDateSerializer(data={"date": date})
            body.is_valid(raise_exception=True)  # checked by check_more a moment ago
            services.set_event_date(
                kind=self.kind,
                competition_id=competition.pk,
                number=number,
                date=body.validated_data["date"],
                by=by,
            )

    def locked_dates(
        self, values: Values, errors: ErrorMap, competition: Any, lock: Lock
    ) -> list[Box]:
        """The date boxes a locked page still offers, one per event."""
        if competition is None or not lock.locked:
            return []
        found = []
        for number, _date in self._dates(values, competition):
            made = date_box(values, errors, f"{self.event_prefix}-{number - 1}-date")
            made.label = self.kind.event_label(number)
            found.append(made)
        return found


def numbered(index: int | str) -> dict[str, Any]:
    """A row's index in the input names, and its number as people count (``__n__`` for the
    row template, which the script numbers)."""
    return {"index": index, "number": index + 1 if isinstance(index, int) else "__n__"}


def locked_summary(kind: Any, competition: Any, lock: Lock) -> dict[str, Any]:
    """What a locked set-up page shows instead of the boxes: the set-up as it is stored."""
    if competition is None or not lock.locked:
        return {"setup_summary": None, "lock_more": []}
    setup = kind.setup_payload(competition)
    rules = sorted(setup.get("rules", {}).items())
    return {
        "setup_summary": setup,
        "locked_points": list(getattr(competition, "points", ()) or ()),
        "locked_rules": rules,
        "lock_more": [],
    }


class ChampionshipSetupPage(RowsAndDates, SetupPage):
    kind_label = "championship"
    template = "web/setup/championship.html"
    rules = RULES

    # --- values ----------------------------------------------------------------------------

    def initial(self, club: Any) -> Values:
        values: Values = {"name": "", "public": "on", "seed": "", "rule_set": "basic"}
        values |= RULES.values(default_rules_json("basic"))
        values |= entries.points_values(None, DEFAULT_POINTS)
        for index in range(4):
            values |= {f"drivers-{index}-{k}": v for k, v in _BLANK_DRIVER.items()}
        for index in range(2):
            values |= {f"races-{index}-{k}": v for k, v in _BLANK_RACE.items()}
        return values

    def current(self, championship: Any) -> Values:
        setup = self.kind.setup_payload(championship)
        values: Values = {
            "name": championship.name,
            "public": "on" if championship.public else "",
            "rule_set": championship.rule_set,
        }
        values |= RULES.values(championship.rules)
        values |= entries.points_values(championship.points, championship.points_preset)
        for index, driver in enumerate(setup["drivers"]):
            values[f"drivers-{index}-name"] = driver["name"]
            values[f"drivers-{index}-team"] = driver.get("team") or ""
            for zone, wp in (driver.get("build") or {}).items():
                values[f"drivers-{index}-build-{zone}"] = str(wp)
        known = {c["slug"] for c in catalogue()["circuits"]}
        for index, race in enumerate(setup["races"]):
            shipped = race["circuit"] in known
            values[f"races-{index}-circuit"] = race["circuit"] if shipped else OTHER
            values[f"races-{index}-circuit_name"] = "" if shipped else race["circuit"]
            values[f"races-{index}-laps"] = str(race["laps"])
            values[f"races-{index}-drivers"] = entries.names_text(race.get("drivers"))
            values[f"races-{index}-date"] = local_date(race.get("date"))
        return values

    def act(self, values: Values, action: str) -> Values:
        return entries.row_action(super().act(values, action), action, ROWS)

    # --- the request -----------------------------------------------------------------------

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
        rule_set = _rule_set(values)
        base = default_rules_json(rule_set)
        before = explicit_rules(competition.rules, competition.rule_set) if competition else {}
        read = RULES.read(values)
        # An edit also sends what the club set before, so a value put back to its default
        # replaces the old one (a PATCH merges the rules it is sent).
        rules = {k: v for k, v in read.items() if v != base.get(k) or k in before}
        body |= {
            "rule_set": values.get("rule_set", "basic"),
            "points": entries.points_payload(values),
            "drivers": [
                self._driver(values, i, rule_set) for i in entries.row_numbers(values, "drivers")
            ],
            "races": [self._race(values, i) for i in entries.row_numbers(values, "races")],
            "rules": rules,
        }
        return body

    def _driver(self, values: Values, index: int, rule_set: str) -> dict[str, Any]:
        row = f"drivers-{index}"
        driver: dict[str, Any] = {
            "name": values.get(f"{row}-name", ""),
            "team": values.get(f"{row}-team", "").strip() or None,
        }
        build = {zone: whole_or_text(values.get(f"{row}-build-{zone}")) for zone in ZONES}
        if any(v is not None for v in build.values()):
            driver["build"] = build
        return driver

    def _race(self, values: Values, index: int) -> dict[str, Any]:
        row = f"races-{index}"
        circuit = values.get(f"{row}-circuit", "")
        if circuit == OTHER:
            circuit = values.get(f"{row}-circuit_name", "")
        race: dict[str, Any] = {"circuit": circuit}
        laps = whole_or_text(values.get(f"{row}-laps"))
        if laps is not None:
            race["laps"] = laps
        entered = entries.names_list(values.get(f"{row}-drivers"))
        if entered is not None:
            race["drivers"] = entered
        date = typed_date(values.get(f"{row}-date"))
        if date is not None:
            race["date"] = date
        return race

    # --- the page --------------------------------------------------------------------------

    def context(
        self, values: Values, errors: ErrorMap, *, club: Any, competition: Any, lock: Lock
    ) -> dict[str, Any]:
        # First: a locked page shows only these, and each box takes its own errors.
        dates = self.locked_dates(values, errors, competition, lock)
        rule_set = _rule_set(values)
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
        drivers = [
            self._driver_row(values, errors, i) for i in entries.drawn_rows(values, "drivers")
        ]
        races = [self._race_row(values, errors, i) for i in entries.drawn_rows(values, "races")]
        sections = RULES.param_sections(values, errors)
        set_defaults(sections, default_rules_json(rule_set))
        for section in sections:
            section["when"] = "advanced" if section["slug"] in ADVANCED_GROUPS else ""
        scoring = next(s for s in sections if s["slug"] == SCORING)
        return {
            "general": general,
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
            "scoring": scoring,
            "rule_sections": [s for s in sections if s["slug"] != SCORING],
            "drivers": drivers,
            "drivers_errors": errors.take("drivers"),
            "races": races,
            "races_errors": errors.take("races"),
            "zone_labels": [ZONE_LABELS[z] for z in ZONES],
            "driver_template": self._driver_row({}, ErrorMap(), "__i__"),
            "race_template": self._race_row({"races-__i__-circuit": "monaco"}, ErrorMap(), "__i__"),
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
        build = [
            box(values, errors, f"{row}-build-{zone}", ZONE_LABELS[zone], kind="number")
            for zone in ZONES
        ]
        if build:
            build[0].errors = errors.take_under(f"{row}-build") + build[0].errors
        return {
            **numbered(index),
            "boxes": boxes,
            "build": build,
            "errors": errors.take_under(row),
        }

    def _race_row(self, values: Values, errors: ErrorMap, index: int | str) -> dict[str, Any]:
        row = f"races-{index}"
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
        return {**numbered(index), "boxes": boxes, "errors": errors.take_under(row)}

    def detail_url(self, championship: Any) -> str:
        return reverse("championships:championship", args=[championship.pk])

    def created_message(self, championship: Any) -> str:
        return _("Championship %(name)s is set up.") % {"name": championship.name}


PAGE = ChampionshipSetupPage()
new = PAGE.new_view()
edit = PAGE.edit_view()
