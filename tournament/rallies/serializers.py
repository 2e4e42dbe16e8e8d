"""Rally API serializers: set-up input, detail output, stage detail, sheets; championships."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from scoring.rally import parse_championship_settings
from tournament.clubs.models import Club
from tournament.competitions.messages import param_messages
from tournament.competitions.serializers import (
    EVENT_STATE_FIELDS,
    CompetitionDetailSerializer,
    PatchRequestSerializer,
    SeededCreateRequestSerializer,
    competition_fields,
    reject_unknown,
)
from tournament.fields import BooleanField, CharField, IntegerField, SlugRelatedField
from tournament.rallies.models import Driver, Rally, RallyChampionship, RallyStage
from tournament.rallies.setup import RallySetupSerializer

MAX_ID = 2**62


class RallyCreateSerializer(SeededCreateRequestSerializer, RallySetupSerializer):
    """``POST /api/rallies/``: club, name, public, seed and the set-up."""


class RallyPatchSerializer(PatchRequestSerializer):
    drivers = serializers.ListField(child=serializers.DictField(), required=False)
    stages = serializers.ListField(child=serializers.DictField(), required=False)
    rules = serializers.DictField(required=False)


class RallyDriverSerializer(serializers.ModelSerializer):
    player_id = serializers.IntegerField(source="club_player_id", read_only=True, allow_null=True)

    class Meta:
        model = Driver
        fields = ["id", "name", "player_id"]


class RallyStageSummarySerializer(serializers.ModelSerializer):
    layout = serializers.JSONField()

    class Meta:
        model = RallyStage
        fields = ["number", "name", "layout", "status", "version", "date"]


class RallySerializer(CompetitionDetailSerializer):
    drivers = RallyDriverSerializer(many=True)
    stages = RallyStageSummarySerializer(many=True)

    class Meta:
        model = Rally
        fields = competition_fields("rules", "drivers", "stages")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A finish with a penalty, and a retirement",
            value={
                "results": [
                    {
                        "driver": 7,
                        "status": "finished",
                        "time": "4:21",
                        "penalties": [{"seconds": 10, "reason": "Jump start"}],
                    },
                    {"driver": 8, "status": "retired"},
                ],
                "version": 0,
            },
            request_only=True,
        )
    ]
)
class RallyStageResultsInputSerializer(serializers.Serializer):
    """The sheet's rows are checked by the game (RM-53), every problem at once."""

    results = serializers.ListField(
        child=serializers.DictField(),
        allow_empty=False,
        help_text=(
            "One row per driver: driver, status (finished or retired), time (whole seconds or "
            '"m:ss", at most 86400 s = 24 h), log (a turn log, at most 10000 characters) and '
            "penalties (at most 20, each 1 to 3600 s with a reason of at most 200 characters)."
        ),
    )
    version = IntegerField(required=False, min_value=0)


class RallyPenaltySerializer(serializers.Serializer):
    seconds = IntegerField(help_text="1 to 3600 seconds.")
    reason = CharField(help_text="At most 200 characters.")


class RallyStageResultSerializer(serializers.Serializer):
    """A stored row: as submitted (``time`` in seconds) plus the computed times (RM-52)."""

    driver = IntegerField()
    status = CharField()
    time = IntegerField(allow_null=True)
    log = CharField(allow_null=True)
    penalties = RallyPenaltySerializer(many=True)
    net_time = IntegerField(allow_null=True)
    penalty_time = IntegerField()
    stage_time = IntegerField(allow_null=True)
    cards = IntegerField(allow_null=True)
    tokens = IntegerField(allow_null=True)
    warnings = serializers.ListField(child=CharField())


class RallyStageDetailSerializer(serializers.ModelSerializer):
    layout = serializers.JSONField()
    results = RallyStageResultSerializer(many=True)

    class Meta:
        model = RallyStage
        fields = ["number", "name", "layout", *EVENT_STATE_FIELDS, "date"]


# --- Rally championships -----------------------------------------------------------------------


