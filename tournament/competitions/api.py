"""The API of every competition: one viewset, specialised per game by its declared kind.

:class:`CompetitionViewSet` holds every shared action (list, create, detail, PATCH, event
detail, results, simulate, replay, standings, history, export, import). A game writes no viewset:
:func:`competition_viewset` derives one from the game's :class:`~tournament.competitions.kinds.
GameKind` (its serializers, its event word in the URLs, its schema), and :func:`register_kinds`
routes every registered kind, so ``urls.py`` names no game.

Access is declared per action in ``permission_for_action`` and checked by
:class:`~tournament.competitions.access.DeclaredAccess`; the handlers never check roles.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ClassVar, Literal

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import APIRootView, DefaultRouter

from scoring.digits import parse_digits
from tournament.clubs.models import Club
from tournament.competitions import audit, idempotency, services, simulation, tie_break, transfer
from tournament.competitions.access import (
    ORGANISE,
    READ,
    WRITE_RESULTS,
    DeclaredAccess,
    club_named_in_body,
)
from tournament.competitions.errors import Conflict, InvalidInput, VersionConflict
from tournament.competitions.kinds import AnyKind, all_kinds
from tournament.competitions.models import Competition, Event
from tournament.competitions.schema import JSONObjectField, after_parameter
from tournament.competitions.serializers import EventDateSerializer
from tournament.fields import SlugField

NUMBER = r"(?P<number>[0-9]+)"


def parse_id(value: Any) -> int:
    """An object id from the URL, in the digits 0-9 only (``int()`` also reads "٣"); else 404."""
    try:
        number = value if isinstance(value, int) else parse_digits(str(value))
    except ValueError:
        raise Http404 from None
    if not 0 < number < 2**63:
        raise Http404
    return number


def parse_int(value: Any) -> int:
    """An event number from the URL (1 to 9999); else 404."""
    number = parse_id(value)
    if not number < 10_000:
        raise Http404
    return number


def query_int(request: Request, name: str) -> int | None:
    """The whole number in query parameter ``name`` (None when absent); else a 400 (empty too:
    the schema documents an integer)."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        return parse_digits(str(raw), signed=True)
    except ValueError:
        raise InvalidInput({name: [_("A whole number is required.")]}) from None


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    when = serializers.DateTimeField(source="created_at")
    user = serializers.CharField(source="user.username", default=None)
    action = serializers.CharField()
    event = serializers.IntegerField(source="event_number", allow_null=True)
    summary = serializers.CharField()
    changes = serializers.JSONField()


class ImportSerializer(serializers.Serializer):
    club = SlugField(help_text="The slug of a club you organise.")
    document = JSONObjectField(help_text="A document as `GET …/export/` answers it.")


class VisibleFirst(viewsets.GenericViewSet):
    """API.md: a competition the caller may not see is a 404 to every method, even to a method
    the endpoint does not have (which would otherwise be a 405 that tells it exists)."""

    permission_classes = [DeclaredAccess]

    # DRF calls it with its Request (its own stub overrides Django's signature the same way).
    def http_method_not_allowed(  # type: ignore[override]
        self, request: Request, *args: Any, **kwargs: Any
    ) -> Response:
        if "pk" in kwargs:
            self.get_object()
        return super().http_method_not_allowed(request, *args, **kwargs)


