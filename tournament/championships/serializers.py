"""Championship API serializers: set-up input, detail output, race detail, result rows."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from tournament.championships.models import Championship, Driver, Race
from tournament.championships.setup import ChampionshipSetupSerializer
from tournament.competitions.serializers import (
    EVENT_STATE_FIELDS,
    CompetitionDetailSerializer,
    NamedDriversEventSerializer,
    PatchRequestSerializer,
    RowsAsSentSerializer,
    SeededCreateRequestSerializer,
    competition_fields,
    event_date,
)
from tournament.fields import BooleanField, CharField, IntegerField


class ChampionshipCreateSerializer(SeededCreateRequestSerializer, ChampionshipSetupSerializer):
    """``POST /api/championships/``: club, name, public, seed and the set-up."""


class ChampionshipPatchSerializer(PatchRequestSerializer):
    rule_set = CharField(required=False)
    points = serializers.JSONField(required=False, allow_null=True)
    drivers = serializers.ListField(child=serializers.JSONField(), required=False)
    races = serializers.ListField(child=serializers.JSONField(), required=False)
    rules = serializers.DictField(required=False)


class DriverSerializer(serializers.ModelSerializer):
    player_id = serializers.IntegerField(source="club_player_id", read_only=True, allow_null=True)
    team = serializers.SerializerMethodField()

    class Meta:
        model = Driver
        fields = ["id", "name", "team", "build", "player_id"]

    def get_team(self, driver: Driver) -> str | None:
        return driver.team or None


def race_summary(race: Race, names: dict[int, str]) -> dict[str, Any]:
    return {
        "number": race.number,
        "circuit": race.circuit,
        "laps": race.laps,
        # API.md: the names of the drivers entered (as sent); ``driver_ids`` for result rows.
        "drivers": [names.get(pk, "") for pk in race.drivers],
        "driver_ids": list(race.drivers),
        "status": race.status,
        "version": race.version,
        "date": event_date(race.date),
    }


class ChampionshipSerializer(CompetitionDetailSerializer):
    drivers = DriverSerializer(many=True)
    races = serializers.SerializerMethodField()
    points_preset = serializers.SerializerMethodField()

    class Meta:
        model = Championship
        fields = competition_fields(
            "rule_set", "points", "points_preset", "rules", "drivers", "races"
        )

    def get_points_preset(self, championship: Championship) -> str | None:
        return championship.points_preset or None

    def get_races(self, championship: Championship) -> list[dict[str, Any]]:
        # Both relations are prefetched by the viewset: no query per race.
        names = {d.pk: d.name for d in championship.drivers.all()}
        return [race_summary(r, names) for r in championship.races.all()]


@extend_schema_serializer(component_name="RaceResultRow")
class ResultRowSerializer(serializers.Serializer):
    """One FD-78 entry; documents the schema (the rows themselves are checked by FD-79)."""

    driver = IntegerField()
    position = IntegerField()
    status = serializers.ChoiceField(choices=["finished", "eliminated"])
    laps = IntegerField()
    elimination_order = IntegerField(required=False, allow_null=True)
    wp_left = serializers.JSONField(required=False, allow_null=True)
    pole = BooleanField(required=False)


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A finish and an elimination",
            value={
                "results": [
                    {"driver": 4, "position": 1, "status": "finished", "laps": 2, "pole": True},
                    {
                        "driver": 5,
                        "position": 2,
                        "status": "eliminated",
                        "laps": 1,
                        "elimination_order": 1,
                    },
                ],
                "version": 0,
            },
            request_only=True,
        )
    ]
)
class RaceResultsSchemaSerializer(serializers.Serializer):
    results = ResultRowSerializer(many=True)
    version = IntegerField(required=False, min_value=0)


class RaceResultsInputSerializer(RowsAsSentSerializer):
    """Rows reach the pure FD-79 check as sent: it reports strings, floats and unknown fields."""


class RaceDetailSerializer(NamedDriversEventSerializer):
    driver_model = Driver
    driver_link = "championship_id"

    class Meta:
        model = Race
        fields = ["number", "circuit", "laps", "drivers", "driver_ids", *EVENT_STATE_FIELDS, "date"]


class ChampionshipStandingsSerializer(serializers.Serializer):
    """The standings' shape, for the schema (the API serves the stored snapshot as it is)."""

    after_race = IntegerField(allow_null=True)
    drivers = serializers.ListField(child=serializers.DictField())
    teams = serializers.ListField(child=serializers.DictField())
