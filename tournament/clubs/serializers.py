"""Club and membership serializers."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournament.clubs.models import Club, Membership, Role
from tournament.fields import CharField, SlugField


class ClubSerializer(serializers.ModelSerializer):
    # The model's text columns read JSON strings only (the schema's "type": "string").
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: CharField,
        models.SlugField: SlugField,
    }

    class Meta:
        model = Club
        fields = ["name", "slug"]


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["username", "role"]


class ClubDetailSerializer(ClubSerializer):
    members = serializers.SerializerMethodField(
        help_text="The club's members and their roles; shown only to its members."
    )
    #: Left out for callers outside the club (the schema does not require it).
    schema_optional_fields = ("members",)

    class Meta(ClubSerializer.Meta):
        fields = ["name", "slug", "members"]

    def to_representation(self, club: Club) -> dict[str, Any]:
        data = super().to_representation(club)
        if not self.context.get("show_members"):
            data.pop("members")
        return data

    @extend_schema_field(MemberSerializer(many=True))
    def get_members(self, club: Club) -> list[dict[str, Any]]:
        return MemberSerializer(club.memberships.all(), many=True).data  # type: ignore[return-value]


class NewMemberSerializer(serializers.Serializer):
    username = CharField(max_length=150)
    role = serializers.ChoiceField(choices=Role.choices)

    def validate_username(self, username: str) -> Any:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise serializers.ValidationError(_("No user with this username."))
        club = self.context["club"]
        if Membership.objects.filter(club=club, user=user).exists():
            raise serializers.ValidationError(_("This user is already a member of the club."))
        return user
