"""Tour API serializers: set-up input, detail output, stage detail, result rows."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from scoring.grand_tour import recommended_rest_days
from tournament.competitions.serializers import (
    EVENT_STATE_FIELDS,
    CompetitionDetailSerializer,
    PatchRequestSerializer,
    SeededCreateRequestSerializer,
    competition_fields,
)
from tournament.fields import IntegerField
from tournament.tours import awards
from tournament.tours.models import Rider, Stage, Team, Tour
from tournament.tours.setup import StackSerializer, TourSetupSerializer

MAX_VALUE = 100_000  # far above any real count; keeps absurd numbers out of the engines


class TourCreateSerializer(SeededCreateRequestSerializer, TourSetupSerializer):
    """``POST /api/tours/``: club, name, public, seed and the set-up."""

    # Tours have always ignored keys they do not know (the API contract keeps that).
    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        return TourSetupSerializer.validate(self, data)


class TourPatchSerializer(PatchRequestSerializer):
    stages = serializers.ListField(child=serializers.DictField(), required=False)
    teams = serializers.ListField(child=serializers.DictField(), required=False)
    rest_days_after = serializers.ListField(child=IntegerField(), required=False)
    rules = serializers.DictField(required=False)


class RiderSerializer(serializers.ModelSerializer):
    specialist = serializers.SerializerMethodField()

    class Meta:
        model = Rider
        fields = ["id", "name", "role", "specialist"]

    def get_specialist(self, rider: Rider) -> str | None:
        return rider.specialist or None


class TeamSerializer(serializers.ModelSerializer):
    riders = RiderSerializer(many=True)
    player_id = serializers.IntegerField(source="club_player_id", read_only=True, allow_null=True)

    class Meta:
        model = Team
        fields = ["id", "name", "player", "player_id", "riders"]


#: A stage's set-up as every stage answer shows it.
STAGE_FIELDS = ("number", "name", "course", "finish", "stacks")


@extend_schema_field(StackSerializer(many=True))
class StacksField(serializers.JSONField):
    """A stage's stacks as stored; documented as the set-up's stack objects (FR-52)."""


class StageSummarySerializer(serializers.ModelSerializer):
    stacks = StacksField(read_only=True)

    class Meta:
        model = Stage
        fields = [*STAGE_FIELDS, "status", "rest_day_after", "version", "date"]


class TourAwardSerializer(serializers.Serializer):
    """An end-of-tour award (docs/tour-awards.md)."""

    award = serializers.CharField()
    title = serializers.CharField()
    text = serializers.CharField()
    figure = IntegerField()
    rider = IntegerField(allow_null=True)
    team = IntegerField(allow_null=True)
    stage = IntegerField(allow_null=True)


class TourSerializer(CompetitionDetailSerializer):
    rest_days_after = serializers.SerializerMethodField()
    awards = serializers.SerializerMethodField()
    rest_days_recommended = serializers.SerializerMethodField()
    stages = StageSummarySerializer(many=True)
    teams = TeamSerializer(many=True)

    class Meta:
        model = Tour
        fields = competition_fields(
            "rules",
            "rest_days_after",
            "rest_days_recommended",
            "specialist_order",
            "stages",
            "teams",
            "awards",
        )

    def get_rest_days_after(self, tour: Tour) -> list[int]:
        return [s.number for s in tour.stages.all() if s.rest_day_after]

    @extend_schema_field(TourAwardSerializer(many=True, allow_null=True))
    def get_awards(self, tour: Tour) -> list[dict[str, Any]] | None:
        # docs/tour-awards.md: [] until the last stage is resolved; null in the tour list and
        # outside a request (computed for one tour's detail only: no query per listed tour).
        if isinstance(self.parent, serializers.ListSerializer) or "request" not in self.context:
            return None
        return [asdict(award) for award in awards.shown(tour)]

    def get_rest_days_recommended(self, tour: Tour) -> int:
        # GT-1.2: a hint shown beside the placement, never an error.
        return recommended_rest_days(len(tour.stages.all()))


@extend_schema_serializer(component_name="TourStageResultRow")
class ResultRowSerializer(serializers.Serializer):
    rider = IntegerField(min_value=-MAX_VALUE, max_value=2**62)
    position = IntegerField(min_value=-MAX_VALUE, max_value=MAX_VALUE)
    minutes = IntegerField(
        min_value=-MAX_VALUE,
        max_value=MAX_VALUE,
        help_text="With seconds, the stage time: at most 24 hours (minutes*60 + seconds <= 86400).",
    )
    seconds = IntegerField(min_value=-MAX_VALUE, max_value=MAX_VALUE)
    sprint_points = IntegerField(
        min_value=-MAX_VALUE, max_value=MAX_VALUE, required=False, default=0
    )
    mountain_points = IntegerField(
        min_value=-MAX_VALUE, max_value=MAX_VALUE, required=False, default=0
    )
    exhaustion = IntegerField(
        min_value=-MAX_VALUE, max_value=MAX_VALUE, required=False, allow_null=True, default=None
    )


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "Two riders",
            value={
                "results": [
                    {"rider": 11, "position": 1, "minutes": 4, "seconds": 5, "sprint_points": 3},
                    {"rider": 12, "position": 2, "minutes": 4, "seconds": 12, "exhaustion": 2},
                ],
                "version": 0,
            },
            request_only=True,
        )
    ]
)
class StageResultsInputSerializer(serializers.Serializer):
    results = ResultRowSerializer(many=True, allow_empty=False)
    version = IntegerField(required=False, min_value=0)


# Its own component: the row as stored, with ``time`` (it would inherit the row's name).
@extend_schema_serializer(component_name="StageResultOut")
class StageResultOutSerializer(ResultRowSerializer):
    time = serializers.SerializerMethodField()

    def get_time(self, row: dict[str, Any]) -> int:
        return 60 * row["minutes"] + row["seconds"]


class StageDetailSerializer(serializers.ModelSerializer):
    stacks = StacksField(read_only=True)
    results = StageResultOutSerializer(many=True)
    # API.md: ``submitted`` or ``simulated``; null while the stage has no results.
    # A field named like Field.source: the stubs see an override of that attribute.
    source = serializers.CharField(  # type: ignore[assignment]
        allow_null=True, source="source_or_none"
    )

    class Meta:
        model = Stage
        # ``rest_day_after`` sits before the timestamps, as it always has.
        fields = [
            *STAGE_FIELDS,
            *EVENT_STATE_FIELDS[:5],
            "rest_day_after",
            *EVENT_STATE_FIELDS[5:],
            "date",  # API.md, "Dates": null when unset
        ]


class TourStandingsSerializer(serializers.Serializer):
    """The standings' shape, for the schema (the API serves the stored snapshot as it is)."""

    after_stage = IntegerField(allow_null=True)
    general = serializers.ListField(child=serializers.DictField())
    sprint = serializers.ListField(child=serializers.DictField())
    mountain = serializers.ListField(child=serializers.DictField())
    team = serializers.ListField(child=serializers.DictField())
    jerseys = serializers.DictField()
    tour_points = serializers.ListField(child=serializers.DictField())
    exhaustion = serializers.ListField(child=serializers.DictField())
    next_start_order = serializers.ListField(child=IntegerField(), allow_null=True)
