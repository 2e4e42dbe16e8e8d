"""Admin scoping: organisers (``is_staff``) see and edit only their clubs' objects."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
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
    """What every game's stages or races share in the admin: entering results (with the same
    form and checks as the scorekeeper page) and resolving them again.

    A game supplies ``results_formset(event, data=None)``, ``store_results(formset, event,
    user)`` (the stored event, or None with the errors on the formset) and ``results_rows(event,
    formset)`` (each form with the entrant's name).
    """

    kind_label: str
    entrant_label: Any = _("entrant")
    actions = ["resolve_again"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # events are added on their competition's page

    def get_urls(self) -> list[Any]:
        if type(self).results_formset is EventAdminMixin.results_formset:
            return super().get_urls()  # type: ignore[misc,no-any-return]  # no admin entry form
        opts = self.model._meta  # type: ignore[attr-defined]
        custom = [
            path(
                "<int:event_id>/results/",
                self.admin_site.admin_view(self.results_view),  # type: ignore[attr-defined]
                name=f"{opts.app_label}_{opts.model_name}_results",
            ),
        ]
        return custom + super().get_urls()  # type: ignore[misc]

    def results_view(self, request: HttpRequest, event_id: int) -> HttpResponse:
        from tournament.competitions.kinds import get_kind

        queryset = self.get_queryset(request)  # type: ignore[attr-defined]
        event = get_object_or_404(queryset.select_related("competition"), pk=event_id)
        if not self.has_change_permission(request, event):  # type: ignore[attr-defined]
            raise Http404
        competition = event.competition
        competition_opts = competition._meta
        competition_url = reverse(
            f"admin:{competition_opts.app_label}_{competition_opts.model_name}_change",
            args=[competition.pk],
        )
        if request.method == "POST":
            formset = self.results_formset(event, request.POST)
            if self.store_results(formset, event, request.user):
                self.message_user(  # type: ignore[attr-defined]
                    request, _("Results stored; they are being resolved."), messages.SUCCESS
                )
                return HttpResponseRedirect(competition_url)
        else:
            formset = self.results_formset(event)
        label = get_kind(self.kind_label).event_label(event.number)
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "title": _("Results of %(event)s") % {"event": label},
            "event": event,
            "competition": competition,
            "competition_url": competition_url,
            "entrant_label": self.entrant_label,
            "formset": formset,
            "rows": self.results_rows(event, formset),
            "opts": self.model._meta,  # type: ignore[attr-defined]
        }
        return TemplateResponse(request, "admin/competitions/event_results.html", context)

    def results_formset(self, event: Any, data: Any = None) -> Any:
        raise NotImplementedError

    def store_results(self, formset: Any, event: Any, user: Any) -> Any:
        raise NotImplementedError

    def results_rows(self, event: Any, formset: Any) -> list[tuple[Any, str]]:
        raise NotImplementedError

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


class ReadOnlyAdmin(ClubScopedAdmin):
    """Result versions and standings snapshots: records, never edited by hand."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ResultVersionAdmin(ReadOnlyAdmin):
    club_path = "event__competition__club"
    list_display = ["event", "number", "source", "created_by", "created_at"]
    readonly_fields = ["event", "number", "source", "rows", "created_by", "created_at"]
    exclude = ["replay"]


class SnapshotAdmin(ReadOnlyAdmin):
    club_path = "competition__club"
    list_display = ["competition", "number", "computed_at"]
    readonly_fields = ["competition", "event", "number", "data", "computed_at"]
