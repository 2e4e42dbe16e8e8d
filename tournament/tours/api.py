"""Tour endpoints (API.md "Tours"): create, list, detail, PATCH, stages, results, standings."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.competitions.api import (
    CompetitionActions,
    ImportSerializer,
)
from tournament.tours import services
from tournament.tours.models import Rider, Stage, Team, Tour
from tournament.tours.serializers import (
    StageDetailSerializer,
    StageResultsInputSerializer,
    TourCreateSerializer,
    TourPatchSerializer,
    TourSerializer,
)

NUMBER = r"(?P<number>[0-9]+)"
StandingsSchema = inline_serializer(
    "TourStandings",
    {
        "after_stage": serializers.IntegerField(allow_null=True),
        "general": serializers.ListField(child=serializers.DictField()),
        "sprint": serializers.ListField(child=serializers.DictField()),
        "mountain": serializers.ListField(child=serializers.DictField()),
        "team": serializers.ListField(child=serializers.DictField()),
        "jerseys": serializers.DictField(),
        "tour_points": serializers.ListField(child=serializers.DictField()),
        "exhaustion": serializers.ListField(child=serializers.DictField()),
        "next_start_order": serializers.ListField(
            child=serializers.IntegerField(), allow_null=True
        ),
    },
)


class TourViewSet(
    CompetitionActions, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = TourSerializer
    event_serializer_class = StageDetailSerializer
    kind_label = "tour"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> Any:
        queryset = Tour.objects.visible_to(self.request.user).select_related("club")
        if self.action in ("list", "retrieve", "partial_update", "create", "import_document"):
            queryset = queryset.prefetch_related(
                Prefetch("stages", queryset=Stage.objects.order_by("number").defer("results")),
                Prefetch(
                    "teams",
                    queryset=Team.objects.order_by("order").prefetch_related(
                        Prefetch("riders", queryset=Rider.objects.order_by("team", "role"))
                    ),
                ),
            )
        return queryset.order_by("-created_at", "-id")

    @extend_schema(request=TourCreateSerializer, responses={201: TourSerializer})
    def create(self, request: Request) -> Response:
        return self.create_response(request)

    @extend_schema(request=TourPatchSerializer, responses={200: TourSerializer})
    def partial_update(self, request: Request, pk: Any = None) -> Response:
        return self.patch_response(request, pk)

    @extend_schema(responses={200: StageDetailSerializer})
    @action(detail=True, methods=["get"], url_path=f"stages/{NUMBER}")
    def stage(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        return self.event_detail(request, pk, number)

    @extend_schema(request=StageResultsInputSerializer, responses={202: StageDetailSerializer})
    @action(detail=True, methods=["post"], url_path=f"stages/{NUMBER}/results")
    def results(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        def submit(tour: Tour, n: int, rows: list[dict[str, Any]], version: int | None) -> Stage:
            return services.submit_stage_results(
                tour=tour, number=n, rows=rows, by=request.user, expected_version=version
            )

        return self.submit(request, pk, number, StageResultsInputSerializer, submit)

    @extend_schema(
        parameters=[OpenApiParameter("after_stage", int, required=False)],
        responses={200: StandingsSchema},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: Any = None) -> Response:
        return self.standings_response(request, pk)

    @extend_schema(request=None, responses={202: StageDetailSerializer})
    @action(detail=True, methods=["post"], url_path=f"stages/{NUMBER}/simulate")
    def simulate(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """Play the stage with automatic riders on a worker (needs the stage's course)."""
        return self.simulate_response(request, pk, number)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"], url_path=f"stages/{NUMBER}/replay")
    def replay(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """The simulator's per-round log (FR-73); 404 when the stage was not simulated."""
        return self.replay_response(request, pk, number)

    @extend_schema(request=ImportSerializer, responses={201: TourSerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_document(self, request: Request) -> Response:
        """Recreate a tour from an exported document in a club the caller organises."""
        return self.import_response(request)
