"""Rally and rally-championship endpoints (API.md "Rallies", "Rally championships").

The rally viewset mixes in the shared :class:`CompetitionActions` (stage detail, results,
simulate, replay, history, standings); only the set-up and the championships are this app's own.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.competitions.access import (
    ORGANISER_ROLES,
    require_organiser_of_slug,
    require_role,
)
from tournament.competitions.api import (
    CompetitionActions,
    ImportSerializer,
    VisibleFirst,
)
from tournament.competitions.errors import InvalidInput
from tournament.rallies import services
from tournament.rallies.models import (
    ChampionshipRally,
    Driver,
    Rally,
    RallyChampionship,
    RallyStage,
)
from tournament.rallies.serializers import (
    RallyChampionshipAddRallySerializer,
    RallyChampionshipCreateSerializer,
    RallyChampionshipSerializer,
    RallyCreateSerializer,
    RallyPatchSerializer,
    RallySerializer,
    RallyStageDetailSerializer,
    RallyStageResultsInputSerializer,
)
from tournament.rallies.setup import RallySetupSerializer

NUMBER = r"(?P<number>[0-9]+)"
RallyStandingsSchema = inline_serializer(
    "RallyStandings",
    {
        "after_stage": serializers.IntegerField(allow_null=True),
        "overall": serializers.ListField(child=serializers.DictField()),
        "stages": serializers.ListField(child=serializers.DictField()),
    },
)
ChampionshipStandingsSchema = inline_serializer(
    "RallyChampionshipStandings",
    {
        "after_rally": serializers.IntegerField(allow_null=True),
        "drivers": serializers.ListField(child=serializers.DictField()),
    },
)


def _club_slug(request: Request) -> Any:
    return request.data.get("club") if isinstance(request.data, dict) else None


class RallyViewSet(
    CompetitionActions, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = RallySerializer
    event_serializer_class = RallyStageDetailSerializer
    kind_label = "rally"
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> Any:
        queryset = Rally.objects.visible_to(self.request.user).select_related("club")
        if self.action in ("list", "retrieve", "partial_update", "create", "import_document"):
            queryset = queryset.prefetch_related(
                Prefetch("stages", queryset=RallyStage.objects.order_by("number").defer("results")),
                Prefetch("drivers", queryset=Driver.objects.order_by("order")),
            )
        return queryset.order_by("-created_at", "-id")

    @extend_schema(request=RallyCreateSerializer, responses={201: RallySerializer})
    def create(self, request: Request) -> Response:
        return self.create_response(request)

    @extend_schema(request=RallyPatchSerializer, responses={200: RallySerializer})
    def partial_update(self, request: Request, pk: Any = None) -> Response:
        return self.patch_response(request, pk)

    @extend_schema(responses={200: RallyStageDetailSerializer})
    @action(detail=True, methods=["get"], url_path=f"stages/{NUMBER}")
    def stage(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        return self.event_detail(request, pk, number)

    @extend_schema(
        request=RallyStageResultsInputSerializer, responses={202: RallyStageDetailSerializer}
    )
    @action(detail=True, methods=["post"], url_path=f"stages/{NUMBER}/results")
    def results(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """A stage sheet (RM-52): a time, a turn log or both per finished driver."""

        def submit(rally: Rally, n: int, rows: list[dict[str, Any]], version: int | None) -> Any:
            return services.submit_stage_results(
                rally=rally, number=n, rows=rows, by=request.user, expected_version=version
            )

        return self.submit(request, pk, number, RallyStageResultsInputSerializer, submit)

    @extend_schema(request=None, responses={202: RallyStageDetailSerializer})
    @action(detail=True, methods=["post"], url_path=f"stages/{NUMBER}/simulate")
    def simulate(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """Play the stage with automatic drivers on a worker (needs the stage's layout)."""
        return self.simulate_response(request, pk, number)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"], url_path=f"stages/{NUMBER}/replay")
    def replay(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """The simulator's per-turn log; 404 when the stage was not simulated."""
        return self.replay_response(request, pk, number)

    @extend_schema(
        parameters=[OpenApiParameter("after_stage", int, required=False)],
        responses={200: RallyStandingsSchema},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: Any = None) -> Any:
        return self.standings_response(request, pk)

    @extend_schema(request=ImportSerializer, responses={201: RallySerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_document(self, request: Request) -> Response:
        """Recreate a rally from an exported document in a club the caller organises."""
        return self.import_response(request)


def _patched_setup(rally: Rally, data: dict[str, Any]) -> dict[str, Any] | None:
    """The full new set-up when a PATCH touches it (unchanged parts taken from the rally)."""
    if not any(key in data for key in ("drivers", "stages", "rules")):
        return None
    current = RallySerializer(rally).data
    merged = {
        "drivers": data.get("drivers", [{"name": d["name"]} for d in current["drivers"]]),
        "stages": data.get(
            "stages", [{"name": s["name"], "layout": s["layout"]} for s in current["stages"]]
        ),
        # PATCHed rules change the keys sent; the others keep their current values.
        "rules": {**rally.rules, **data.get("rules", {})},
    }
    serializer = RallySetupSerializer(data=merged)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class RallyChampionshipViewSet(
    VisibleFirst, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    serializer_class = RallyChampionshipSerializer
    http_method_names = ["get", "post", "head", "options"]

    def get_queryset(self) -> Any:
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

    @extend_schema(
        request=RallyChampionshipCreateSerializer, responses={201: RallyChampionshipSerializer}
    )
    def create(self, request: Request) -> Response:
        body = RallyChampionshipCreateSerializer(data=request.data)
        if not body.is_valid():
            require_organiser_of_slug(request.user, _club_slug(request))
            raise InvalidInput(body.errors)
        data = body.validated_data
        require_role(request.user, data["club"].pk, ORGANISER_ROLES)
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
        request=RallyChampionshipAddRallySerializer, responses={201: RallyChampionshipSerializer}
    )
    @action(detail=True, methods=["post"], url_path="rallies")
    def add_rally(self, request: Request, pk: Any = None) -> Response:
        """Add a rally of the championship's club at the end of its order."""
        championship = self.get_object()
        require_role(request.user, championship.club_id, ORGANISER_ROLES)
        body = RallyChampionshipAddRallySerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        services.add_rally(
            championship_id=championship.pk, rally_id=body.validated_data["rally"], by=request.user
        )
        return self._detail(championship.pk, status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[OpenApiParameter("after_rally", int, required=False)],
        responses={200: ChampionshipStandingsSchema},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: Any = None) -> Response:
        """RM-47 to RM-51 over the longest run of complete rallies from the first."""
        championship = self.get_object()  # visibility first: 404 before any 400
        raw = request.query_params.get("after_rally")
        after = None
        if raw not in (None, ""):
            try:
                after = int(raw)  # type: ignore[arg-type]
            except ValueError:
                raise InvalidInput({"after_rally": [_("A whole number is required.")]}) from None
        return Response(
            services.rally_championship_standings(championship=championship, after=after)
        )


def register(router: Any) -> None:
    """Register this app's viewsets on the API router."""
    router.register("rallies", RallyViewSet, basename="rally")
    router.register("rally-championships", RallyChampionshipViewSet, basename="rally-championship")
