"""API pieces every competition shares: event detail, result submission, standings.

A game's viewset mixes :class:`CompetitionActions` in and declares thin ``@action``s (their URL
words differ: ``stages``, ``races``) that call these methods.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.competitions import audit, idempotency, services, simulation, transfer
from tournament.competitions.access import (
    ORGANISER_ROLES,
    WRITE_ROLES,
    require_organiser_of_slug,
    require_role,
)
from tournament.competitions.errors import Conflict, InvalidInput, VersionConflict
from tournament.competitions.kinds import GameKind, get_kind


def parse_int(value: Any) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Http404 from None
    if not 0 < number < 10_000:
        raise Http404
    return number


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    when = serializers.DateTimeField(source="created_at")
    user = serializers.CharField(source="user.username", default=None)
    action = serializers.CharField()
    event = serializers.IntegerField(source="event_number", allow_null=True)
    summary = serializers.CharField()
    changes = serializers.JSONField()


class ImportSerializer(serializers.Serializer):
    club = serializers.SlugField()
    document = serializers.JSONField()


class VisibleFirst:
    """API.md: a competition the caller may not see is a 404 to every method, even to a method
    the endpoint does not have (which would otherwise be a 405 that tells it exists)."""

    def http_method_not_allowed(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        if "pk" in kwargs:
            self.get_object()  # type: ignore[attr-defined]
        return super().http_method_not_allowed(request, *args, **kwargs)  # type: ignore[misc]


class CompetitionActions(VisibleFirst):
    """Mixed into a GenericViewSet whose ``get_object`` applies visibility (404 first)."""

    kind_label: str
    event_serializer_class: type[serializers.Serializer]

    @property
    def kind(self) -> GameKind:
        return get_kind(self.kind_label)

    def get_event(self, competition: Any, number: Any) -> Any:
        try:
            return self.kind.event_model.objects.get(
                competition=competition, number=parse_int(number)
            )
        except self.kind.event_model.DoesNotExist:
            raise Http404 from None

    def event_response(self, event: Any, code: int = status.HTTP_200_OK) -> Response:
        return Response(self.event_serializer_class(event).data, status=code)

    def event_detail(self, request: Request, pk: Any, number: Any) -> Response:
        competition = self.get_object()  # type: ignore[attr-defined]
        return self.event_response(self.get_event(competition, number))

    def submit(
        self, request: Request, pk: Any, number: Any, input_serializer: Any, submit: Any
    ) -> Response:
        """Validate the body, call ``submit(competition, number, rows, version)``, answer 202."""
        competition = self.get_object()  # type: ignore[attr-defined]
        self.get_event(competition, number)  # 404 before 401/403 for unknown events
        require_role(request.user, competition.club_id, WRITE_ROLES)
        body = input_serializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)

        def store() -> Response:
            try:
                event = submit(
                    competition,
                    parse_int(number),
                    body.validated_data["results"],
                    body.validated_data.get("version"),
                )
            except VersionConflict as exc:
                current = self.event_serializer_class(exc.event).data
                return Response(
                    {"detail": "version conflict", "current": current},
                    status=status.HTTP_409_CONFLICT,
                )
            return self.event_response(event, status.HTTP_202_ACCEPTED)

        return idempotency.idempotent(request, store)

    def simulate_response(self, request: Request, pk: Any, number: Any) -> Response:
        """Queue the engine for this event (202 with the event as it stands)."""
        competition = self.get_object()  # type: ignore[attr-defined]
        event = self.get_event(competition, number)
        require_role(request.user, competition.club_id, WRITE_ROLES)

        def queue() -> Response:
            simulation.request_simulation(
                kind=self.kind, competition=competition, event=event, by=request.user
            )
            return self.event_response(event, status.HTTP_202_ACCEPTED)

        return idempotency.idempotent(request, queue)

    def replay_response(self, request: Request, pk: Any, number: Any) -> Response:
        competition = self.get_object()  # type: ignore[attr-defined]
        replay = simulation.replay_of(kind=self.kind, event=self.get_event(competition, number))
        if replay is None:
            raise Http404
        return Response(replay)

    @extend_schema(responses={200: AuditEntrySerializer(many=True)})
    @action(detail=True, methods=["get"])
    def history(self, request: Request, pk: Any = None) -> Response:
        """Who changed what and when: set-up, results submitted, corrected, simulated."""
        return self.history_response(request, pk)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: Any = None) -> Response:
        """Set-up, rules and every result version as a versioned JSON document (organisers)."""
        return self.export_response(request, pk)

    def history_response(self, request: Request, pk: Any) -> Response:
        """The competition's audit log, newest first (organisers; paginated)."""
        competition = self.get_object()  # type: ignore[attr-defined]
        require_role(request.user, competition.club_id, ORGANISER_ROLES)
        entries = audit.history(kind=self.kind.label, competition_id=competition.pk)
        page = self.paginate_queryset(entries)  # type: ignore[attr-defined]
        data = AuditEntrySerializer(page, many=True).data
        return self.get_paginated_response(data)  # type: ignore[attr-defined,no-any-return]

    def create_response(self, request: Request) -> Response:
        """``POST /api/<competitions>/``: 401/403 before 400, then 201 with the detail."""
        body = self.kind.create_serializer()(data=request.data)
        if not body.is_valid():
            slug = request.data.get("club") if isinstance(request.data, dict) else None
            require_organiser_of_slug(request.user, slug)
            raise InvalidInput(body.errors)
        data = body.validated_data
        require_role(request.user, data["club"].pk, ORGANISER_ROLES)
        competition = self.kind.create(club=data["club"], data=data, by=request.user)
        return Response(self.detail_data(competition.pk), status=status.HTTP_201_CREATED)

    def patch_response(self, request: Request, pk: Any) -> Response:
        """``PATCH``: name and public any time; the set-up only before results (409 first)."""
        competition = self.get_object()  # type: ignore[attr-defined]
        require_role(request.user, competition.club_id, ORGANISER_ROLES)
        if services.setup_locked(kind=self.kind, competition=competition, data=request.data):
            raise Conflict(_("The set-up cannot change once results are stored."))
        body = self.kind.patch_serializer()(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        setup = self.kind.patched_setup(competition, body.validated_data)
        self.kind.update(
            competition_id=competition.pk,
            changes=body.validated_data,
            setup=setup,
            by=request.user,
        )
        return Response(self.detail_data(competition.pk))

    def detail_data(self, pk: int) -> Any:
        """The competition's detail as GET answers it (prefetched by ``get_queryset``)."""
        competition = self.get_queryset().get(pk=pk)  # type: ignore[attr-defined]
        return self.get_serializer(competition).data  # type: ignore[attr-defined]

    def export_response(self, request: Request, pk: Any) -> Response:
        """The whole competition as a versioned JSON document (organisers)."""
        competition = self.get_object()  # type: ignore[attr-defined]
        require_role(request.user, competition.club_id, ORGANISER_ROLES)
        return Response(transfer.export_competition(kind=self.kind, competition=competition))

    def import_response(self, request: Request) -> Response:
        """Recreate a competition from a document in a club the caller organises (201)."""
        from tournament.clubs.models import Club

        if not request.user.is_authenticated:
            require_role(request.user, 0, ORGANISER_ROLES)  # 401
        body = ImportSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        club = Club.objects.filter(slug=body.validated_data["club"]).first()
        if club is None:
            raise InvalidInput({"club": [_("No club with this slug.")]})
        require_role(request.user, club.pk, ORGANISER_ROLES)
        competition = transfer.import_competition(
            kind=self.kind, club=club, document=body.validated_data["document"], by=request.user
        )
        return Response(self.detail_data(competition.pk), status=status.HTTP_201_CREATED)

    def standings_response(self, request: Request, pk: Any) -> HttpResponse | Response:
        param = self.kind.after_param
        raw = request.query_params.get(param)
        after = None
        if raw not in (None, ""):
            try:
                after = int(raw)  # type: ignore[arg-type]
            except ValueError:
                raise InvalidInput({param: [_("A whole number is required.")]}) from None
            if not 0 < after < 10_000:
                raise InvalidInput({param: [_("Must be a stage number.")]})
        text = services.standings_text(
            kind=self.kind, competition_id=parse_int(pk), user=request.user, after=after
        )
        if text is not None:
            return HttpResponse(text, content_type="application/json")
        competition = self.get_object()  # type: ignore[attr-defined]
        data = services.standings(kind=self.kind, competition=competition, after=after)
        return Response(data)
