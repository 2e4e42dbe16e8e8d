"""Clubs and memberships: who may organise and who may keep score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


class Role(models.TextChoices):
    ORGANISER = "organiser", _("organiser")
    SCOREKEEPER = "scorekeeper", _("scorekeeper")


class ClubQuerySet(models.QuerySet["Club"]):
    def organised_by(self, user: Any) -> ClubQuerySet:
        """Clubs where ``user`` may set up competitions (all of them for a superuser)."""
        if not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self.all()
        return self.filter(memberships__user=user, memberships__role=Role.ORGANISER)

    def of_member(self, user: Any) -> ClubQuerySet:
        if not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self.all()
        return self.filter(memberships__user=user)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="Membership",
        related_name="clubs",
        verbose_name=_("members"),
    )

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


def role_in(club_id: int, user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The user's role in a club, or None (one query; superusers rank as organisers)."""
    if not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False):
        return Role.ORGANISER
    return (
        Membership.objects.filter(club_id=club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


class ClubInvitation(models.Model):
    """A link an organiser sends: whoever opens it first joins the club with ``role``.

    Single use (``used_at``) and expiring (``expires_at``); the token is the only secret, so it is
    random (``secrets.token_urlsafe``) and never derived from the club or the date.
    """

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    token = models.CharField(_("token"), max_length=64, unique=True, editable=False)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"))
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("club invitation")
        verbose_name_plural = _("club invitations")

    def __str__(self) -> str:
        return f"{self.club} ({self.role}) until {self.expires_at:%Y-%m-%d}"

    def is_open(self, now: Any) -> bool:
        """Unused and not yet expired at ``now``."""
        return self.used_at is None and now < self.expires_at
