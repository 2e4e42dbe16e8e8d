"""Who may set up, the create and PATCH runs, and the locked set-up.

The pages build the API's own request body and run it through the kind's own create or patch
serializer and services, exactly as ``POST /api/<collection>/`` and ``PATCH …/<id>/`` do
(``tournament/competitions/api.py``): one set of set-up checks for the API, the pages, the
admin and import (issue #15, item 7). A refused body stores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import serializers

from tournament.clubs.models import Club, Role, role_in
from tournament.competitions import services
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.competitions.kinds import AnyKind
from tournament.web.access import visible_or_404


def organised_club(request: HttpRequest, slug: str) -> Club:
    """The club ``slug`` for its organisers (and superusers): 404 unknown, 403 anyone else."""
    club = get_object_or_404(Club, slug=slug)
    if role_in(club.pk, request.user) != Role.ORGANISER:
        raise PermissionDenied
    return club


def organised_competition(request: HttpRequest, kind: AnyKind, pk: int) -> Any:
    """The competition for its club's organisers: 404 when the user may not read it (as the
    API: visibility first), 403 when they may read it but do not organise its club."""
    queryset = kind.competition_model.objects.select_related("club")
    competition = visible_or_404(queryset, pk, request.user)
    if role_in(competition.club_id, request.user) != Role.ORGANISER:
        raise PermissionDenied
    return competition


@dataclass
class Outcome:
    """What a run did: the stored competition, or the errors (DRF's shape) and nothing stored."""

    competition: Any = None
    errors: Any = None
    conflict: str = ""

    @property
    def ok(self) -> bool:
        return self.competition is not None


def create(*, kind: AnyKind, payload: dict[str, Any], by: Any) -> Outcome:
    """``POST /api/<collection>/`` with ``payload``: the kind's create serializer, then the
    service; the serializer's errors (field paths as the API answers them) otherwise."""
    body = kind.create_serializer(data=payload)
    if not body.is_valid():
        return Outcome(errors=body.errors)
    try:
        competition = services.create_from_request(kind=kind, data=body.validated_data, by=by)
    except InvalidInput as exc:
        return Outcome(errors=exc.detail)
    return Outcome(competition=competition)


def update(*, kind: AnyKind, competition: Any, payload: dict[str, Any], by: Any) -> Outcome:
    """``PATCH /api/<collection>/<id>/`` with ``payload``, as the API runs it: a set-up change
    once results are stored is a conflict; then the patch serializer, the merged set-up's
    check (``kind.patched_setup``) and ``update_competition``."""
    locked_message = _("The set-up cannot change once results are stored.")
    if services.setup_locked(kind=kind, competition=competition, data=payload):
        return Outcome(conflict=locked_message)
    body = kind.patch_serializer(data=payload)
    if not body.is_valid():
        return Outcome(errors=body.errors)
    try:
        setup = kind.patched_setup(competition, body.validated_data)
        updated = services.update_competition(
            kind=kind,
            competition_id=competition.pk,
            changes=body.validated_data,
            setup=setup,
            by=by,
        )
    except serializers.ValidationError as exc:
        return Outcome(errors=exc.detail)
    except InvalidInput as exc:
        return Outcome(errors=exc.detail)
    except Conflict as exc:  # results stored meanwhile: the service checks under the lock
        return Outcome(conflict=str(exc.detail))
    return Outcome(competition=updated)


@dataclass
class Lock:
    """Whether the set-up is locked (results stored) and which events hold results."""

    locked: bool
    events: list[int] = field(default_factory=list)


def lock_state(kind: AnyKind, competition: Any) -> Lock:
    """The set-up locks once any event has stored results (API.md, "Set-up changes")."""
    numbers = list(
        kind.event_model.objects.with_results(competition)
        .order_by("number")
        .values_list("number", flat=True)
    )
    return Lock(locked=bool(numbers), events=numbers)
