"""Checking a Grand Tour's set-up (create and PATCH): field errors for every bad value.

The rules of set-up come from grand_tour.md (GT-1) and flamme_rouge_stage.md (courses FR-9..11,
stacks FR-52, Specialists FR-63, Wide Finish FR-13); each check reports under the field path the
client sent, so a 400 points at the exact value to fix.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from games.flamme_rouge.cards import SPECIALISTS
from games.flamme_rouge.rules import StageRules
from games.flamme_rouge.track import CourseError, parse_course
from scoring.grand_tour.rules import GrandTourRules
from scoring.params import build_rules, rules_to_json
from tournament.competitions.messages import param_message
from tournament.competitions.serializers import EventDateField
from tournament.fields import CharField, IntegerField
from tournament.tours.loading import ALL_PARAMS, FR_PARAMS, GT_PARAMS

MAX_STAGES = 21  # GT-1.1
MIN_TEAMS = 2

# FR-63: the base deck each Specialist replaces cards of (rouleur or sprinteur).
SPECIALIST_BASE = {name: spec[0] for name, spec in SPECIALISTS.items()}
DUMMY_RIDERS = {"none": 0, "peloton": 2, "muscle": 2, "both": 4}


class StackSerializer(serializers.Serializer):
    id = CharField(max_length=20)
    type = serializers.ChoiceField(choices=["major", "minor"])
    side = serializers.ChoiceField(choices=["sprint", "mountain"])
    square = IntegerField(min_value=1, max_value=500)


class StageSetupSerializer(serializers.Serializer):
    name = CharField(max_length=160, allow_blank=True, required=False, default="")
    course = CharField(max_length=120, allow_blank=True, required=False, default="")
    finish = serializers.ChoiceField(choices=["flat", "ascent"], required=False)
    stacks = StackSerializer(many=True, required=False, default=list)
    date = EventDateField(default=None)  # API.md, "Dates": not set-up, but set at creation too


class RiderSetupSerializer(serializers.Serializer):
    name = CharField(max_length=80)
    role = serializers.ChoiceField(choices=["rouleur", "sprinteur"])
    specialist = CharField(
        max_length=20, allow_blank=True, allow_null=True, required=False, default=""
    )


class TeamSetupSerializer(serializers.Serializer):
    name = CharField(max_length=80)
    player = CharField(max_length=80, allow_blank=True, required=False, default="")
    player_id = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    riders = RiderSetupSerializer(many=True)

    def validate_riders(self, riders: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # GT vocabulary: exactly two riders, a Rouleur and a Sprinteur.
        roles = sorted(r["role"] for r in riders)
        if roles != ["rouleur", "sprinteur"]:
            raise serializers.ValidationError(
                _("A team has exactly two riders: one rouleur and one sprinteur.")
            )
        return sorted(riders, key=lambda r: r["role"] != "rouleur")


class TourSetupSerializer(serializers.Serializer):
    """The parts of a tour that are locked once results exist (stages, teams, rules)."""

    stages = StageSetupSerializer(many=True)
    rest_days_after = serializers.ListField(child=IntegerField(), required=False, default=list)
    teams = TeamSetupSerializer(many=True)
    rules = serializers.DictField(required=False, default=dict)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        return check_setup(data)


def build_tour_rules(raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Effective rules JSON of both rules files (one namespace) and the errors per key."""
    errors: dict[str, list[str]] = {}
    for key in raw:
        if key not in ALL_PARAMS:
            errors[key] = [_("Unknown rule parameter.")]
    gt, gt_errors = build_rules(GrandTourRules, {k: v for k, v in raw.items() if k in GT_PARAMS})
    fr, fr_errors = build_rules(StageRules, {k: v for k, v in raw.items() if k in FR_PARAMS})
    for key, problems in [*gt_errors.items(), *fr_errors.items()]:
        for problem in problems:
            message = param_message(problem)
            if message not in errors.setdefault(key, []):
                errors[key].append(message)
    return {**rules_to_json(fr), **rules_to_json(gt)}, errors


