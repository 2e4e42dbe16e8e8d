"""Access, one place: who may read a competition, who may write to it, declared per action.

Every API viewset declares, for each of its actions, the access it needs, in
``permission_for_action`` (pretix's ``EventPermission``, read per action)::

    permission_for_action = {"retrieve": READ, "results": WRITE_RESULTS, "partial_update": ORGANISE}

:class:`DeclaredAccess` reads that map; the project's default permission (``REST_FRAMEWORK``) is
:class:`DenyUndeclared`, so a view that declares nothing answers 403 to everyone, and
``tests/security/test_permission_matrix.py`` fails for any route whose action has no entry.

The order of the answers follows API.md. Visibility first: a private competition the caller may
not read is a 404 to every method (the viewsets' querysets are ``visible_to`` the caller, and an
unknown event is looked up before the check). Then a write without credentials is a 401 and a
write without the role a 403, and only then is the body validated (a 400 tells nothing to
outsiders).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Protocol

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from scoring.digits import parse_digits
from tournament.clubs.models import Club, Role, role_in

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
    from django.db.models import QuerySet
    from rest_framework.views import APIView

    User = AbstractBaseUser | AnonymousUser

#: Anyone who may see the object (public, or a member of its club, or a superuser).
READ: Final = "read"
#: Scorekeepers and organisers of the club (API.md: submit and correct results, simulate).
WRITE_RESULTS: Final = "write_results"
#: Organisers of the club (set-up, members, history, export, import).
ORGANISE: Final = "organise"
#: Anyone signed in (founding a club).
SIGNED_IN: Final = "signed_in"
ACCESS_LEVELS: Final = frozenset({READ, WRITE_RESULTS, ORGANISE, SIGNED_IN})

WRITE_ROLES = (Role.ORGANISER, Role.SCOREKEEPER)
ORGANISER_ROLES = (Role.ORGANISER,)
ROLES_FOR: Final[dict[str, tuple[Role, ...]]] = {
    WRITE_RESULTS: WRITE_ROLES,
    ORGANISE: ORGANISER_ROLES,
}

#: The actions every DRF viewset may answer without a handler of its own: OPTIONS.
IMPLICIT_ACTIONS: Final[dict[str, str]] = {"metadata": READ}


class ClubFromBody(Protocol):
    """A viewset whose collection-level writes (create, import) name their club in the body."""

    def club_for_access(self, request: Request) -> Club | None:
        """The club the request writes to, or None when the body names none (a 400 follows)."""


def get_competition_for_user(queryset: QuerySet[Any], pk: Any, user: User) -> Any:
    """The competition ``pk`` if ``user`` may read it, else Http404."""
    try:
        # A URL's id is read in the digits 0-9 only (int() also took "٣" and " 3").
        number = pk if isinstance(pk, int) else parse_digits(str(pk))
        return queryset.visible_to(user).get(pk=number)  # type: ignore[attr-defined]
    except (queryset.model.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404 from None


def require_role(user: User, club_id: int, roles: tuple[str, ...]) -> str:
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


def can_write(user: User, club_id: int) -> bool:
    return role_in(club_id, user) in WRITE_ROLES


def club_named_in_body(request: Request) -> Club | None:
    """The club whose slug a create request's body names, if there is one."""
    slug = request.data.get("club") if isinstance(request.data, dict) else None
    return Club.objects.filter(slug=slug).first() if isinstance(slug, str) else None


def required_access(view: APIView) -> str | None:
    """The access ``view``'s current action declares; None when it declares none."""
    action = getattr(view, "action", None)
    if action is None:
        # A method the viewset does not have: no handler runs, the answer is a 404 or a 405.
        return READ
    declared: dict[str, str] = {
        **IMPLICIT_ACTIONS,
        **getattr(view, "permission_for_action", {}),
    }
    return declared.get(action)


def _club_id(obj: Any) -> int:
    return int(obj.pk) if isinstance(obj, Club) else int(obj.club_id)


class DeclaredAccess(BasePermission):
    """Grant what the view's ``permission_for_action`` declares for the current action."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        need = required_access(view)
        if need is None or need not in ACCESS_LEVELS:
            return False  # undeclared: denied, and the route test names it
        if need == READ or getattr(view, "detail", False):
            # Detail actions are checked on the object, once it is known to be visible.
            return True
        club: Club | None = None
        if need in ROLES_FOR:
            # Read before the 401 on purpose: an unreadable body is a 400 for anyone, and a
            # view may check more (import: 401 before a 400 of its own).
            club = view.club_for_access(request)  # type: ignore[attr-defined]
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if club is not None:
            require_role(request.user, club.pk, ROLES_FOR[need])
        return True

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        need = required_access(view)
        if need == READ:
            return True
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if need == SIGNED_IN:
            return True
        if need not in ROLES_FOR:
            return False
        require_role(request.user, _club_id(obj), ROLES_FOR[need])
        return True


class DenyUndeclared(BasePermission):
    """The API's default: a view without its own declared permissions answers 403."""

    message = "This endpoint declares no access."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return False
