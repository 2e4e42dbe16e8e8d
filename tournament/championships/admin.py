"""Admin for Formula D championships: an organiser can run a whole championship from here.

Set up the championship with its drivers and races, enter each race's results with the same form
and checks as the scorekeeper page, read the standings, and resolve failed races again.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
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
    ResultVersionAdmin,
    ScopedInline,
    SnapshotAdmin,
    is_organiser,
)
from tournament.competitions.services import results_stored


def _locked(championship: Championship | None) -> bool:
    return results_stored(Race, championship)


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

    entrant_label = _("driver")

    def results_formset(self, race: Race, data: Any = None) -> Any:
        if data is not None:
            return DriverRowFormSet(data)
        return DriverRowFormSet(initial=initial_rows(race))

    def store_results(self, formset: Any, race: Race, user: Any) -> Any:
        return submit_formset(formset, race=race, user=user, version=race.version)

    def results_rows(self, race: Race, formset: Any) -> list[tuple[Any, str]]:
        names = dict(Driver.objects.filter(championship=race.competition).values_list("pk", "name"))
        return row_names(formset, names)


admin.site.register(RaceResultVersion, ResultVersionAdmin)
admin.site.register(RaceStandings, SnapshotAdmin)
