"""Club players (API.md "Players and club history"): list, create, rename, link, merge, record."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.clubs.models import Club
from tournament.competitions.access import (
    ORGANISE,
    READ,
    DeclaredAccess,
)
from tournament.competitions.club_api import ClubResourceViewSet
from tournament.competitions.errors import InvalidInput
from tournament.players import services
from tournament.players.career import best_results, head_to_head
from tournament.players.hall_of_fame import club_hall_of_fame
from tournament.players.history import club_history
from tournament.players.models import Player
from tournament.players.record import load as record_history
from tournament.players.record import player_record
from tournament.players.serializers import (
    HallOfFameSerializer,
    HeadToHeadSerializer,
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
        "wins and jerseys worn; and per game the best results (best rank, best finish in one "
        "event, and how often).",
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
    ClubResourceViewSet,
):
    serializer_class = PlayerSerializer
    permission_for_action = {
        "list": READ,
        "retrieve": READ,
        "create": ORGANISE,
        "partial_update": ORGANISE,
        "merge": ORGANISE,
        "head_to_head": READ,
    }
    http_method_names = ["get", "post", "patch", "options", "head"]

    def get_queryset(self) -> Any:
        return Player.objects.filter(club=self.club()).select_related("user").order_by("key")

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "club": self.club()}

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        history = record_history(self.club(), player, request.user)
        body = {
            "id": player.pk,
            "name": player.name,
            "user": player.user.get_username() if player.user else None,
            "competitions": player_record(player, request.user, history),
            "best": best_results(history, player.pk),
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

    @extend_schema(
        summary="Head-to-head of two players",
        description="The competitions of the club the caller may see that both players "
        "entered: who ranks ahead in the main title, and over the events both finished who "
        "finished ahead how often; per competition, per game and in all. The other player "
        "being the same one is a 400.",
        responses=HeadToHeadSerializer,
    )
    def head_to_head(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        other = get_object_or_404(self.get_queryset(), pk=self.kwargs["other"])
        if other.pk == player.pk:
            raise InvalidInput({"other": [_("Choose another player of the club to compare with.")]})
        history = club_history(self.club(), request.user, players=[player.pk, other.pk])
        body = {
            "player": {"id": player.pk, "name": player.name},
            "other": {"id": other.pk, "name": other.name},
            **head_to_head(history, player.pk, other.pk),
        }
        return Response(HeadToHeadSerializer(body).data)


@extend_schema_view(
    retrieve=extend_schema(
        summary="A club's hall of fame",
        description="Over the competitions the caller may see: titles per player and game, "
        "records per game (most event wins in one competition, largest winning margin, longest "
        "run leading or in yellow, most jerseys in one tour) and the current holders of running "
        "competitions.",
        responses=HallOfFameSerializer,
    ),
)
class HallOfFameViewSet(viewsets.GenericViewSet[Player]):
    permission_classes = [DeclaredAccess]
    permission_for_action = {"retrieve": READ}
    serializer_class = HallOfFameSerializer
    pagination_class = None

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = get_object_or_404(Club, slug=self.kwargs["slug"])
        return Response(HallOfFameSerializer(club_hall_of_fame(club, request.user)).data)
