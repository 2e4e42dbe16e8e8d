"""Club players (API.md "Players and club history"): list, create, rename, link, merge, record."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.clubs.models import Club
from tournament.competitions.access import (
    ORGANISE,
    ORGANISER_ROLES,
    READ,
    DeclaredAccess,
    require_role,
)
from tournament.competitions.errors import InvalidInput
from tournament.players import services
from tournament.players.models import Player
from tournament.players.record import player_record
from tournament.players.serializers import (
    MergeSerializer,
    PlayerRecordSerializer,
    PlayerSerializer,
)


@extend_schema_view(
    list=extend_schema(summary="List a club's players", description="By name."),
    create=extend_schema(
        summary="Add a player",
        description="Organisers. `user` (a username) links the player to an account.",
    ),
    retrieve=extend_schema(
        summary="A player's record",
        description="Every competition of the club the caller may see that the player entered: "
        "kind, id, name, finished, rank in the main title (Tour Points for tours), titles, event "
        "wins and jerseys worn.",
        responses=PlayerRecordSerializer,
    ),
    partial_update=extend_schema(
        summary="Rename a player or link a user", description="Organisers."
    ),
    merge=extend_schema(
        summary="Merge two players",
        description="Organisers: this player is the same person as `into`; every entry follows "
        "and this player is deleted. Answers the merged player.",
        request=MergeSerializer,
        responses=PlayerSerializer,
    ),
)
class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[Player],
):
    serializer_class = PlayerSerializer
    permission_classes = [DeclaredAccess]
    permission_for_action = {
        "list": READ,
        "retrieve": READ,
        "create": ORGANISE,
        "partial_update": ORGANISE,
        "merge": ORGANISE,
    }
    http_method_names = ["get", "post", "patch", "options", "head"]

    def club(self) -> Club:
        if not hasattr(self, "_club"):
            self._club = get_object_or_404(Club, slug=self.kwargs["slug"])
        return self._club

    def club_for_access(self, request: Request) -> Club:
        return self.club()

    def check_permissions(self, request: Request) -> None:
        super().check_permissions(request)
        if self.permission_for_action.get(str(self.action)) == ORGANISE:
            # The club's organisers only, before any lookup (an unknown player is no hint).
            require_role(request.user, self.club().pk, ORGANISER_ROLES)

    def get_queryset(self) -> Any:
        return Player.objects.filter(club=self.club()).select_related("user").order_by("key")

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "club": self.club()}

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        body = {
            "id": player.pk,
            "name": player.name,
            "user": player.user.get_username() if player.user else None,
            "competitions": player_record(player, request.user),
        }
        return Response(PlayerRecordSerializer(body).data)

    @action(detail=True, methods=["post"])
    def merge(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        body = MergeSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        into = services.merge(player, body.validated_data["into"])
        return Response(PlayerSerializer(into).data, status=status.HTTP_200_OK)
