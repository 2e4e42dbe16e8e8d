"""``GET /api/<collection>/{id}/events/``: a competition's live updates (API.md, "Live updates").

One small viewset per collection (tours, championships, leagues, rallies, rally championships),
with the competition's visibility (a private one is a 404 to those who may not read it) and its
access declared like every other API view (``permission_for_action``). Content negotiation picks
the answer: ``text/event-stream`` (what EventSource sends, and the default) is the stream of
``tournament.live.stream``; ``application/json`` is the current state once, ``{"after_stage":
4, "version": 17}``, which pages poll when their stream fails.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.core.handlers.asgi import ASGIRequest
from django.db.models import QuerySet
from django.http import HttpResponseBase
from django.urls import URLPattern, path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.digits import parse_digits
from tournament.competitions.access import READ, get_competition_for_user
from tournament.competitions.api import VisibleFirst, parse_id
from tournament.competitions.kinds import all_kinds, get_kind
from tournament.live import stream
from tournament.live.state import RALLY_CHAMPIONSHIP, Target

#: The highest version a client may name (``since``, ``Last-Event-ID``).
MAX_VERSION = 2**31 - 1


class EventStreamRenderer(BaseRenderer):
    """Lets content negotiation choose the stream; errors are still answered in JSON."""

    media_type = stream.CONTENT_TYPE
    format = "event-stream"
    charset = None

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> bytes:
        return JSONRenderer().render(data)  # only errors come here (finalize_response)


class LiveStateSerializer(serializers.Serializer[Any]):
    """For the schema: the JSON answer (``after_race`` or ``after_rally`` by kind)."""

    after_stage = serializers.IntegerField(allow_null=True, required=False)
    after_race = serializers.IntegerField(allow_null=True, required=False)
    after_rally = serializers.IntegerField(allow_null=True, required=False)
    version = serializers.IntegerField(min_value=0)


STREAM_TEXT = (
    'Server-Sent Events: `standings` (data `{"{after}": 4, "version": 17}`, also the '
    "event's `id`) within 2 seconds of each resolution, failure or correction of one of its "
    "events; `forecast` when a forecast is ready; a comment line at least every 30 seconds. "
    "A client that sends `Last-Event-ID` or `since` older than the current version gets "
    "`standings` at once. With `Accept: application/json` the answer is the current state, once."
)


def _since(request: Request) -> int | None:
    """The version the client has: ``Last-Event-ID`` (a reconnection) or ``?since=``."""
    header = request.headers.get("Last-Event-ID", "").strip()
    if header:
        try:
            value = parse_digits(header)
        except ValueError:
            value = -1  # not one of ours: ignored, as a fresh connection
        if 0 <= value <= MAX_VERSION:
            return value
    raw = request.query_params.get("since")
    if raw is None:
        return None
    try:
        value = parse_digits(raw)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_VERSION:
        raise ValidationError({"since": [f"A whole number from 0 to {MAX_VERSION}."]})
    return value


class LiveEventsViewSet(VisibleFirst):
    """The stream of one collection's competitions (``target_kind`` set per collection)."""

    target_kind: ClassVar[str]
    model: ClassVar[Any]
    http_method_names = ["get", "head", "options"]
    renderer_classes = [EventStreamRenderer, JSONRenderer]
    permission_for_action: ClassVar[dict[str, str]] = {"stream": READ}

    def get_queryset(self) -> QuerySet[Any]:
        return self.model.objects.visible_to(self.request.user)

    def get_object(self) -> Any:
        competition = get_competition_for_user(
            self.get_queryset(), parse_id(self.kwargs["pk"]), self.request.user
        )
        self.check_object_permissions(self.request, competition)
        return competition

    # DRF's stubs say Response; the stream is a StreamingHttpResponse, which DRF passes through.
    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        answer = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(answer, Response) and isinstance(
            answer.accepted_renderer, EventStreamRenderer
        ):
            # An error (404, 400) of a stream request: JSON, as every API error.
            answer.accepted_renderer = JSONRenderer()
            answer.accepted_media_type = "application/json"
        return answer

    def stream(self, request: Request, pk: Any = None) -> HttpResponseBase:
        competition = self.get_object()
        since = _since(request)
        target = Target(self.target_kind, competition.pk)
        if isinstance(request.accepted_renderer, JSONRenderer):
            return Response(target.state().as_json())
        return stream.response(target, since, asgi=isinstance(request._request, ASGIRequest))


def _schema(after: str) -> Any:
    return extend_schema(
        summary="Live updates",
        description=STREAM_TEXT.replace("{after}", after),
        parameters=[
            OpenApiParameter(
                "since",
                {"type": "integer", "minimum": 0, "maximum": MAX_VERSION},
                OpenApiParameter.QUERY,
                required=False,
                description="The standings version the client shows (`version`).",
            )
        ],
        responses={
            (200, stream.CONTENT_TYPE): OpenApiResponse(
                OpenApiTypes.STR, description="The event stream (it does not end)."
            ),
            (200, "application/json"): OpenApiResponse(
                LiveStateSerializer, description="The current state (Accept: application/json)."
            ),
        },
    )


def viewset_for(kind: str, model: Any, after: str) -> type[LiveEventsViewSet]:
    """The viewset of one collection, its ``stream`` documented in the kind's words."""

    def stream(self: LiveEventsViewSet, request: Request, pk: Any = None) -> HttpResponseBase:
        return LiveEventsViewSet.stream(self, request, pk)

    name = "".join(part.title() for part in kind.split("-")) + "LiveEventsViewSet"
    attrs = {
        "target_kind": kind,
        "model": model,
        "__module__": __name__,
        "stream": _schema(after)(stream),
    }
    return type(name, (LiveEventsViewSet,), attrs)


def urlpatterns() -> list[URLPattern]:
    """``api/<collection>/<pk>/events/`` for every registered kind and rally championships."""
    from tournament.rallies.models import RallyChampionship

    targets = [
        (kind.label, kind.collection, kind.competition_model, kind.after_param)
        for kind in all_kinds()
    ]
    targets.append((RALLY_CHAMPIONSHIP, "rally-championships", RallyChampionship, "after_rally"))
    return [
        path(
            f"api/{collection}/<str:pk>/events/",
            viewset_for(label, model, after).as_view({"get": "stream"}),
            name=f"{label}-events",
        )
        for label, collection, model, after in targets
    ]


__all__ = ["LiveEventsViewSet", "get_kind", "urlpatterns"]
