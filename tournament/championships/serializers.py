"""Championship API serializers: set-up input, detail output, race detail, result rows."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from tournament.championships.models import Championship, Driver, Race
from tournament.championships.setup import ChampionshipSetupSerializer
from tournament.clubs.models import Club

MAX_SEED = 2**63 - 1
MAX_ROWS = 100  # FD-4 caps a race at 10 cars; a bound keeps absurd bodies out of the checks


def reject_unknown(serializer: serializers.Serializer, message: str) -> None:
    """A key the endpoint does not take is a 400 (API.md), never silently ignored."""
    unknown = set(getattr(serializer, "initial_data", {}) or {}) - set(serializer.fields)
    if unknown:
        raise serializers.ValidationError({key: [message] for key in sorted(unknown)})


class ChampionshipCreateSerializer(ChampionshipSetupSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    name = serializers.CharField(max_length=160)
    public = serializers.BooleanField(required=False, default=True)
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=MAX_SEED
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("Unknown field."))
        return super().validate(data)


class ChampionshipPatchSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160, required=False)
    public = serializers.BooleanField(required=False)
    rule_set = serializers.CharField(required=False)
    points = serializers.JSONField(required=False, allow_null=True)
    drivers = serializers.ListField(child=serializers.JSONField(), required=False)
    races = serializers.ListField(child=serializers.JSONField(), required=False)
    rules = serializers.DictField(required=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("This field cannot be changed."))
        return data


class DriverSerializer(serializers.ModelSerializer):
    team = serializers.SerializerMethodField()

    class Meta:
        model = Driver
        fields = ["id", "name", "team", "build"]

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
    }


class ChampionshipSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    drivers = DriverSerializer(many=True)
    races = serializers.SerializerMethodField()
    points_preset = serializers.SerializerMethodField()

    class Meta:
        model = Championship
        fields = [
            "id",
            "club",
            "name",
            "public",
            "seed",
            "rule_set",
            "points",
            "points_preset",
            "rules",
            "drivers",
            "races",
            "standings_through",
            "created_at",
        ]

    def get_points_preset(self, championship: Championship) -> str | None:
        return championship.points_preset or None

    def get_races(self, championship: Championship) -> list[dict[str, Any]]:
        # Both relations are prefetched by the viewset: no query per race.
        names = {d.pk: d.name for d in championship.drivers.all()}
        return [race_summary(r, names) for r in championship.races.all()]


@extend_schema_serializer(component_name="RaceResultRow")
class ResultRowSerializer(serializers.Serializer):
    """One FD-78 entry; documents the schema (the rows themselves are checked by FD-79)."""

    driver = serializers.IntegerField()
    position = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["finished", "eliminated"])
    laps = serializers.IntegerField()
    elimination_order = serializers.IntegerField(required=False, allow_null=True)
    wp_left = serializers.JSONField(required=False, allow_null=True)
    pole = serializers.BooleanField(required=False)


class RaceResultsSchemaSerializer(serializers.Serializer):
    results = ResultRowSerializer(many=True)
    version = serializers.IntegerField(required=False, min_value=0)


class RaceResultsInputSerializer(serializers.Serializer):
    # Rows reach the pure FD-79 check as sent: it reports strings, floats and unknown fields
    # itself (a DRF IntegerField would turn "3" into 3 and drop unknown keys silently).
    results = serializers.ListField(
        child=serializers.JSONField(), allow_empty=False, max_length=MAX_ROWS
    )
    version = serializers.IntegerField(required=False, min_value=0)


class RaceDetailSerializer(serializers.ModelSerializer):
    drivers = serializers.SerializerMethodField()
    driver_ids = serializers.ListField(source="drivers", child=serializers.IntegerField())
    results = serializers.SerializerMethodField()

    class Meta:
        model = Race
        fields = [
            "number",
            "circuit",
            "laps",
            "drivers",
            "driver_ids",
            "status",
            "source",
            "error",
            "version",
            "results",
            "submitted_at",
            "resolved_at",
        ]

    def _names(self, race: Race) -> dict[int, str]:
        cache: dict[int, str] | None = getattr(race, "_driver_names", None)
        if cache is None:
            cache = dict(
                Driver.objects.filter(championship_id=race.competition_id).values_list("pk", "name")
            )
            race._driver_names = cache  # type: ignore[attr-defined]
        return cache

    def get_drivers(self, race: Race) -> list[str]:
        names = self._names(race)
        return [names.get(pk, "") for pk in race.drivers]

    def get_results(self, race: Race) -> list[dict[str, Any]]:
        """The rows as submitted (finishing order), with the driver's ``name`` added."""
        names = self._names(race)
        return [{**row, "name": names.get(row["driver"], "")} for row in race.results]


class ChampionshipStandingsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The standings' shape, for the schema (the API serves the stored snapshot as it is)."""

    after_race = serializers.IntegerField(allow_null=True)
    drivers = serializers.ListField(child=serializers.DictField())
    teams = serializers.ListField(child=serializers.DictField())
