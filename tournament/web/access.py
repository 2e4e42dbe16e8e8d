"""View-level access helpers on top of :mod:`tournament.competitions.access` (no second copy).

Pages follow the API: a private competition is a 404 to anyone who may not read it. Forms need a
login first (a redirect for everyone, so an anonymous visitor learns nothing about which private
ids exist), then visibility (404), then the club role (403).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from tournament.competitions.access import can_write, get_competition_for_user
from tournament.competitions.api import parse_int


def visible_or_404(queryset: Any, pk: Any, user: Any) -> Any:
    """The competition ``pk`` from ``queryset`` if ``user`` may read it, else Http404."""
    return get_competition_for_user(queryset, pk, user)


def event_number(raw: Any) -> int:
    """A stage (race) number from the URL; Http404 for anything out of range."""
    return parse_int(raw)


def require_write_role(user: Any, competition: Any) -> None:
    """PermissionDenied (403) unless ``user`` may submit results in the competition's club."""
    if not can_write(user, competition.club_id):
        raise PermissionDenied


def may_write(user: Any, competition: Any) -> bool:
    """Whether to offer the scorekeeper links (one query for a signed-in user, none otherwise)."""
    return bool(user.is_authenticated) and can_write(user, competition.club_id)


__all__ = ["Http404", "event_number", "may_write", "require_write_role", "visible_or_404"]
