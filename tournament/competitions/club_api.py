"""The base of the viewsets of a club's own records (players, seasons).

Apart from :mod:`tournament.competitions.access` on purpose: DRF reads its permission settings,
which name that module, when its viewsets are imported.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework import viewsets
from rest_framework.request import Request

from tournament.clubs.models import Club
from tournament.competitions.access import ORGANISE, ORGANISER_ROLES, DeclaredAccess, require_role


class ClubResourceViewSet(viewsets.GenericViewSet[Any]):
    """A viewset of a club's own records under ``/api/clubs/{slug}/…`` (players, seasons).

    The club comes from the path, read once per request. An ``ORGANISE`` action checks the role
    on it before any lookup, so a write is a 401 or 403 before an unknown record's 404 (which
    would tell an outsider what the club holds).
    """

    permission_classes = [DeclaredAccess]
    permission_for_action: dict[str, str] = {}

    def club(self) -> Club:
        if not hasattr(self, "_club"):
            self._club = get_object_or_404(Club, slug=self.kwargs["slug"])
        return self._club

    def club_for_access(self, request: Request) -> Club:
        return self.club()

    def check_permissions(self, request: Request) -> None:
        super().check_permissions(request)
        if self.permission_for_action.get(str(self.action)) == ORGANISE:
            require_role(request.user, self.club().pk, ORGANISER_ROLES)
