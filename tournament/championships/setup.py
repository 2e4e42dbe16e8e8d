"""Checking a championship's set-up (create and PATCH): field errors for every bad value.

The rules come from formula_d.md: the rule set and its parameters (§13, FD-58), the points table
(FD-70), race lengths (FD-37), the drivers entered in each race and ``max_cars`` (FD-4, FD-78) and
car builds (FD-59). Each check reports under the field path the client sent, so a 400 points at
the exact value to fix; the pure ``scoring.formula_d`` functions do the rule checks themselves.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.formula_d import shipped_circuits
from scoring.formula_d import build_formula_d_rules, check_laps, resolve_points
from scoring.formula_d.rules import DEFAULT_POINTS, ZONES, FormulaDRules, default_laps
from scoring.params import ParamError, rules_to_json
from tournament.competitions.entry_lists import (
    add_list_errors,
    check_driver_names,
    entered_names,
    known_names,
)
from tournament.competitions.messages import param_message, param_messages
from tournament.competitions.serializers import EventDateField
from tournament.fields import CharField

MAX_DRIVERS = 60  # a club league, far above one box's 10 cars; keeps requests bounded
MAX_RACES = 40


class DriverSetupSerializer(serializers.Serializer):
    name = CharField(max_length=80)
    player_id = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    team = CharField(max_length=80, allow_blank=True, allow_null=True, required=False)
    build = serializers.JSONField(required=False, allow_null=True)


class RaceSetupSerializer(serializers.Serializer):
    circuit = CharField(max_length=60)
    laps = serializers.JSONField(required=False, allow_null=True)
    drivers = serializers.ListField(child=CharField(max_length=80), required=False, allow_null=True)
    date = EventDateField(default=None)  # API.md, "Dates"


class ChampionshipSetupSerializer(serializers.Serializer):
    """The parts of a championship locked once results exist (drivers, races, rules)."""

    rule_set = serializers.ChoiceField(choices=["basic", "advanced"], required=False)
    points = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text=(
            "A preset name, or a non-increasing list of at most 100 points, each 0 to 10000."
        ),
    )
    drivers = DriverSetupSerializer(many=True)
    races = RaceSetupSerializer(many=True)
    rules = serializers.DictField(required=False, default=dict)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        return check_setup(data)


def default_rules_json(rule_set: str) -> dict[str, Any]:
    """Every parameter at its default for ``rule_set`` (FD-58/FD-60 change a few)."""
    return rules_to_json(build_formula_d_rules({}, rule_set)[0])


def explicit_rules(rules: dict[str, Any], rule_set: str) -> dict[str, Any]:
    """The stored rules that differ from ``rule_set``'s defaults (what the club chose)."""
    defaults = default_rules_json(rule_set)
    return {k: v for k, v in rules.items() if defaults.get(k) != v}


def check_setup(data: dict[str, Any]) -> dict[str, Any]:
    """Validate rules, points, drivers and races together; return them with effective values."""
    errors: dict[str, Any] = {}
    rule_set = data.get("rule_set") or "basic"
    rules, rule_errors = build_formula_d_rules(data.get("rules") or {}, rule_set)
    if rule_errors:
        errors["rules"] = param_messages(rule_errors)

    raw_points = data.get("points")
    points: tuple[int, ...] = ()
    try:
        points = resolve_points(raw_points)
    except ParamError as exc:
        errors["points"] = [param_message(exc)]

    drivers, races = data["drivers"], data["races"]
    driver_errors = _check_drivers(drivers, rules, rule_set)
    size = _("A championship has 1 to %(max)s drivers.")
    add_list_errors(errors, "drivers", drivers, driver_errors, MAX_DRIVERS, size)
    known = known_names(drivers)
    race_errors = [_check_race(race, known, rules, rule_set) for race in races]
    size = _("A championship has 1 to %(max)s races.")
    add_list_errors(errors, "races", races, race_errors, MAX_RACES, size)
    if errors:
        raise serializers.ValidationError(errors)
    # The detail shows the effective table; the preset's name is kept beside it.
    preset = (
        DEFAULT_POINTS if raw_points is None else raw_points if isinstance(raw_points, str) else ""
    )
    return {
        **data,
        "rule_set": rule_set,
        "rules": rules_to_json(rules),
        "points": list(points),
        "points_preset": preset,
    }


def _check_drivers(
    drivers: list[dict[str, Any]], rules: FormulaDRules, rule_set: str
) -> list[dict[str, list[str]]]:
    errors = check_driver_names(drivers, _("Driver names must be unique within a championship."))
    for driver, driver_errors in zip(drivers, errors, strict=True):
        build = driver.get("build")
        if build is not None:
            problems = _check_build(build, rules, rule_set)
            if problems:
                driver_errors["build"] = problems
    return errors


def _check_build(build: Any, rules: FormulaDRules, rule_set: str) -> list[str]:
    """FD-59: six zones, each 1..its build maximum, adding up to ``build_total_wp``."""
    if rule_set != "advanced" or not rules.own_car_build:
        return [_("A car build needs the advanced rule set with own_car_build (FD-59).")]
    if not isinstance(build, dict) or set(build) != set(ZONES):
        return [_("A build gives one value per zone: %(zones)s.") % {"zones": ", ".join(ZONES)}]
    problems = []
    for zone in ZONES:
        value = build[zone]
        top = rules.build_max_tyres if zone == "tyres" else rules.build_max_zone
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
            problems.append(
                _("%(zone)s must be a whole number from 1 to %(max)s.") % {"zone": zone, "max": top}
            )
    if not problems and sum(build.values()) != rules.build_total_wp:
        problems.append(
            _("The zones add up to %(sum)s WP; a build spreads exactly %(total)s (build_total_wp).")
            % {"sum": sum(build.values()), "total": rules.build_total_wp}
        )
    return problems


def _check_race(
    race: dict[str, Any], known: dict[str, str], rules: FormulaDRules, rule_set: str
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    circuit = race["circuit"].strip()
    # A shipped circuit is stored under its file name; any other board is kept as typed (it can
    # be scored, not simulated).
    shipped = {name.casefold(): name for name in shipped_circuits()}
    race["circuit"] = shipped.get(circuit.casefold(), circuit)
    if not circuit:
        errors["circuit"] = [_("This field may not be blank.")]
    laps = race.get("laps")
    if laps is None:
        race["laps"] = default_laps(rule_set)  # FD-37, FD-58
    else:
        try:
            race["laps"] = check_laps(laps, rule_set)
        except ParamError as exc:
            errors["laps"] = [param_message(exc)]
    entered = race.get("drivers")
    if entered is None:
        # FD-78: by default every championship driver, so at most max_cars of them (FD-4).
        if len(known) > rules.max_cars:
            errors["drivers"] = [
                _(
                    "The championship has %(count)s drivers, more than max_cars (%(max)s); "
                    "list the drivers entered in this race."
                )
                % {"count": len(known), "max": rules.max_cars}
            ]
        race["drivers"] = list(known.values())
        return errors
    race["drivers"], problems = _entered_drivers(entered, known, rules)
    if problems:
        errors["drivers"] = problems
    return errors


def _entered_drivers(
    entered: list[str], known: dict[str, str], rules: FormulaDRules
) -> tuple[list[str], list[str]]:
    """The race's entry list as championship names, and what is wrong with it."""
    unknown = _("%(name)s is not a driver of this championship.")
    names, problems = entered_names(entered, known, unknown)
    if len(entered) > rules.max_cars:
        problems.append(
            _("At most %(max)s cars race (max_cars); %(count)s are entered.")
            % {"max": rules.max_cars, "count": len(entered)}
        )
    return names, problems