class CompetitionViewSet(VisibleFirst, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    """Every competition's endpoints; ``kind`` (set by :func:`competition_viewset`) says which."""

    kind: ClassVar[AnyKind]
    http_method_names = ["get", "post", "patch", "head", "options"]
    permission_for_action: ClassVar[dict[str, str]] = {
        "list": READ,
        "retrieve": READ,
        "create": ORGANISE,
        "partial_update": ORGANISE,
        "event": READ,
        "event_date": ORGANISE,  # PATCH {"date"} on the event (API.md, "Dates")
        "results": WRITE_RESULTS,
        "simulate": WRITE_RESULTS,
        "replay": READ,
        "standings": READ,
        "history": ORGANISE,
        "export": ORGANISE,
        "import_document": ORGANISE,
    }
    #: Actions answering with the competition's detail: they prefetch what its serializer reads.
    detail_actions: ClassVar[tuple[str, ...]] = (
        "list",
        "retrieve",
        "partial_update",
        "create",
        "import_document",
    )
    #: The event of an event action (``…/<event_word>/{number}/…``), set by ``get_object``.
    current_event: Event

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return self.kind.detail_serializer

    def get_queryset(self) -> QuerySet[Any]:
        queryset = (
            self.kind.competition_model.objects.visible_to(self.request.user)
            .select_related("club")
            .order_by("-created_at", "-id")
        )
        if self.action in self.detail_actions:
            queryset = queryset.prefetch_related(*self.kind.detail_prefetch)
        return queryset

    def get_object(self) -> Any:
        """The visible competition (404), its event for event actions (404), then the access
        the action declares (401/403): an unknown event is a 404 even to outsiders."""
        competition = get_object_or_404(self.get_queryset(), pk=parse_id(self.kwargs["pk"]))
        if "number" in self.kwargs and self.action is not None:
            self.current_event = self.get_event(competition, self.kwargs["number"])
        self.check_object_permissions(self.request, competition)
        return competition

    def get_event(self, competition: Competition, number: Any) -> Event:
        try:
            event: Event = self.kind.event_model.objects.get(
                competition=competition, number=parse_int(number)
            )
        except self.kind.event_model.DoesNotExist:
            raise Http404 from None
        return event

    def event_response(self, event: Event, code: int = status.HTTP_200_OK) -> Response:
        return Response(self.kind.event_serializer(event).data, status=code)

    def detail_data(self, pk: int) -> Any:
        """The competition's detail as GET answers it (prefetched by ``get_queryset``)."""
        return self.get_serializer(self.get_queryset().get(pk=pk)).data

    def club_for_access(self, request: Request) -> Club | None:
        """The club a collection-level write (create, import) writes to (``DeclaredAccess``)."""
        if self.action == "import_document":
            return self.import_target(request)[0]
        return club_named_in_body(request)

    def import_target(self, request: Request) -> tuple[Club, Any]:
        """The import's club and document: 401, then the body's 400s (checked once)."""
        cached: tuple[Club, Any] | None = getattr(self, "_import_target", None)
        if cached is not None:
            return cached
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        body = ImportSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        club = Club.objects.filter(slug=body.validated_data["club"]).first()
        if club is None:
            raise InvalidInput({"club": [_("No club with this slug.")]})
        self._import_target = (club, body.validated_data["document"])
        return self._import_target

    # --- the actions (the event ones are routed per kind by ``competition_viewset``) -----------

    def create(self, request: Request) -> Response:
        """``POST /api/<collection>/``: 401/403 (``DeclaredAccess``) before 400, then 201."""
        body = self.kind.create_serializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        competition = services.create_from_request(
            kind=self.kind, data=body.validated_data, by=request.user
        )
        return Response(self.detail_data(competition.pk), status=status.HTTP_201_CREATED)

    def partial_update(self, request: Request, pk: Any = None) -> Response:
        """``PATCH``: name and public any time; the set-up only before results (409 first)."""
        competition = self.get_object()
        if services.setup_locked(kind=self.kind, competition=competition, data=request.data):
            raise Conflict(_("The set-up cannot change once results are stored."))
        body = self.kind.patch_serializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        services.update_competition(
            kind=self.kind,
            competition_id=competition.pk,
            changes=body.validated_data,
            setup=self.kind.patched_setup(competition, body.validated_data),
            by=request.user,
        )
        return Response(self.detail_data(competition.pk))

    def event_detail(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """The event with its current results."""
        self.get_object()
        return self.event_response(self.current_event)

    def event_date(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """``PATCH`` ``{"date": ...}``: when the event is played; any time (not set-up)."""
        competition = self.get_object()
        body = EventDateSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        event = services.set_event_date(
            kind=self.kind,
            competition_id=competition.pk,
            number=self.current_event.number,
            date=body.validated_data["date"],
            by=request.user,
        )
        return self.event_response(event)

    def submit(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """Store a new version of the event's results and queue its resolution (202)."""
        competition = self.get_object()
        body = self.kind.results_serializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)

        def store() -> Response:
            try:
                event = services.submit_results(
                    kind=self.kind,
                    competition_id=competition.pk,
                    number=self.current_event.number,
                    rows=body.validated_data["results"],
                    by=request.user,
                    expected_version=body.validated_data.get("version"),
                )
            except VersionConflict as exc:
                current = self.kind.event_serializer(exc.event).data
                return Response(
                    {"detail": "version conflict", "current": current},
                    status=status.HTTP_409_CONFLICT,
                )
            return self.event_response(event, status.HTTP_202_ACCEPTED)

        return idempotency.idempotent(request, store)

    def start_simulation(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """Queue the engine for this event on a worker (202 with the event as it stands)."""
        competition = self.get_object()

        def queue() -> Response:
            simulation.request_simulation(
                kind=self.kind, competition=competition, event=self.current_event, by=request.user
            )
            return self.event_response(self.current_event, status.HTTP_202_ACCEPTED)

        return idempotency.idempotent(request, queue)

    def event_replay(self, request: Request, pk: Any = None, number: Any = None) -> Response:
        """The simulator's log of the event; 404 when its results were not simulated."""
        self.get_object()
        replay = simulation.replay_of(kind=self.kind, event=self.current_event)
        if replay is None:
            raise Http404
        return Response(replay)

    def standings_response(self, request: Request, pk: Any = None) -> HttpResponse | Response:
        """The standings after the latest (or the ``after_*``) event of the resolved run."""
        param = self.kind.after_param
        after = query_int(request, param)
        if after is not None and not 0 < after < 10_000:
            raise InvalidInput({param: [_("Must be a stage number.")]})
        text = services.standings_text(
            kind=self.kind, competition_id=parse_id(pk), user=request.user, after=after
        )
        if text is not None:
            # issue #17: rows' tie_break sentences in the reader's language.
            return HttpResponse(tie_break.localize_text(text), content_type="application/json")
        competition = self.get_object()
        document = services.standings(kind=self.kind, competition=competition, after=after)
        return Response(tie_break.localize(document))

    def import_document(self, request: Request) -> Response:
        """Recreate a competition from an exported document in a club the caller organises."""
        club, document = self.import_target(request)
        competition = transfer.import_competition(
            kind=self.kind, club=club, document=document, by=request.user
        )
        return Response(self.detail_data(competition.pk), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: AuditEntrySerializer(many=True)})
    @action(detail=True, methods=["get"])
    def history(self, request: Request, pk: Any = None) -> Response:
        """Who changed what and when: set-up, results submitted, corrected, simulated."""
        competition = self.get_object()
        entries = audit.history(kind=self.kind.label, competition_id=competition.pk)
        page = self.paginate_queryset(entries)
        data = AuditEntrySerializer(page, many=True).data
        return self.get_paginated_response(data)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: Any = None) -> Response:
        """Set-up, rules and every result version as a versioned JSON document (organisers)."""
        competition = self.get_object()
        return Response(transfer.export_competition(kind=self.kind, competition=competition))


Handler = Callable[..., Any]


def _own(method: Handler, name: str) -> Handler:
    """A fresh function calling ``method``: each game's viewset decorates its own copy."""

    @functools.wraps(method)
    def view(self: CompetitionViewSet, request: Request, *args: Any, **kwargs: Any) -> Any:
        return method(self, request, *args, **kwargs)

    view.__name__ = name
    return view


def competition_viewset(kind: AnyKind) -> type[CompetitionViewSet]:
    """The viewset of one game: the shared actions, routed with the kind's words and schema."""
    base = CompetitionViewSet
    events = f"{kind.event_word}/{NUMBER}"
    detail = kind.detail_serializer
    event = kind.event_serializer

    def event_action(
        method: Handler, name: str, verb: Literal["get", "post"], suffix: str = ""
    ) -> Handler:
        routed = action(detail=True, methods=[verb], url_path=events + suffix, url_name=name)
        return routed(_own(method, name))

    shown: Any = extend_schema(responses={200: event})(
        event_action(base.event_detail, "event", "get")
    )
    dated = shown.mapping.patch(_own(base.event_date, "event_date"))
    attrs: dict[str, Any] = {
        "__module__": __name__,
        "__doc__": f"{kind.title} endpoints (API.md), as declared by its game kind.",
        "kind": kind,
        "create": extend_schema(request=kind.create_serializer, responses={201: detail})(
            _own(base.create, "create")
        ),
        "partial_update": extend_schema(request=kind.patch_serializer, responses={200: detail})(
            _own(base.partial_update, "partial_update")
        ),
        "event": shown,
        "event_date": extend_schema(request=EventDateSerializer, responses={200: event})(dated),
        "results": extend_schema(
            request=kind.results_schema_serializer or kind.results_serializer,
            responses={202: event},
        )(event_action(base.submit, "results", "post", "/results")),
        "simulate": extend_schema(request=None, responses={202: event})(
            event_action(base.start_simulation, "simulate", "post", "/simulate")
        ),
        "replay": extend_schema(responses={200: OpenApiTypes.OBJECT})(
            event_action(base.event_replay, "replay", "get", "/replay")
        ),
        "standings": extend_schema(
            parameters=[after_parameter(kind.after_param, kind.event_word.removesuffix("s"))],
            responses={200: kind.standings_serializer},
        )(action(detail=True, methods=["get"])(_own(base.standings_response, "standings"))),
        "import_document": extend_schema(request=ImportSerializer, responses={201: detail})(
            action(detail=False, methods=["post"], url_path="import")(
                _own(base.import_document, "import_document")
            )
        ),
    }
    name = f"{kind.competition_model.__name__}ViewSet"
    return type(name, (base,), attrs)


class ApiRootView(APIRootView):
    """``GET /api/``: the list of collections, public like the schema."""

    permission_classes = [AllowAny]


class ApiRouter(DefaultRouter):
    APIRootView = ApiRootView


def register_kinds(router: DefaultRouter) -> None:
    """Route every registered game: its collection and the extra ones it declares."""
    for kind in all_kinds():
        router.register(kind.collection, competition_viewset(kind), basename=kind.label)
        for prefix, viewset, basename in kind.extra_routes:
            router.register(prefix, viewset, basename=basename)
