"""Admin for Grand Tours: an organiser can run a whole tour from here.

Set up the tour with its stages and teams (riders on each team's page), enter each stage's results
with the same form and checks as the scorekeeper page, and read the standings; failed stages can
be resolved again with an action.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from games.flamme_rouge.track import CourseError, parse_course
from scoring.grand_tour import specialist_order
from tournament.competitions.admin_base import (
    ClubScopedAdmin,
    EventAdminMixin,
    ResultVersionAdmin,
    ScopedInline,
    SnapshotAdmin,
    is_organiser,
)
from tournament.competitions.messages import param_message
from tournament.competitions.services import results_stored
from tournament.tours.forms import RiderRowFormSet, initial_rows, submit_formset
from tournament.tours.kind import load_setup
from tournament.tours.loading import stage_rules
from tournament.tours.models import Rider, Stage, StageResultVersion, StageStandings, Team, Tour
from tournament.tours.setup import SPECIALIST_BASE


def _locked(tour: Tour | None) -> bool:
    return results_stored(Stage, tour)


class StageInlineForm(forms.ModelForm):
    class Meta:
        model = Stage
        fields = ["number", "name", "course", "finish", "stacks", "rest_day_after"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        course = data.get("course")
        if course:
            tour = self.instance.competition if self.instance.competition_id else None
            rules = stage_rules(tour.rules) if tour is not None else None
            try:
                parsed = parse_course(course, rules=rules)
            except CourseError as exc:
                self.add_error("course", param_message(exc))
            else:
                data["finish"] = parsed.finish
        return data


class StageInline(ScopedInline, admin.TabularInline):
    model = Stage
    form = StageInlineForm
    extra = 0
    fields = [
        "number",
        "name",
        "course",
        "finish",
        "stacks",
        "rest_day_after",
        "status",
        "version",
        "results_link",
    ]
    readonly_fields = ["status", "version", "results_link"]
    ordering = ["number"]

    @admin.display(description=_("results"))
    def results_link(self, stage: Stage) -> str:
        if not stage.pk:
            return ""
        url = reverse("admin:tours_stage_results", args=[stage.pk])
        return format_html('<a href="{}">{}</a>', url, _("enter results"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if _locked(obj):
            return self.fields
        return self.readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request) and not _locked(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request) and not _locked(obj)


class TeamInline(ScopedInline, admin.TabularInline):
    model = Team
    extra = 0
    fields = ["order", "name", "player", "riders_link"]
    readonly_fields = ["riders_link"]
    show_change_link = True

    @admin.display(description=_("riders"))
    def riders_link(self, team: Team) -> str:
        return ", ".join(r.name for r in team.riders.all()) if team.pk else ""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.fields if _locked(obj) else self.readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request) and not _locked(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request) and not _locked(obj)


@admin.register(Tour)
class TourAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "public", "seed", "standings_through", "created_at"]
    list_filter = ["public", "club"]
    search_fields = ["name", "club__name"]
    inlines = [StageInline, TeamInline]
    readonly_fields = ["specialist_order", "standings_through", "standings_table"]
    fields = [
        "club",
        "name",
        "public",
        "seed",
        "rules",
        "specialist_order",
        "standings_through",
        "standings_table",
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if _locked(obj):
            return [*self.readonly_fields, "club", "seed", "rules"]
        return self.readonly_fields

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        tour = form.instance
        if not _locked(tour):
            # GT-1.3: the pick order follows the teams entered.
            tour.specialist_order = list(specialist_order(load_setup(tour)))
            tour.save(update_fields=["specialist_order"])

    @admin.display(description=_("standings"))
    def standings_table(self, tour: Tour) -> str:
        if tour.standings_through is None:
            return "—"
        snapshot = StageStandings.objects.filter(
            competition=tour, number=tour.standings_through
        ).first()
        if snapshot is None:
            return "—"
        rows = snapshot.data.get("general", [])
        tp = {row["team"]: row["total"] for row in snapshot.data.get("tour_points", [])}
        return format_html(
            "<p>{}</p><table><tr><th>#</th><th>{}</th><th>{}</th><th>TP</th></tr>{}</table>",
            _("After stage %(n)s") % {"n": snapshot.number},
            _("rider"),
            _("time"),
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                ((r["rank"], r["name"], r["time"], tp.get(r["team"], "")) for r in rows),
            ),
        )


class RiderInline(ScopedInline, admin.TabularInline):
    model = Rider
    extra = 2
    max_num = 2
    fields = ["name", "role", "specialist"]

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "specialist":
            choices = [("", "—")] + [(name, name.replace("_", " ")) for name in SPECIALIST_BASE]
            return forms.ChoiceField(choices=choices, required=False, label=_("specialist"))
        return super().formfield_for_dbfield(db_field, request, **kwargs)


@admin.register(Team)
class TeamAdmin(ClubScopedAdmin):
    club_path = "tour__club"
    list_display = ["name", "player", "tour", "order"]
    list_filter = ["tour"]
    inlines = [RiderInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["tour", "order", "name", "player"] if obj is not None and _locked(obj.tour) else []

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tour" and not request.user.is_superuser:
            kwargs["queryset"] = Tour.objects.administered_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Stage)
class StageAdmin(EventAdminMixin, ClubScopedAdmin):
    club_path = "competition__club"
    list_display = ["competition", "number", "name", "status", "source", "version", "resolved_at"]
    list_filter = ["status", "source"]
    search_fields = ["competition__name", "name"]
    readonly_fields = [
        "competition",
        "number",
        "status",
        "source",
        "error",
        "version",
        "results",
        "submitted_at",
        "resolved_at",
    ]
    fields = [
        "competition",
        "number",
        "name",
        "status",
        "source",
        "error",
        "version",
        "results",
        "submitted_at",
        "resolved_at",
    ]
    kind_label = "tour"

    entrant_label = _("rider")

    def results_formset(self, stage: Stage, data: Any = None) -> Any:
        if data is not None:
            return RiderRowFormSet(data)
        return RiderRowFormSet(initial=initial_rows(stage, self._riders(stage)))

    def store_results(self, formset: Any, stage: Stage, user: Any) -> Any:
        return submit_formset(formset, stage=stage, user=user, version=stage.version)

    def results_rows(self, stage: Stage, formset: Any) -> list[tuple[Any, str]]:
        names = {r.pk: f"{r.name} ({r.team.name})" for r in self._riders(stage)}
        return [(form, names.get(_int(form["rider"].value()), "")) for form in formset.forms]

    @staticmethod
    def _riders(stage: Stage) -> list[Rider]:
        return list(
            Rider.objects.filter(team__tour=stage.competition)
            .select_related("team")
            .order_by("team__order", "role")
        )


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


admin.site.register(StageResultVersion, ResultVersionAdmin)
admin.site.register(StageStandings, SnapshotAdmin)
