"""``/api/clubs/{slug}/webhooks/`` (API.md "Webhooks"): organisers of the club only.

Access is checked before anything else for every action (the club's organisers: 401 without
credentials, 403 without the role, 404 for an unknown club), so an outsider learns nothing of a
webhook's id. The secret is write-only: no answer shows it again.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import SimpleRouter
from rest_framework.views import APIView

from tournament.clubs.models import Club
from tournament.competitions.access import ORGANISE, ORGANISER_ROLES, DeclaredAccess, require_role
from tournament.competitions.errors import InvalidInput
from tournament.competitions.pagination import StrictPageNumberPagination
from tournament.webhooks import guard
from tournament.webhooks.models import EVENTS, Delivery, Format, Webhook


def _check_url(value: str) -> None:
    try:
        guard.check(value)
    except guard.Refused as exc:
        raise serializers.ValidationError(str(exc)) from None


class WebhookSerializer(serializers.ModelSerializer[Webhook]):
    url = serializers.URLField(max_length=500, validators=[_check_url])
    secret = serializers.CharField(max_length=200, write_only=True, trim_whitespace=False)
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=EVENTS), allow_empty=False, max_length=len(EVENTS)
    )
    format = serializers.ChoiceField(choices=Format.choices, default=Format.JSON)
    active = serializers.BooleanField(default=True)

    class Meta:
        model = Webhook
        fields = ["id", "url", "secret", "events", "format", "active"]

    def validate_events(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Each event may be named once."))
        return [e for e in EVENTS if e in value]


class DeliverySerializer(serializers.ModelSerializer[Delivery]):
    time = serializers.DateTimeField(source="updated_at", read_only=True)

    class Meta:
        model = Delivery
        fields = [
            "id",
            "event",
            "state",
            "status_code",
            "attempts",
            "last_error",
            "time",
            "created_at",
        ]


class OrganiserOfClub(BasePermission):
    """The club named in the URL exists and the caller organises it (superusers too)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        club = view.club  # type: ignore[attr-defined]
        require_role(request.user, club.pk, ORGANISER_ROLES)
        return True


@extend_schema_view(
    list=extend_schema(summary="List a club's webhooks", description="Organisers of the club."),
    create=extend_schema(
        summary="Add a webhook",
        description="Organisers. `events` ⊆ event.resolved, results.corrected, "
        "competition.finished; `format` json or discord. Only http(s) URLs of public addresses "
        "(unless PODIUM_WEBHOOKS_ALLOW_PRIVATE). The secret is never shown again.",
    ),
    destroy=extend_schema(summary="Remove a webhook", description="Organisers of the club."),
)
class WebhookViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = WebhookSerializer
    permission_classes = [DeclaredAccess, OrganiserOfClub]
    permission_for_action = {
        "list": ORGANISE,
        "create": ORGANISE,
        "destroy": ORGANISE,
        "deliveries": ORGANISE,
    }
    pagination_class = StrictPageNumberPagination
    lookup_value_regex = "[0-9]+"

    @property
    def club(self) -> Club:
        if not hasattr(self, "_club"):
            self._club = get_object_or_404(Club, slug=self.kwargs.get("slug"))
        return self._club

    def club_for_access(self, request: Request) -> Club:
        return self.club

    def get_queryset(self) -> QuerySet[Webhook]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator: no club in the URL
            return Webhook.objects.none()
        return Webhook.objects.filter(club=self.club).order_by("created_at", "id")

    def get_object(self) -> Webhook:
        try:
            pk = int(str(self.kwargs.get("pk", "")))
        except ValueError:
            raise Http404 from None
        return get_object_or_404(self.get_queryset(), pk=pk)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = WebhookSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        by = request.user if request.user.is_authenticated else None
        hook = body.save(club=self.club, created_by=by)
        return Response(WebhookSerializer(hook).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="A webhook's deliveries",
        description="Newest first, 50 per page: event, state, status code, attempts, last error.",
        responses={200: DeliverySerializer(many=True)},
    )
    @action(detail=True, methods=["get"])
    def deliveries(
        self, request: Request, slug: str | None = None, pk: str | None = None
    ) -> Response:
        hook = self.get_object()
        page = self.paginate_queryset(hook.deliveries.order_by("-created_at", "-id"))
        return self.get_paginated_response(DeliverySerializer(page, many=True).data)


def build_router() -> SimpleRouter:
    router = SimpleRouter(trailing_slash=True)
    router.register(r"clubs/(?P<slug>[-a-zA-Z0-9_]+)/webhooks", WebhookViewSet, basename="webhook")
    return router