def check_setup(data: dict[str, Any]) -> dict[str, Any]:
    """Validate stages, teams, rest days and rules together; return them with effective rules."""
    errors: dict[str, Any] = {}
    rules_json, rule_errors = build_tour_rules(data.get("rules") or {})
    if rule_errors:
        errors["rules"] = rule_errors
    gt = build_rules(GrandTourRules, {k: v for k, v in rules_json.items() if k in GT_PARAMS})[0]
    fr = build_rules(StageRules, {k: v for k, v in rules_json.items() if k in FR_PARAMS})[0]

    stages = data["stages"]
    teams = data["teams"]
    if not 1 <= len(stages) <= MAX_STAGES:
        errors["stages"] = [_("A tour has 1 to %(max)s stages.") % {"max": MAX_STAGES}]
    if not MIN_TEAMS <= len(teams) <= gt.max_teams:
        errors["teams"] = [
            _("A tour has %(min)s to %(max)s teams (max_teams).")
            % {"min": MIN_TEAMS, "max": gt.max_teams}
        ]
    team_errors = _check_teams(teams)
    if any(team_errors) and "teams" not in errors:
        errors["teams"] = team_errors
    rest = data.get("rest_days_after") or []
    rest_errors = _check_rest_days(rest, len(stages))
    if rest_errors:
        errors["rest_days_after"] = rest_errors

    riders = 2 * len(teams) + DUMMY_RIDERS[gt.dummy_teams]
    stage_errors = [_check_stage(stage, fr, riders) for stage in stages]
    if any(stage_errors) and "stages" not in errors:
        errors["stages"] = stage_errors
    if errors:
        raise serializers.ValidationError(errors)
    return {**data, "rules": rules_json, "rest_days_after": sorted(set(rest))}


def _check_teams(teams: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-team errors: names unique within the tour, Specialists within GT-1.3's limits."""
    names = Counter(t["name"].strip().casefold() for t in teams)
    team_errors: list[dict[str, Any]] = [{} for _ in teams]
    for i, team in enumerate(teams):
        if names[team["name"].strip().casefold()] > 1:
            team_errors[i]["name"] = [_("Team names must be unique within a tour.")]
    _check_specialists(teams, team_errors)
    return team_errors


def _check_rest_days(rest: list[int], stage_count: int) -> list[str]:
    """Rest Days sit between two stages, at most one per gap."""
    if any(not 1 <= k < stage_count for k in rest):
        return [
            _("A Rest Day sits between two stages: after stage 1 to %(last)s.")
            % {"last": max(stage_count - 1, 0)}
        ]
    if len(set(rest)) != len(rest):
        return [_("At most one Rest Day per gap between stages.")]
    return []


def _check_stage(stage: dict[str, Any], rules: StageRules, riders: int) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    course_text = stage.get("course") or ""
    length = None
    if course_text:
        try:
            course = parse_course(course_text, rules=rules)
        except CourseError as exc:
            errors["course"] = [param_message(exc)]
        else:
            length = course.length
            if stage.get("finish") and stage["finish"] != course.finish:
                errors["finish"] = [
                    _("The course ends on a %(course)s finish; finish says %(finish)s.")
                    % {"course": course.finish, "finish": stage["finish"]}
                ]
            stage["finish"] = course.finish
            if course.start_capacity < riders:
                # GT-1.6: the start area must hold every rider, dummies included.
                errors["course"] = [
                    _("The start area holds %(capacity)s riders; this tour has %(riders)s.")
                    % {"capacity": course.start_capacity, "riders": riders}
                ]
    else:
        stage["finish"] = stage.get("finish") or "flat"
    stacks = stage.get("stacks") or []
    stack_errors: list[dict[str, list[str]]] = [{} for _ in stacks]
    ids = Counter(s["id"] for s in stacks)
    for i, stack in enumerate(stacks):
        if ids[stack["id"]] > 1:
            stack_errors[i]["id"] = [_("Stack ids must be unique within a stage.")]
        if length is not None and stack["square"] > length:
            stack_errors[i]["square"] = [_("The course has %(n)s squares.") % {"n": length}]
    if any(stack_errors):
        errors["stacks"] = stack_errors  # type: ignore[assignment]
    return errors


def _check_specialists(teams: list[dict[str, Any]], team_errors: list[dict[str, Any]]) -> None:
    # GT-1.3: with 2 teams each Specialist exists twice; with 3 or more, once.
    copies = 2 if len(teams) == 2 else 1
    used = Counter(
        (r.get("specialist") or "") for t in teams for r in t["riders"] if r.get("specialist")
    )
    for i, team in enumerate(teams):
        rider_errors: list[dict[str, list[str]]] = [{} for _ in team["riders"]]
        for j, rider in enumerate(team["riders"]):
            name = rider.get("specialist") or ""
            rider["specialist"] = name
            if not name:
                continue
            base = SPECIALIST_BASE.get(name)
            if base is None:
                rider_errors[j]["specialist"] = [_("Unknown Specialist %(name)s.") % {"name": name}]
            elif base != rider["role"]:
                rider_errors[j]["specialist"] = [
                    _("%(name)s is a %(base)s Specialist.") % {"name": name, "base": base}
                ]
            elif used[name] > copies:
                rider_errors[j]["specialist"] = [
                    _("Only %(copies)s copy of %(name)s exists with %(teams)s teams.")
                    % {"copies": copies, "name": name, "teams": len(teams)}
                ]
        if any(rider_errors):
            team_errors[i]["riders"] = rider_errors
