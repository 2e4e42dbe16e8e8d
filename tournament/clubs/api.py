"""Club endpoints (API.md "Clubs and roles") and the token endpoint."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from tournament.clubs import services
from tournament.clubs.auth import CacheTolerantScopedRateThrottle
from tournament.clubs.models import Club, role_in
from tournament.clubs.serializers import ClubDetailSerializer, ClubSerializer, NewMemberSerializer
from tournament.competitions.access import ORGANISE, READ, SIGNED_IN, DeclaredAccess
from tournament.competitions.errors import InvalidInput


@extend_schema_view(
    list=extend_schema(
        summary="List clubs",
        description="Every club, by name, 50 per page (clubs are public; their members are not).",
    ),
    create=extend_schema(
        summary="Found a club",
        description="Found a club (anyone signed in); you become its first organiser. The slug "
        "names the club in URLs and in create requests.",
    ),
    retrieve=extend_schema(
        summary="Get a club",
        description="The club; its members and their roles are listed only to its members.",
    ),
    members=extend_schema(
        summary="Add a member",
        description="Give a user a role in the club (organisers): `organiser` (sets up "
        "competitions, adds members) or `scorekeeper` (submits results and simulates). Members "
        "see the club's private competitions.",
    ),
)
class ClubViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Club.objects.order_by("name")
    lookup_field = "slug"
    permission_classes = [DeclaredAccess]
    permission_for_action = {
        "list": READ,
        "retrieve": READ,
        "create": SIGNED_IN,  # anyone signed in may found a club
        "members": ORGANISE,
    }
    serializer_class = ClubSerializer

    def get_serializer_class(self) -> Any:
        if self.action == "retrieve":
            return ClubDetailSerializer
        return ClubSerializer

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if self.action == "retrieve" and "slug" in self.kwargs:
            club = (
                Club.objects.filter(slug=self.kwargs["slug"]).values_list("pk", flat=True).first()
            )
            context["show_members"] = (
                club is not None and role_in(club, self.request.user) is not None
            )
        return context

    def get_object(self) -> Club:
        club: Club = super().get_object()
        if self.action == "retrieve":
            club = Club.objects.prefetch_related("memberships__user").get(pk=club.pk)
        return club

    def perform_create(self, serializer: serializers.BaseSerializer[Club]) -> None:
        serializer.instance = services.found_club(
            name=serializer.validated_data["name"],
            slug=serializer.validated_data["slug"],
            by=self.request.user,  # type: ignore[arg-type]
        )

    @extend_schema(request=NewMemberSerializer, responses={201: ClubDetailSerializer})
    @action(detail=True, methods=["post"])
    def members(self, request: Request, slug: str | None = None) -> Response:
        club = self.get_object()  # 404, then 401/403: organisers only
        body = NewMemberSerializer(data=request.data, context={"club": club})
        if not body.is_valid():
            raise InvalidInput(body.errors)
        services.add_member(
            club=club,
            user=body.validated_data["username"],
            role=body.validated_data["role"],
            by=request.user,  # type: ignore[arg-type]
        )
        club = Club.objects.prefetch_related("memberships__user").get(pk=club.pk)
        data = ClubDetailSerializer(club, context={"show_members": True}).data
        return Response(data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    post=extend_schema(
        summary="Get a token",
        description="Exchange a username and password for the token to send as "
        "`Authorization: Token <token>`. Attempts are limited: too many failures are a 429 for "
        "a while.",
    )
)
class TokenView(ObtainAuthToken):
    """``POST /api/auth/token/`` → ``{"token": "…"}`` (throttled: guessing passwords is slow)."""

    throttle_classes = [CacheTolerantScopedRateThrottle]
    throttle_scope = "auth"
    permission_classes = [AllowAny]  # signing in is how one gets credentials
    # ObtainAuthToken names DRF's parsers itself: use the project's (a bounded JSON depth).
    # The setting is imported: classes at run time, strings to the stubs.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]
