"""Seasons in the API: the create/PATCH body (shape and bounds only), the season, its standings."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from tournament.competitions.serializers import reject_unknown
from tournament.fields import CharField, IntegerField
from tournament.players.matching import clean_name
from tournament.seasons.models import Kind

#: Far above a club's year of game nights, low enough to bound a standings read.
MAX_COMPETITIONS = 100
#: Points for ranks 1..100 at most; each at most 10 000.
MAX_POINTS = 100
MAX_POINT_VALUE = 10_000


class SeasonItemSerializer(serializers.Serializer[Any]):
    """One competition of the season: its kind and id."""

    rejects_unknown_keys = True
    kind = serializers.ChoiceField(choices=Kind.choices)
    id = IntegerField(min_value=1, max_value=2**31 - 1)

    def to_internal_value(self, data: Any) -> Any:
        # A list's items are checked without ``initial_data`` (so ``reject_unknown`` sees
        # nothing), and a PATCH's ``partial`` would reach them too: an item is always whole.
        if isinstance(data, dict):
            errors = {key: [_("Unknown field.")] for key in sorted(set(data) - set(self.fields))}
            for key, field in self.fields.items():
                if key not in data:
                    errors[key] = [str(field.error_messages["required"])]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class SeasonInputSerializer(serializers.Serializer[Any]):
    """``POST`` (every field) and ``PATCH`` (``partial``: the fields sent)."""

    rejects_unknown_keys = True
    name = CharField(max_length=80)
    points = serializers.ListField(
        child=IntegerField(min_value=0, max_value=MAX_POINT_VALUE),
        min_length=1,
        max_length=MAX_POINTS,
        help_text="Points for final ranks 1, 2, 3...; a rank past the end gives 0.",
    )
    competitions = serializers.ListField(
        child=SeasonItemSerializer(),
        min_length=1,
        max_length=MAX_COMPETITIONS,
        help_text="Competitions of the club, in the order the standings show them; only "
        "finished ones count.",
    )

    def validate_name(self, value: str) -> str:
        name = clean_name(value)
        if not name:
            raise serializers.ValidationError(_("A season needs a name."))
        return name

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("Unknown field."))
        return data


class SeasonCompetitionSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=Kind.choices)
    id = serializers.IntegerField()


class SeasonSerializer(serializers.Serializer[Any]):
    """A season as the API shows it: its competitions are those the caller may see."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField())
    competitions = SeasonCompetitionSerializer(many=True)


class ShownCompetitionSerializer(SeasonCompetitionSerializer):
    name = serializers.CharField()
    finished = serializers.BooleanField(help_text="Every event resolved: only these count.")


class SeasonTieBreakSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    rule = serializers.CharField()
    params = serializers.DictField()
    text = serializers.CharField(help_text="Why this row is below the level row above it.")


class SeasonRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    results = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="The final rank in each competition of `competitions` (null: not entered, or "
        "not finished).",
    )
    tie_break = SeasonTieBreakSerializer(required=False)


class SeasonStandingsSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField())
    competitions = ShownCompetitionSerializer(many=True)
    players = SeasonRowSerializer(many=True)
