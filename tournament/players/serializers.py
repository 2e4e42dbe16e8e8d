"""Players in the API: id, name, user (a username or null)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from rest_framework import serializers

from tournament.fields import CharField
from tournament.players.matching import clean_name, match_key
from tournament.players.models import Player


class PlayerSerializer(serializers.ModelSerializer[Player]):
    name = CharField(max_length=80)
    user = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.all(),
        required=False,
        allow_null=True,
    )

    class Meta:
        model = Player
        fields = ["id", "name", "user"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # DRF reads "" as null for a relation; the schema asks for a username or null.
        if isinstance(self.initial_data, dict) and self.initial_data.get("user") == "":
            raise serializers.ValidationError({"user": [_("Give a username, or null.")]})
        return attrs

    def validate_name(self, value: str) -> str:
        name = clean_name(value)
        if not name:
            raise serializers.ValidationError(_("A player needs a name."))
        club = self.context["club"]
        others = Player.objects.filter(club=club, key=match_key(name))
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise serializers.ValidationError(
                _("The club already has a player named %(name)s.") % {"name": name}
            )
        return name

    def create(self, validated_data: dict[str, Any]) -> Player:
        return Player.objects.create(club=self.context["club"], **validated_data)


class MergeSerializer(serializers.Serializer[Any]):
    into = serializers.IntegerField(min_value=1)


class CompetitionRecordSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["tour", "championship", "league", "rally"])
    id = serializers.IntegerField()
    name = serializers.CharField()
    entry = serializers.CharField(help_text="The team or driver name in that competition.")
    finished = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)
    titles = serializers.ListField(child=serializers.CharField())
    event_wins = serializers.IntegerField()
    jerseys = serializers.DictField(child=serializers.IntegerField())


class BestSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["tour", "championship", "league", "rally"])
    competitions = serializers.IntegerField(help_text="Competitions of that game entered.")
    rank = serializers.IntegerField(allow_null=True, help_text="Best rank in the main title.")
    rank_count = serializers.IntegerField(help_text="Competitions with that rank.")
    event = serializers.IntegerField(
        allow_null=True, help_text="Best finish in one event (stage or race)."
    )
    event_count = serializers.IntegerField(help_text="Events with that finish.")


class PlayerRecordSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    competitions = CompetitionRecordSerializer(many=True)
    best = BestSerializer(many=True, help_text="Best results per game entered.")


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MeetingTotalsSerializer(serializers.Serializer[Any]):
    competitions = serializers.IntegerField(help_text="Competitions both players entered.")
    ahead = serializers.IntegerField(help_text="Of those, the player ranked ahead (main title).")
    behind = serializers.IntegerField(help_text="Of those, the other player ranked ahead.")
    events = serializers.IntegerField(help_text="Events (stages, races) both finished.")
    events_ahead = serializers.IntegerField()
    events_behind = serializers.IntegerField()


class GameMeetingsSerializer(MeetingTotalsSerializer):
    kind = serializers.ChoiceField(choices=["tour", "championship", "league", "rally"])


class MeetingSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["tour", "championship", "league", "rally"])
    id = serializers.IntegerField()
    name = serializers.CharField()
    finished = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)
    other_rank = serializers.IntegerField(allow_null=True)
    ahead = serializers.ChoiceField(choices=["player", "other"], allow_null=True)
    events = serializers.IntegerField()
    events_ahead = serializers.IntegerField()
    events_behind = serializers.IntegerField()


class HeadToHeadSerializer(serializers.Serializer[Any]):
    player = PlayerRefSerializer()
    other = PlayerRefSerializer()
    total = MeetingTotalsSerializer()
    games = GameMeetingsSerializer(many=True)
    competitions = MeetingSerializer(many=True)


class TitleRowSerializer(serializers.Serializer[Any]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.DictField(
        child=serializers.IntegerField(), help_text="Main titles per game kind."
    )
    jerseys = serializers.IntegerField(help_text="Jerseys held at the end of finished tours.")
    total = serializers.IntegerField()


class HolderSerializer(serializers.Serializer[Any]):
    player_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    kind = serializers.CharField()
    competition_id = serializers.IntegerField()
    competition = serializers.CharField()


class HallRecordSerializer(serializers.Serializer[Any]):
    key = serializers.ChoiceField(choices=["event_wins", "margin", "lead_run", "jersey_stages"])
    kind = serializers.ChoiceField(choices=["tour", "championship", "league", "rally"])
    figure = serializers.IntegerField(help_text="Seconds for a rally's margin.")
    holders = HolderSerializer(many=True)


class CurrentTitleSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(help_text="leader, or a tour's jersey.")
    player_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()


class RunningSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["tour", "championship", "league", "rally"])
    id = serializers.IntegerField()
    name = serializers.CharField()
    after = serializers.IntegerField(help_text="Events resolved so far.")
    titles = CurrentTitleSerializer(many=True)


class HallOfFameSerializer(serializers.Serializer[Any]):
    titles = TitleRowSerializer(many=True)
    records = HallRecordSerializer(many=True)
    holders = RunningSerializer(many=True)
