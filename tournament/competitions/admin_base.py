"""Admin scoping: organisers (``is_staff``) see and edit only their clubs' objects."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournament.clubs.models import Club, Membership, Role


def is_organiser(request: HttpRequest) -> bool:
    user = request.user
    if not user.is_active or not user.is_staff:
        return False
    if user.is_superuser:
        return True
    cache = getattr(request, "_podium_is_organiser", None)
    if cache is None:
        cache = Membership.objects.filter(user_id=user.pk, role=Role.ORGANISER).exists()
        request._podium_is_organiser = cache  # type: ignore[attr-defined]
    return bool(cache)


class ClubScopedAdmin(admin.ModelAdmin):
    """Limits the queryset and club choices to the clubs the user organises.

    ``club_path`` is the lookup from the model to its club (``club``, ``tour__club``, …).
    Organisers need no Django model permissions: their role in a club is the permission.
    """

    club_path = "club"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        clubs = Club.objects.organised_by(request.user)
        return queryset.filter(**{f"{self.club_path}__in": clubs}).distinct()

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.related_model is Club and not request.user.is_superuser:
            kwargs["queryset"] = Club.objects.organised_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_organiser(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_organiser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # There is no DELETE in the API either; only superusers remove things.
        return bool(request.user.is_superuser)


class ScopedInline:
    """Inline permissions follow the parent's club scoping."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)


class EventAdminMixin:
    """The admin action every game's stages or races share: resolve them again."""

    kind_label: str
    actions = ["resolve_again"]

    @admin.action(
        description=_("Resolve the selected ones again (failed, or stuck in “submitted”)")
    )
    def resolve_again(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        from tournament.competitions.kinds import get_kind
        from tournament.competitions.services import requeue_events

        count = requeue_events(
            kind=get_kind(self.kind_label), event_ids=queryset.values_list("pk", flat=True)
        )
        self.message_user(  # type: ignore[attr-defined]
            request, _("%(n)s queued for resolution.") % {"n": count}, messages.SUCCESS
        )
