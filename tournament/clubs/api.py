"""Club endpoints (API.md "Clubs and roles") and the token endpoint."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from tournament.clubs.auth import CacheTolerantScopedRateThrottle
from tournament.clubs.models import Club, Membership, Role, role_in
from tournament.clubs.serializers import ClubDetailSerializer, ClubSerializer, NewMemberSerializer
from tournament.competitions import audit
from tournament.competitions.access import ORGANISER_ROLES, require_role
from tournament.competitions.errors import InvalidInput
from tournament.competitions.models import AuditAction


class ClubViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Club.objects.order_by("name")
    lookup_field = "slug"
    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = ClubSerializer

    def get_serializer_class(self) -> Any:
        if self.action == "retrieve":
            return ClubDetailSerializer
        return ClubSerializer

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
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

    def perform_create(self, serializer: serializers.BaseSerializer) -> None:
        # The creator becomes the club's first organiser (API.md).
        try:
            with transaction.atomic():
                club = serializer.save()
                Membership.objects.create(club=club, user=self.request.user, role=Role.ORGANISER)
                audit.record(
                    club_id=club.pk,
                    action=AuditAction.MEMBER_ADDED,
                    by=self.request.user,
                    summary=f"{self.request.user.username} founded the club as organiser",
                    changes={"username": self.request.user.username, "role": "organiser"},
                )
        except IntegrityError:
            raise InvalidInput({"slug": [_("A club with this slug already exists.")]}) from None

    @extend_schema(request=NewMemberSerializer, responses={201: ClubDetailSerializer})
    @action(detail=True, methods=["post"])
    def members(self, request: Request, slug: str | None = None) -> Response:
        club = self.get_object()
        require_role(request.user, club.pk, ORGANISER_ROLES)
        body = NewMemberSerializer(data=request.data, context={"club": club})
        if not body.is_valid():
            raise InvalidInput(body.errors)
        try:
            with transaction.atomic():
                member = Membership.objects.create(
                    club=club,
                    user=body.validated_data["username"],
                    role=body.validated_data["role"],
                )
                audit.record(
                    club_id=club.pk,
                    action=AuditAction.MEMBER_ADDED,
                    by=request.user,
                    summary=f"{member.user.username} added as {member.role}",
                    changes={"username": member.user.username, "role": member.role},
                )
        except IntegrityError:
            raise InvalidInput(
                {"username": [_("This user is already a member of the club.")]}
            ) from None
        club = Club.objects.prefetch_related("memberships__user").get(pk=club.pk)
        data = ClubDetailSerializer(club, context={"show_members": True}).data
        return Response(data, status=status.HTTP_201_CREATED)


class TokenView(ObtainAuthToken):
    """``POST /api/auth/token/`` → ``{"token": "…"}`` (throttled: guessing passwords is slow)."""

    throttle_classes = [CacheTolerantScopedRateThrottle]
    throttle_scope = "auth"
    # ObtainAuthToken names DRF's parsers itself: use the project's (a bounded JSON depth).
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
