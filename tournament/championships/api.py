"""Championship endpoints (API.md "Championships (Formula D)"): set-up, races, standings.

The race endpoints are the shared :class:`CompetitionActions` (versions, Idempotency-Key, 409s,
simulation, replay, history); this module declares the URL words and the set-up endpoints.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.championships import services
from tournament.championships.models import Championship, Driver, Race
from tournament.championships.serializers import (
    ChampionshipCreateSerializer,
    ChampionshipPatchSerializer,
    ChampionshipSerializer,
    RaceDetailSerializer,
    RaceResultsInputSerializer,
    RaceResultsSchemaSerializer,
)
from tournament.competitions.api import (
    CompetitionActions,
    ImportSerializer,
)

NUMBER = r"(?P<number>[0-9]+)"
StandingsSchema = inline_serializer(
    "ChampionshipStandings",
    {
        "after_race": serializers.IntegerField(allow_null=True),
        "drivers": serializers.ListField(child=serializers.DictField()),
        "teams": serializers.ListField(child=serializers.DictField()),
    },
)


class ChampionshipViewSet(
    CompetitionActions, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = ChampionshipSerializer
    event_serializer_class = RaceDetailSerializer
    kind_label = "championship"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> Any:
        queryset = Championship.objects.visible_to(self.request.user).select_related("club")
        if self.action in ("list", "retrieve", "partial_update", "create", "import_document"):
            queryset = queryset.prefetch_related(
                Prefetch("drivers", queryset=Driver.objects.order_by("order")),
                Prefetch("races", queryset=Race.objects.order_by("number").defer("results")),
            )
        return queryset.order_by("-created_at", "-id")

    def _detail(self, championship_id: int) -> dict[str, Any]:
        return ChampionshipSerializer(self.get_queryset().get(pk=championship_id)).data

    @extend_schema(request=ChampionshipCreateSerializer, responses={201: ChampionshipSerializer})
    def create(self, request: Request) -> Response:
        return self.create_response(request)

    @extend_schema(request=ChampionshipPatchSerializer, responses={200: ChampionshipSerializer})
    def partial_update(self, request: Request, pk: Any = None) -> Response:
        return self.patch_response(request, pk)

    @extend_schema(responses={200: RaceDetailSerializer})
    @action(detail=True, methods=["get"], url_path=f"races/{NUMBER}")
    def race(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        return self.event_detail(request, pk, number)

    @extend_schema(request=RaceResultsSchemaSerializer, responses={202: RaceDetailSerializer})
    @action(detail=True, methods=["post"], url_path=f"races/{NUMBER}/results")
    def results(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """Store a race's results (FD-78, checked by FD-79) and queue its resolution."""

        def submit(
            championship: Championship, n: int, rows: list[dict[str, Any]], version: int | None
        ) -> Race:
            return services.submit_race_results(
                championship=championship,
                number=n,
                rows=rows,
                by=request.user,
                expected_version=version,
            )

        return self.submit(request, pk, number, RaceResultsInputSerializer, submit)

    @extend_schema(request=None, responses={202: RaceDetailSerializer})
    @action(detail=True, methods=["post"], url_path=f"races/{NUMBER}/simulate")
    def simulate(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """Play the race with automatic drivers on a worker (basic rules, a shipped circuit)."""
        return self.simulate_response(request, pk, number)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"], url_path=f"races/{NUMBER}/replay")
    def replay(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """The simulator's per-move log; 404 when the race was not simulated."""
        return self.replay_response(request, pk, number)

    @extend_schema(
        parameters=[OpenApiParameter("after_race", int, required=False)],
        responses={200: StandingsSchema},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: Any = None) -> Any:
        """Driver and team standings after the latest (or ``after_race``) resolved race."""
        return self.standings_response(request, pk)

    @extend_schema(request=ImportSerializer, responses={201: ChampionshipSerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_document(self, request: Request) -> Response:
        """Recreate a championship from an exported document in a club the caller organises."""
        return self.import_response(request)


def register(router: Any) -> None:
    """Register this app's viewsets on the API router."""
    router.register("championships", ChampionshipViewSet, basename="championship")
