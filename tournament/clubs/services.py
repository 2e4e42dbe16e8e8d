"""Club workflows: found a club, add a member. Each is one transaction with its audit entry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.clubs.models import Club, Membership, Role
from tournament.competitions import audit
from tournament.competitions.errors import InvalidInput
from tournament.competitions.models import AuditAction

if TYPE_CHECKING:
    from django.contrib.auth.models import User  # AUTH_USER_MODEL


def found_club(*, name: str, slug: str, by: User) -> Club:
    """Create a club; its creator becomes its first organiser (API.md). A taken slug is a 400."""
    username = by.get_username()
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug)
            Membership.objects.create(club=club, user=by, role=Role.ORGANISER)
            audit.record(
                club_id=club.pk,
                action=AuditAction.MEMBER_ADDED,
                by=by,
                summary=f"{username} founded the club as organiser",
                changes={"username": username, "role": "organiser"},
            )
    except IntegrityError:
        # Two founders racing for one slug: the loser's request stores nothing.
        raise InvalidInput({"slug": [_("A club with this slug already exists.")]}) from None
    return club


def add_member(*, club: Club, user: User, role: str, by: User) -> Membership:
    """Add ``user`` to the club with ``role``; already a member is a 400."""
    try:
        with transaction.atomic():
            member = Membership.objects.create(club=club, user=user, role=role)
            audit.record(
                club_id=club.pk,
                action=AuditAction.MEMBER_ADDED,
                by=by,
                summary=f"{user.get_username()} added as {role}",
                changes={"username": user.get_username(), "role": role},
            )
    except IntegrityError:
        raise InvalidInput(
            {"username": [_("This user is already a member of the club.")]}
        ) from None
    return member
