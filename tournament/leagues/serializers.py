"""League API serializers (API.md "Leagues"): the set-up, detail, race detail and result rows.

The set-up checks are the championships' entry-list rules (unique driver names, races entering
known drivers) without Formula D's: a league's settings are a points table and three switches.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from scoring.params import ParamError
from scoring.points import DEFAULT_LEAGUE_POINTS, points_table
from tournament.competitions.entry_lists import (
    Errors,
    add_list_errors,
    check_driver_names,
    entered_names,
    known_names,
)
from tournament.competitions.messages import param_message
from tournament.competitions.serializers import (
    EVENT_STATE_FIELDS,
    CompetitionDetailSerializer,
    CreateRequestSerializer,
    EventDateField,
    NamedDriversEventSerializer,
    PatchRequestSerializer,
    competition_fields,
    event_date,
)
from tournament.fields import BooleanField, CharField, IntegerField
from tournament.leagues.models import Driver, League, Race

MAX_DRIVERS, MAX_RACES = 60, 40
SETTINGS = ("game", "points", "drop_worst", "points_finishers_only", "bonus_points")
SETUP_FIELDS = (*SETTINGS, "drivers", "races")


class LeagueDriverSetupSerializer(serializers.Serializer[Any]):
    name = CharField(max_length=80)
    player_id = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    team = CharField(max_length=80, allow_blank=True, allow_null=True, required=False)


class LeagueRaceSetupSerializer(serializers.Serializer[Any]):
    name = CharField(max_length=160, allow_blank=True, default="")
    drivers = serializers.ListField(child=CharField(max_length=80), required=False, allow_null=True)
    date = EventDateField(default=None)  # API.md, "Dates"


class LeagueSetupSerializer(serializers.Serializer[Any]):
    """The parts of a league locked once results exist: its settings, drivers and races."""

    game = CharField(max_length=80, allow_blank=True, default="")
    points = serializers.JSONField(required=False, allow_null=True)
    drop_worst = IntegerField(min_value=0, max_value=MAX_RACES, default=0)
    points_finishers_only = BooleanField(default=True)
    bonus_points = BooleanField(default=False)
    drivers = LeagueDriverSetupSerializer(many=True)
    races = LeagueRaceSetupSerializer(many=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        """Points, drivers and races together; the set-up with the effective points table."""
        errors: dict[str, Any] = {}
        try:
            table = points_table(data.get("points"))
        except ParamError as exc:
            errors["points"] = [param_message(exc)]
        drivers, races = data["drivers"], data["races"]
        unique = _("Driver names must be unique within a league.")
        driver_errors = check_driver_names(drivers, unique)
        known = known_names(drivers)
        race_errors = [_check_race(race, known) for race in races]
        size = _("A league has 1 to %(max)s drivers.")
        add_list_errors(errors, "drivers", drivers, driver_errors, MAX_DRIVERS, size)
        size = _("A league has 1 to %(max)s races.")
        add_list_errors(errors, "races", races, race_errors, MAX_RACES, size)
        if errors:
            raise serializers.ValidationError(errors)
        raw = data.get("points")
        preset = DEFAULT_LEAGUE_POINTS if raw is None else raw if isinstance(raw, str) else ""
        return {**data, "points": list(table), "points_preset": preset}


def _check_race(race: dict[str, Any], known: dict[str, str]) -> Errors:
    race["name"] = race["name"].strip()
    entered = race.get("drivers")
    if entered is None:  # default: everyone
        race["drivers"] = list(known.values())
        return {}
    unknown = _("%(name)s is not a driver of this league.")
    race["drivers"], problems = entered_names(entered, known, unknown)
    return {"drivers": problems} if problems else {}


class LeagueCreateSerializer(CreateRequestSerializer, LeagueSetupSerializer):
    """``club``, ``name``, ``public`` and the set-up; no ``seed`` and no ``rules`` (API.md)."""


class LeaguePatchSerializer(PatchRequestSerializer):
    """Set-up keys as sent: the merged set-up is checked as a whole (``patched_setup``)."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        setup = {key: serializers.JSONField(required=False) for key in SETUP_FIELDS}
        return {**super().get_fields(), **setup}


class LeagueDriverSerializer(serializers.ModelSerializer[Driver]):
    player_id = serializers.IntegerField(source="club_player_id", read_only=True, allow_null=True)
    team = CharField(source="team_or_none", allow_null=True)

    class Meta:
        model = Driver
        fields = ["id", "name", "team", "player_id"]


class LeagueSerializer(CompetitionDetailSerializer):
    points_preset = CharField(source="preset_or_none", allow_null=True)
    drivers = LeagueDriverSerializer(many=True)
    races = serializers.SerializerMethodField()

    class Meta:
        model = League
        fields = competition_fields(*SETTINGS, "points_preset", "drivers", "races", seed=False)

    def get_races(self, league: League) -> list[dict[str, Any]]:
        # Both relations are prefetched by the viewset: no query per race.
        names = {d.pk: d.name for d in league.drivers.all()}
        return [
            {
                "number": r.number,
                "name": r.name,
                "drivers": [names.get(pk, "") for pk in r.drivers],
                "driver_ids": list(r.drivers),
                "status": r.status,
                "version": r.version,
                "date": event_date(r.date),
            }
            for r in league.races.all()
        ]


@extend_schema_serializer(component_name="LeagueResultRow")
class ResultRowSerializer(serializers.Serializer[Any]):
    """One finishing-order row; documents the schema (``scoring.points`` checks the rows)."""

    driver = IntegerField()
    position = IntegerField()
    status = serializers.ChoiceField(choices=["finished", "dnf"])
    bonus = IntegerField(required=False, min_value=0)


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A win with a bonus, and a retirement",
            value={
                "results": [
                    {"driver": 1, "position": 1, "status": "finished", "bonus": 1},
                    {"driver": 2, "position": 2, "status": "dnf"},
                ],
                "version": 0,
            },
            request_only=True,
        )
    ]
)
class LeagueResultsSchemaSerializer(serializers.Serializer[Any]):
    results = ResultRowSerializer(many=True)
    version = IntegerField(required=False, min_value=0)


class LeagueRaceDetailSerializer(NamedDriversEventSerializer):
    driver_model, driver_link = Driver, "league_id"

    class Meta:
        model = Race
        fields = ["number", "name", "drivers", "driver_ids", *EVENT_STATE_FIELDS, "date"]


class LeagueStandingsSerializer(serializers.Serializer[Any]):
    """Documents the standings (the shape of championship standings, API.md)."""

    after_race = IntegerField(allow_null=True)
    drivers = serializers.ListField(child=serializers.DictField())
    teams = serializers.ListField(child=serializers.DictField())
