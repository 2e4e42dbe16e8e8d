"""``/api/clubs/{slug}/seasons/`` (API.md "Players and club history"): club seasons.

Anyone may read a club's seasons and their standings (each reader sees, and counts, only the
competitions they may see); the club's organisers create and change them. The write actions
check the organiser role before looking the season up (401 / 403 before a 404), as the players'.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.competitions.access import (
    ORGANISE,
    READ,
)
from tournament.competitions.club_api import ClubResourceViewSet
from tournament.competitions.errors import InvalidInput
from tournament.seasons import services
from tournament.seasons.models import Season
from tournament.seasons.serializers import (
    SeasonInputSerializer,
    SeasonSerializer,
    SeasonStandingsSerializer,
)
from tournament.seasons.standings import season_table, visible_competitions


def season_bodies(seasons: list[Season], user: Any) -> list[dict[str, Any]]:
    """Seasons as the API shows them, each with the competitions ``user`` may see (one query
    per game for the whole list; ``items`` prefetched)."""
    if not seasons:
        return []
    pairs = [(i.kind, i.competition_id) for s in seasons for i in s.items.all()]
    shown = visible_competitions(seasons[0].club_id, pairs, user)
    return [
        {
            "id": s.pk,
            "name": s.name,
            "points": list(s.points),
            "competitions": [
                {"kind": i.kind, "id": i.competition_id}
                for i in s.items.all()
                if (i.kind, i.competition_id) in shown
            ],
        }
        for s in seasons
    ]


@extend_schema_view(
    list=extend_schema(
        summary="List a club's seasons",
        description="Newest first; each lists the competitions the caller may see.",
        responses=SeasonSerializer(many=True),
    ),
    create=extend_schema(
        summary="Create a season",
        description="Organisers. Competitions of the club of any game, in order; a points "
        "table by final rank. A competition of another club or unknown is a 400 on that item.",
        request=SeasonInputSerializer,
        responses={201: SeasonSerializer},
    ),
    retrieve=extend_schema(summary="A season", responses=SeasonSerializer),
    partial_update=extend_schema(
        summary="Change a season",
        description="Organisers: its name, points table or competitions (the keys sent).",
        request=SeasonInputSerializer,
        responses=SeasonSerializer,
    ),
    standings=extend_schema(
        summary="A season's standings",
        description="Each finished competition gives its points by the player's final rank in "
        "its main title (Tour Points for tours); ties are broken by countback of those ranks, "
        "then by name, and a row level on points with the one above says why in `tie_break`. "
        "Only competitions the caller may see count.",
        responses=SeasonStandingsSerializer,
    ),
)
class SeasonViewSet(ClubResourceViewSet):
    permission_for_action = {
        "list": READ,
        "retrieve": READ,
        "standings": READ,
        "create": ORGANISE,
        "partial_update": ORGANISE,
    }
    serializer_class = SeasonSerializer
    http_method_names = ["get", "post", "patch", "options", "head"]

    def get_queryset(self) -> Any:
        return Season.objects.filter(club=self.club()).prefetch_related("items")

    def _input(self, request: Request, *, partial: bool) -> dict[str, Any]:
        body = SeasonInputSerializer(data=request.data, partial=partial)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        return dict(body.validated_data)

    def _answer(self, season: Season, request: Request, code: int = 200) -> Response:
        fresh = self.get_queryset().get(pk=season.pk)
        return Response(season_bodies([fresh], request.user)[0], status=code)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(season_bodies(list(page or []), request.user))

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = self._input(request, partial=False)
        season = services.create_season(club=self.club(), by=request.user, **data)
        return self._answer(season, request, status.HTTP_201_CREATED)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._answer(self.get_object(), request)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = self.get_object()
        season = services.update_season(season=season, changes=self._input(request, partial=True))
        return self._answer(season, request)

    @action(detail=True, methods=["get"])
    def standings(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(season_table(self.get_object(), request.user))