class RallyChampionshipCreateSerializer(serializers.Serializer):
    #: ``validate`` refuses keys it does not declare (the schema says additionalProperties false).
    rejects_unknown_keys = True
    club: SlugRelatedField[Club] = SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    name = CharField(max_length=160)
    public = BooleanField(required=False, default=True)
    points = serializers.JSONField(required=False)
    power_stage = serializers.JSONField(required=False)
    power_stage_points = serializers.JSONField(required=False)
    drop_worst = serializers.JSONField(required=False)
    rallies = serializers.ListField(
        child=IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        default=list,
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        # There is no ``rules`` object (API.md): settings are top-level, anything else is a 400.
        reject_unknown(self, _("Unknown field."))
        given: dict[str, Any] = {
            k: data[k]
            for k in ("points", "power_stage", "power_stage_points", "drop_worst")
            if k in data
        }
        settings, problems = parse_championship_settings(given)
        errors: dict[str, Any] = param_messages(problems)
        rally_errors = check_championship_rallies(data["rallies"], data["club"])
        if rally_errors:
            errors["rallies"] = rally_errors
        if errors:
            raise serializers.ValidationError(errors)
        return {**data, "settings": settings.to_json()}


def check_championship_rallies(rallies: list[int], club: Club) -> list[str]:
    """RM-47: rallies of the championship's club, each once (the problems, empty when none)."""
    if len(set(rallies)) != len(rallies):
        return [_("A rally may be added once.")]
    found_ids = set(Rally.objects.filter(pk__in=rallies, club=club).values_list("pk", flat=True))
    missing = [pk for pk in rallies if pk not in found_ids]
    if missing:
        return [
            _("No rally of this club has the id %(ids)s.")
            % {"ids": ", ".join(str(pk) for pk in missing)}
        ]
    return []


SETTING_KEYS = ("points", "power_stage", "power_stage_points", "drop_worst")


class RallyChampionshipPatchSerializer(serializers.Serializer):
    """A change of a rally championship (the set-up pages): ``name`` and ``public``, the
    settings of RM-47 to RM-50 and the rallies in order, checked as at creation. The
    championship is the serializer's ``context["championship"]``; settings not sent keep their
    value, and the merged settings are checked together."""

    name = CharField(max_length=160, required=False)
    public = BooleanField(required=False)
    points = serializers.JSONField(required=False)
    power_stage = serializers.JSONField(required=False)
    power_stage_points = serializers.JSONField(required=False)
    drop_worst = serializers.JSONField(required=False)
    rallies = serializers.ListField(
        child=IntegerField(min_value=1, max_value=MAX_ID), required=False
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("This field cannot be changed."))
        championship: RallyChampionship = self.context["championship"]
        errors: dict[str, Any] = {}
        if any(key in data for key in SETTING_KEYS):
            merged = {
                **championship.settings_json(),
                **{k: data[k] for k in SETTING_KEYS if k in data},
            }
            settings, problems = parse_championship_settings(merged)
            errors |= param_messages(problems)
            data = {**data, "settings": settings.to_json()}
        if "rallies" in data:
            rally_errors = check_championship_rallies(data["rallies"], championship.club)
            if rally_errors:
                errors["rallies"] = rally_errors
        if errors:
            raise serializers.ValidationError(errors)
        return data


class RallyChampionshipAddRallySerializer(serializers.Serializer):
    rally = IntegerField(min_value=1, max_value=MAX_ID)


class RallyChampionshipSerializer(serializers.ModelSerializer):
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    points = serializers.JSONField()
    power_stage_points = serializers.ListField(child=IntegerField())
    rallies = serializers.SerializerMethodField()

    class Meta:
        model = RallyChampionship
        fields = [
            "id",
            "club",
            "name",
            "public",
            "points",
            "power_stage",
            "power_stage_points",
            "drop_worst",
            "rallies",
            "created_at",
        ]

    def get_rallies(self, championship: RallyChampionship) -> list[int]:
        # Prefetched in championship order by the viewset (no query per championship).
        return [entry.rally_id for entry in championship.entries.all()]


class RallyStandingsSerializer(serializers.Serializer):
    """A rally's standings' shape, for the schema (the API serves the stored snapshot)."""

    after_stage = IntegerField(allow_null=True)
    overall = serializers.ListField(child=serializers.DictField())
    stages = serializers.ListField(child=serializers.DictField())


class RallyChampionshipStandingsSerializer(serializers.Serializer):
    """A rally championship's standings' shape, for the schema."""

    after_rally = IntegerField(allow_null=True)
    drivers = serializers.ListField(child=serializers.DictField())
