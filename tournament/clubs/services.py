"""Club workflows: found a club, add, re-role and remove members, invitation links.

Each is one transaction with its audit entry.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.clubs.models import Club, ClubInvitation, Membership, Role
from tournament.competitions import audit
from tournament.competitions.errors import InvalidInput
from tournament.competitions.models import AuditAction

if TYPE_CHECKING:
    from django.contrib.auth.forms import UserCreationForm
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


# How long an invitation link stays open (the organiser can always make a new one).
INVITATION_DAYS = 7


def _organisers_left(club: Club, *, without: Membership) -> int:
    return Membership.objects.filter(club=club, role=Role.ORGANISER).exclude(pk=without.pk).count()


def _locked_membership(club: Club, username: str) -> Membership:
    """The member row, locked so two organisers editing at once cannot both leave none."""
    # Lock every organiser row of the club: the "last organiser" check reads them all.
    list(Membership.objects.select_for_update().filter(club=club, role=Role.ORGANISER))
    member = (
        Membership.objects.select_for_update()
        .select_related("user")
        .filter(club=club, user__username=username)
        .first()
    )
    if member is None:
        raise InvalidInput({"username": [_("This user is not a member of the club.")]})
    return member


def change_role(*, club: Club, username: str, role: str, by: User) -> Membership:
    """Give a member another role; the club's last organiser stays an organiser (400)."""
    if role not in Role.values:
        raise InvalidInput({"role": [_("Choose organiser or scorekeeper.")]})
    with transaction.atomic():
        member = _locked_membership(club, username)
        if member.role == role:
            return member
        if member.role == Role.ORGANISER and _organisers_left(club, without=member) == 0:
            raise InvalidInput({"role": [_("The club's last organiser cannot stop being one.")]})
        old = member.role
        member.role = role
        member.save(update_fields=["role"])
        audit.record(
            club_id=club.pk,
            action=AuditAction.MEMBER_ADDED,
            by=by,
            summary=f"{username} is now {role} (was {old})",
            changes={"username": username, "role": role, "was": old},
        )
    return member


def remove_member(*, club: Club, username: str, by: User) -> None:
    """Take a member out of the club; never its last organiser (400)."""
    with transaction.atomic():
        member = _locked_membership(club, username)
        if member.role == Role.ORGANISER and _organisers_left(club, without=member) == 0:
            raise InvalidInput({"username": [_("The club's last organiser cannot be removed.")]})
        member.delete()
        audit.record(
            club_id=club.pk,
            action=AuditAction.MEMBER_ADDED,
            by=by,
            summary=f"{username} removed from the club",
            changes={"username": username, "removed": True},
        )


def invite(*, club: Club, role: str, by: User, now: datetime | None = None) -> ClubInvitation:
    """A new single-use invitation link for ``role``, open for INVITATION_DAYS days."""
    if role not in Role.values:
        raise InvalidInput({"role": [_("Choose organiser or scorekeeper.")]})
    now = now or timezone.now()
    return ClubInvitation.objects.create(
        club=club,
        token=secrets.token_urlsafe(32),
        role=role,
        created_by=by,
        created_at=now,
        expires_at=now + timedelta(days=INVITATION_DAYS),
    )


def open_invitation(*, token: str, now: datetime | None = None) -> ClubInvitation | None:
    """The invitation behind ``token`` if it can still be used at ``now``, else None."""
    invitation = ClubInvitation.objects.select_related("club").filter(token=token).first()
    if invitation is None or not invitation.is_open(now or timezone.now()):
        return None
    return invitation


def accept_invitation(*, token: str, user: User, now: datetime | None = None) -> Membership:
    """``user`` joins the invitation's club with its role; the link is then spent.

    A used, expired or unknown link is a 400 (``token``); a user already in the club too, and the
    link stays open for someone else.
    """
    now = now or timezone.now()
    with transaction.atomic():
        invitation = ClubInvitation.objects.select_for_update().filter(token=token).first()
        if invitation is None or not invitation.is_open(now):
            raise InvalidInput({"token": [_("This invitation link is used or has expired.")]})
        member = add_member(club=invitation.club, user=user, role=invitation.role, by=user)
        invitation.used_at = now
        invitation.used_by = user
        invitation.save(update_fields=["used_at", "used_by"])
    return member


def sign_up_with_invitation(
    *, token: str, form: UserCreationForm[Any], now: datetime | None = None
) -> Membership:
    """Create the account of a valid sign-up ``form`` and join with the link, all or nothing."""
    with transaction.atomic():
        user = form.save()
        return accept_invitation(token=token, user=user, now=now)
