"""Rally-championship endpoints (API.md "Rally championships"); rallies themselves are the
shared competition viewset, declared by :class:`~tournament.rallies.kind.RallyKind`.

A rally championship is not a competition with events: it has its own list, create, detail, an
endpoint to add a rally and derived standings, with access declared like every viewset's.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.clubs.models import Club
from tournament.competitions import tie_break
from tournament.competitions.access import ORGANISE, READ, club_named_in_body
from tournament.competitions.api import VisibleFirst, query_int
from tournament.competitions.errors import InvalidInput
from tournament.competitions.schema import after_parameter
from tournament.rallies import services
from tournament.rallies.models import ChampionshipRally, Rally, RallyChampionship
from tournament.rallies.serializers import (
    RallyChampionshipAddRallySerializer,
    RallyChampionshipCreateSerializer,
    RallyChampionshipPatchSerializer,
    RallyChampionshipSerializer,
    RallyChampionshipStandingsSerializer,
)


@extend_schema_view(
    list=extend_schema(
        summary="List rally championships",
        description="The rally championships you may see: public ones and those of your clubs, "
        "newest first, 50 per page.",
    ),
    retrieve=extend_schema(
        summary="Get a rally championship",
        description="The championship's settings and its rallies in order.",
    ),
)
class RallyChampionshipViewSet(VisibleFirst, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    serializer_class = RallyChampionshipSerializer
    #: Answers 409 beyond the shared ones (tournament/competitions/schema.py).
    schema_conflicts = {
        "standings": "The results of a counted rally cannot be scored together (the message "
        "says why).",
        "partial_update": "A rally of it holds results: its settings, and the rallies already "
        "in it, no longer change (rallies may still be added at the end).",
    }
    http_method_names = ["get", "post", "patch", "head", "options"]
    permission_for_action = {
        "list": READ,
        "retrieve": READ,
        "create": ORGANISE,
        "add_rally": ORGANISE,
        "partial_update": ORGANISE,
        "standings": READ,
    }

    def get_queryset(self) -> QuerySet[RallyChampionship]:
        return (
            RallyChampionship.objects.visible_to(self.request.user)
            .select_related("club")
            .prefetch_related(
                Prefetch("entries", queryset=ChampionshipRally.objects.order_by("order"))
            )
            .order_by("-created_at", "-id")
        )

    def _detail(self, pk: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(
            RallyChampionshipSerializer(self.get_queryset().get(pk=pk)).data, status=code
        )

    def club_for_access(self, request: Request) -> Club | None:
        """The club a create request names (``DeclaredAccess``: 401/403 before its 400)."""
        return club_named_in_body(request)

    @extend_schema(
        summary="Create a rally championship",
        description="A championship over rallies of a club you organise, scored in the order "
        "given.",
        request=RallyChampionshipCreateSerializer,
        responses={201: RallyChampionshipSerializer},
    )
    def create(self, request: Request) -> Response:
        body = RallyChampionshipCreateSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        data = body.validated_data
        order = {pk: i for i, pk in enumerate(data["rallies"])}
        rallies = sorted(Rally.objects.filter(pk__in=data["rallies"]), key=lambda r: order[r.pk])
        championship = services.create_championship(
            club=data["club"],
            name=data["name"],
            public=data["public"],
            settings=data["settings"],
            rallies=rallies,
            by=request.user,
        )
        return self._detail(championship.pk, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change a rally championship",
        description="Name and visibility at any time; points, power stage, drop-worst and the "
        "rallies (ids in order) until one of its rallies holds results, then only new rallies "
        "at the end (organisers).",
        request=RallyChampionshipPatchSerializer,
        responses={200: RallyChampionshipSerializer},
    )
    def partial_update(self, request: Request, pk: Any = None) -> Response:
        """The set-up pages' edit, as an API: the same serializer and service."""
        championship = self.get_object()
        body = RallyChampionshipPatchSerializer(
            data=request.data, context={"championship": championship}
        )
        if not body.is_valid():
            raise InvalidInput(body.errors)
        services.update_championship(
            championship_id=championship.pk, changes=body.validated_data, by=request.user
        )
        return self._detail(championship.pk)

    @extend_schema(
        summary="Add a rally",
        description="Add a rally of the championship's club at the end of its order (organisers).",
        request=RallyChampionshipAddRallySerializer,
        responses={201: RallyChampionshipSerializer},
    )
    @action(detail=True, methods=["post"], url_path="rallies")
    def add_rally(self, request: Request, pk: Any = None) -> Response:
        """Add a rally of the championship's club at the end of its order."""
        championship = self.get_object()
        body = RallyChampionshipAddRallySerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        services.add_rally(
            championship_id=championship.pk, rally_id=body.validated_data["rally"], by=request.user
        )
        return self._detail(championship.pk, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Rally championship standings",
        description="The standings over the longest run of rallies, from the first, whose "
        "results are all resolved; or after the first `after_rally` of them.",
        parameters=[after_parameter("after_rally", "rally")],
        responses={200: RallyChampionshipStandingsSerializer},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: Any = None) -> Response:
        """RM-47 to RM-51 over the longest run of complete rallies from the first."""
        championship = self.get_object()  # visibility first: 404 before any 400
        after = query_int(request, "after_rally")
        document = services.rally_championship_standings(championship=championship, after=after)
        return Response(tie_break.localize(document))  # issue #17: tie-breaks in words
