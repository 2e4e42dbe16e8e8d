"""``GET /api/{tours|championships|leagues|rallies|rally-championships}/{id}/forecast/``.

One small viewset per collection, routed by :data:`router` (included from ``tournament/urls.py``
beside the competitions' router, so the shared viewset is untouched): visibility first (a
private competition is a 404 to anyone outside its club, whatever the method), then the
declared access (``READ``), then the ``after_*`` parameter (400 outside 0..the current event).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter

from tournament.competitions.access import READ
from tournament.competitions.api import VisibleFirst, query_int
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import AnyKind, all_kinds
from tournament.competitions.schema import MAX_EVENT
from tournament.forecasts.loaders import RALLY_CHAMPIONSHIP
from tournament.forecasts.models import ForecastStatus
from tournament.forecasts.reading import forecast_body, latest_after

STATUSES = ("clinched", "eliminated", "open")


class ForecastEntrySerializer(serializers.Serializer):
    """One entrant of one title (documentation of the answer)."""

    rider = serializers.IntegerField(required=False, help_text="Tours' rider titles.")
    team = serializers.JSONField(
        required=False, help_text="Tours: the team id; championships and leagues: its name."
    )
    driver = serializers.IntegerField(required=False, help_text="Championships, leagues, rallies.")
    name = serializers.CharField()
    probability = serializers.FloatField(min_value=0, max_value=1)
    status = serializers.ChoiceField(choices=STATUSES)
    reason = serializers.CharField(
        allow_null=True, help_text="Why it is clinched or eliminated, in the request's language."
    )
    needs_help = serializers.BooleanField(
        help_text="Open, but its own best results are not enough: a rival could still pass it."
    )
    scenario = serializers.JSONField(
        allow_null=True,
        help_text="For an open entrant who needs help: each remaining event's finishing order "
        "(and extras) that gives it the title.",
    )


class PositionsSerializer(serializers.Serializer):
    rider = serializers.IntegerField(required=False)
    driver = serializers.IntegerField(required=False)
    name = serializers.CharField()
    distribution = serializers.ListField(
        child=serializers.FloatField(), help_text="Probability of each final rank 1..n."
    )


def forecast_serializer(
    name: str, after_param: str, title_keys: str
) -> type[serializers.Serializer]:
    """The documented answer, with the kind's ``after_*`` key."""
    fields: dict[str, Any] = {
        "status": serializers.ChoiceField(
            choices=ForecastStatus.choices,
            help_text="`computing` while a newer standings version is forecast; the body then "
            "holds the previous forecast, or empty `titles` before the first.",
        ),
        after_param: serializers.IntegerField(
            allow_null=True, help_text="The standings it forecasts from (null: the start)."
        ),
        "simulations": serializers.IntegerField(),
        "seed": serializers.IntegerField(),
        "computed_at": serializers.DateTimeField(allow_null=True),
        "titles": serializers.DictField(
            child=ForecastEntrySerializer(many=True),
            help_text=f"Keys: {title_keys}. Highest probability first.",
        ),
        "positions": serializers.DictField(
            child=PositionsSerializer(many=True),
            help_text="The main classification's rank distribution.",
        ),
    }
    return type(name, (serializers.Serializer,), fields)


def after_query(name: str, event: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": 0, "maximum": MAX_EVENT},
        required=False,
        description=f"The forecast as it stood after this {event} (0: before the first; up to "
        f"the latest {event} of the standings; other numbers are a 400). Leave it out for the "
        "latest.",
        examples=[OpenApiExample(f"After {event} 2", value=2)],
    )


class ForecastViewSet(VisibleFirst):
    """The forecast of one collection's competitions (``kind_label`` says which)."""

    kind_label: ClassVar[str]
    after_param: ClassVar[str]
    http_method_names = ["get", "head", "options"]
    permission_for_action: ClassVar[dict[str, str]] = {"forecast": READ}

    def model_queryset(self) -> QuerySet[Any]:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[Any]:
        queryset: Any = self.model_queryset()
        return queryset.visible_to(self.request.user)

    def answer(self, request: Request) -> Response:
        competition = self.get_object()  # visibility first: 404 before any 400
        after = query_int(request, self.after_param)
        latest = latest_after(self.kind_label, competition)
        if after is not None and not 0 <= after <= latest:
            raise InvalidInput(
                {self.after_param: [_("Must be between 0 and %(n)s.") % {"n": latest}]}
            )
        return Response(forecast_body(self.kind_label, competition, self.after_param, after))


KIND_TITLES = {
    "tour": "`yellow`, `green`, `polka_dot`, `team`, `tour_points`",
    "championship": "`drivers`, `teams` (with teams)",
    "league": "`drivers`, `teams` (with teams)",
    "rally": "`overall`",
    RALLY_CHAMPIONSHIP: "`drivers` (entries by `name`)",
}


def _viewset(
    label: str, after_param: str, event: str, queryset: Any, title: str
) -> type[ForecastViewSet]:
    def forecast(self: ForecastViewSet, request: Request, pk: Any = None) -> Response:
        return self.answer(request)

    forecast.__name__ = "forecast"
    documented = extend_schema(
        summary=f"{title} forecast",
        description="Who can still win each title (exact: `clinched`, `eliminated`, `open`, "
        "with the reason) and the odds (Monte Carlo over the remaining events from the "
        "entrants' results so far), computed after each change of the standings and stored. "
        "Anyone who may read the competition.",
        parameters=[after_query(after_param, event)],
        responses={
            200: forecast_serializer(
                f"{title.replace(' ', '')}Forecast", after_param, KIND_TITLES.get(label, "")
            )
        },
    )(action(detail=True, methods=["get"])(forecast))
    attrs = {
        "__module__": __name__,
        "kind_label": label,
        "after_param": after_param,
        "model_queryset": lambda self: queryset().select_related("club"),
        "forecast": documented,
    }
    return type(f"{title.replace(' ', '')}ForecastViewSet", (ForecastViewSet,), attrs)


def _kind_viewset(kind: AnyKind) -> type[ForecastViewSet]:
    model = kind.competition_model
    return _viewset(
        kind.label,
        kind.after_param,
        kind.event_word.removesuffix("s"),
        lambda: model.objects.all(),
        kind.title,
    )


def _rally_championships() -> Any:
    from tournament.rallies.models import RallyChampionship

    return RallyChampionship.objects.all()


def build_router() -> SimpleRouter:
    router = SimpleRouter(trailing_slash=True)
    for kind in all_kinds():
        router.register(kind.collection, _kind_viewset(kind), basename=f"{kind.label}-forecast")
    router.register(
        "rally-championships",
        _viewset(
            RALLY_CHAMPIONSHIP, "after_rally", "rally", _rally_championships, "Rally championship"
        ),
        basename="rally-championship-forecast",
    )
    return router
