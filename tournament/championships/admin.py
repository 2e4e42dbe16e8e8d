"""Admin for Formula D championships: an organiser can run a whole championship from here.

Set up the championship with its drivers and races, enter each race's results with the same form
and checks as the scorekeeper page, read the standings, and resolve failed races again.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from tournament.championships.forms import DriverRowFormSet, initial_rows, row_names, submit_formset
from tournament.championships.models import (
    Championship,
    Driver,
    Race,
    RaceResultVersion,
    RaceStandings,
)
from tournament.competitions.admin_base import (
    ClubScopedAdmin,
    EventAdminMixin,
    ScopedInline,
    is_organiser,
)


def _locked(championship: Championship | None) -> bool:
    return (
        championship is not None
        and championship.pk is not None
        and Race.objects.filter(competition=championship, version__gt=0).exists()
    )


class LockedInline(ScopedInline):
    """Set-up rows turn read-only once a race has results (API.md: 409 on the API)."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.fields if _locked(obj) else self.readonly_fields  # type: ignore[attr-defined]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request) and not _locked(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request) and not _locked(obj)


class DriverInline(LockedInline, admin.TabularInline):
    model = Driver
    extra = 0
    fields = ["order", "name", "team", "build"]
    readonly_fields: list[str] = []


class RaceInline(LockedInline, admin.TabularInline):
    model = Race
    extra = 0
    fields = ["number", "circuit", "laps", "drivers", "status", "version", "results_link"]
    readonly_fields = ["status", "version", "results_link"]
    ordering = ["number"]

    @admin.display(description=_("results"))
    def results_link(self, race: Race) -> str:
        if not race.pk:
            return ""
        url = reverse("admin:championships_race_results", args=[race.pk])
        return format_html('<a href="{}">{}</a>', url, _("enter results"))


@admin.register(Championship)
class ChampionshipAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "public", "rule_set", "seed", "standings_through", "created_at"]
    list_filter = ["public", "rule_set", "club"]
    search_fields = ["name", "club__name"]
    inlines = [DriverInline, RaceInline]
    readonly_fields = ["standings_through", "standings_table"]
    fields = [
        "club",
        "name",
        "public",
        "seed",
        "rule_set",
        "points",
        "points_preset",
        "rules",
        "standings_through",
        "standings_table",
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if _locked(obj):
            return [
                *self.readonly_fields,
                "club",
                "seed",
                "rule_set",
                "points",
                "points_preset",
                "rules",
            ]
        return self.readonly_fields

    @admin.display(description=_("standings"))
    def standings_table(self, championship: Championship) -> str:
        if championship.standings_through is None:
            return "—"
        snapshot = RaceStandings.objects.filter(
            competition=championship, number=championship.standings_through
        ).first()
        if snapshot is None:
            return "—"
        return format_html(
            "<p>{}</p><table><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th></tr>{}</table>",
            _("After race %(n)s") % {"n": snapshot.number},
            _("driver"),
            _("team"),
            _("points"),
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                (
                    (r["rank"], r["name"], r["team"] or "", r["points"])
                    for r in snapshot.data.get("drivers", [])
                ),
            ),
        )


@admin.register(Race)
class RaceAdmin(EventAdminMixin, ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "number", "circuit", "laps", "status", "source", "version"]
    list_filter = ["status", "source"]
    search_fields = ["competition__name", "circuit"]
    fields = [
        "competition",
        "number",
        "circuit",
        "laps",
        "drivers",
        "status",
        "source",
        "error",
        "version",
        "results",
        "submitted_at",
        "resolved_at",
    ]
    readonly_fields = fields
    kind_label = "championship"

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # races are added on their championship's page

    def get_urls(self) -> list[Any]:
        custom = [
            path(
                "<int:race_id>/results/",
                self.admin_site.admin_view(self.results_view),
                name="championships_race_results",
            ),
        ]
        return custom + super().get_urls()

    def results_view(self, request: HttpRequest, race_id: int) -> HttpResponse:
        race = get_object_or_404(
            self.get_queryset(request).select_related("competition"), pk=race_id
        )
        if not self.has_change_permission(request, race):
            raise Http404
        names = dict(Driver.objects.filter(championship=race.competition).values_list("pk", "name"))
        if request.method == "POST":
            formset = DriverRowFormSet(request.POST)
            if submit_formset(formset, race=race, user=request.user, version=race.version):
                self.message_user(
                    request, _("Results stored; the race is being resolved."), messages.SUCCESS
                )
                return HttpResponseRedirect(
                    reverse("admin:championships_championship_change", args=[race.competition_id])
                )
        else:
            formset = DriverRowFormSet(initial=initial_rows(race))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Results of race %(number)s") % {"number": race.number},
            "race": race,
            "championship": race.competition,
            "formset": formset,
            "rows": row_names(formset, names),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "web/championships/admin_race_results.html", context)


@admin.register(RaceResultVersion)
class RaceResultVersionAdmin(ClubScopedAdmin):
    club_path = "event__competition__club"
    list_display = ["event", "number", "source", "created_by", "created_at"]
    readonly_fields = ["event", "number", "source", "rows", "created_by", "created_at"]
    exclude = ["replay"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RaceStandings)
class RaceStandingsAdmin(ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "number", "computed_at"]
    readonly_fields = ["competition", "event", "number", "data", "computed_at"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
