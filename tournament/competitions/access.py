"""Access checks, one place: who may read a competition, who may write to it.

Visibility is checked first (API.md): a private competition the caller may not read is a 404 to
every method. Then a write without credentials is a 401 and a write without the role a 403.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAuthenticated, PermissionDenied

from tournament.clubs.models import Role, role_in

WRITE_ROLES = (Role.ORGANISER, Role.SCOREKEEPER)
ORGANISER_ROLES = (Role.ORGANISER,)


def get_competition_for_user(queryset: Any, pk: Any, user: Any) -> Any:
    """The competition ``pk`` if ``user`` may read it, else Http404."""
    try:
        return queryset.visible_to(user).get(pk=int(pk))
    except (queryset.model.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404 from None


def require_role(user: Any, club_id: int, roles: tuple[str, ...]) -> str:
    """The user's role in the club if it is one of ``roles``; 401 or 403 otherwise."""
    if not user.is_authenticated:
        raise NotAuthenticated()
    role = role_in(club_id, user)
    if role is None or role not in roles:
        raise PermissionDenied(
            _("You need the %(roles)s role in this club.")
            % {"roles": _(" or ").join(str(Role(r).label) for r in roles)}
        )
    return role


def can_write(user: Any, club_id: int) -> bool:
    return role_in(club_id, user) in WRITE_ROLES


def require_organiser_of_slug(user: Any, slug: Any) -> None:
    """Before a create request's body is reported as invalid: 401, or 403 for a known club.

    Who may create is only knowable once the club is known; checking the role first when it is
    keeps validation messages from outsiders (API.md: 401/403 before 400).
    """
    from tournament.clubs.models import Club

    if not user.is_authenticated:
        raise NotAuthenticated()
    club = Club.objects.filter(slug=slug).first() if isinstance(slug, str) else None
    if club is not None:
        require_role(user, club.pk, ORGANISER_ROLES)
