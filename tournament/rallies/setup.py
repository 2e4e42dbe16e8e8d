"""Checking a rally's set-up (create and PATCH): field errors for every bad value.

Drivers (names unique within the rally once trimmed, spaces collapsed and case-folded: the key a
rally championship matches them by, RM-47), stages with an optional layout (a sample-stage name
or a layout document, games/rallyman/layout.py) and the rules of rules/rallyman.md except the
championship settings of RM-47 to RM-50 (API.md).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.rallyman import SAMPLE_STAGES, layout_issues, parse_rules, sample_document
from scoring.rally import normalize_name
from tournament.competitions.messages import param_message
from tournament.competitions.serializers import EventDateField
from tournament.fields import CharField
from tournament.rallies.loading import CHAMPIONSHIP_SETTINGS

MAX_DRIVERS = 40
MAX_STAGES = 30
TOP_LEVEL = frozenset({"seed"})


class RallyDriverSetupSerializer(serializers.Serializer):
    name = CharField(max_length=80)
    player_id = serializers.IntegerField(required=False, allow_null=True, min_value=1)


class RallyStageSetupSerializer(serializers.Serializer):
    name = CharField(max_length=160, allow_blank=True, required=False, default="")
    layout = serializers.JSONField(required=False, allow_null=True, default=None)
    date = EventDateField(default=None)  # API.md, "Dates"


class RallySetupSerializer(serializers.Serializer):
    """The parts of a rally that are locked once results exist (drivers, stages, rules)."""

    drivers = RallyDriverSetupSerializer(many=True, allow_empty=False)
    stages = RallyStageSetupSerializer(many=True, allow_empty=False)
    rules = serializers.DictField(required=False, default=dict)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        return check_setup(data)


def build_rally_rules(raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Every effective rule (the rally stores them whole) and the errors per key."""
    errors: dict[str, list[str]] = {}
    passed = {}
    for key, value in raw.items():
        if key in CHAMPIONSHIP_SETTINGS:
            errors[key] = [_("This is a rally championship setting, not a rally rule.")]
        elif key in TOP_LEVEL:
            errors[key] = [_("This is a top-level setting of the rally, not a rule.")]
        else:
            passed[key] = value
    rules, problems = parse_rules(passed)
    for key, found in problems.items():
        errors.setdefault(key, []).extend(param_message(p) for p in found)
    return rules.to_json(), errors


def check_layout(value: Any) -> list[str]:
    """Problems of a stage's ``layout``: a sample name or a valid layout document."""
    if isinstance(value, str):
        if value not in SAMPLE_STAGES:
            return [
                _("Unknown sample stage %(name)s; choose one of: %(choices)s.")
                % {"name": value, "choices": ", ".join(SAMPLE_STAGES)}
            ]
        return []
    if not isinstance(value, dict):
        return [_("A layout is a sample-stage name or a layout document.")]
    return [f"{issue.path}: {issue.message}" for issue in layout_issues(value)]


def layout_name(value: Any) -> str:
    """A readable name of a stage's layout (sample name or the document's ``name``)."""
    if isinstance(value, str):
        return str(sample_document(value).get("name") or value)
    if isinstance(value, dict):
        return str(value.get("name") or "")
    return ""


def check_setup(data: dict[str, Any]) -> dict[str, Any]:
    """Validate drivers, stages and rules together; return them with the effective rules."""
    errors: dict[str, Any] = {}
    rules_json, rule_errors = build_rally_rules(data.get("rules") or {})
    if rule_errors:
        errors["rules"] = rule_errors
    drivers = data["drivers"]
    stages = data["stages"]
    if len(drivers) > MAX_DRIVERS:
        errors["drivers"] = [_("A rally has at most %(max)s drivers.") % {"max": MAX_DRIVERS}]
    else:
        for driver in drivers:
            driver["name"] = " ".join(driver["name"].split())
        keys = Counter(normalize_name(d["name"]) for d in drivers)
        driver_errors: list[dict[str, list[str]]] = [
            {"name": [_("Driver names must be unique within a rally.")]}
            if keys[normalize_name(d["name"])] > 1
            else {}
            for d in drivers
        ]
        if any(driver_errors):
            errors["drivers"] = driver_errors
    if len(stages) > MAX_STAGES:
        errors["stages"] = [_("A rally has at most %(max)s stages.") % {"max": MAX_STAGES}]
    else:
        stage_errors: list[dict[str, list[str]]] = [
            {"layout": problems}
            if stage.get("layout") is not None and (problems := check_layout(stage["layout"]))
            else {}
            for stage in stages
        ]
        if any(stage_errors):
            errors["stages"] = stage_errors
    if errors:
        raise serializers.ValidationError(errors)
    return {**data, "rules": rules_json}
