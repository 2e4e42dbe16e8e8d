"""Admin for rallies and rally championships, scoped to the organiser's clubs.

An organiser sets up a rally (drivers, stages with layouts, rules: checked as a whole by the
API's set-up check before anything is stored), reads its stages and result versions, and
requeues failed stages; results are entered on the scorekeeper page or the API, with the same
checks (RM-53). Set-up turns read-only once results exist.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from scoring.rally import parse_championship_settings
from tournament.competitions.admin_base import (
    ClubScopedAdmin,
    EventAdminMixin,
    ScopedInline,
    SetupAdmin,
    SetupInline,
)
from tournament.competitions.messages import param_messages
from tournament.rallies.models import (
    ChampionshipRally,
    Driver,
    Rally,
    RallyChampionship,
    RallyStage,
)
from tournament.rallies.serializers import check_championship_rallies


class DriverInline(SetupInline, admin.TabularInline):
    model = Driver
    extra = 0
    fields = ["order", "name"]
    setup_key = "drivers"
    number_field = "order"

    def setup_row(self, form: Any) -> dict[str, Any]:
        return {"name": form.cleaned_data["name"]}


class RallyStageInline(SetupInline, admin.TabularInline):
    model = RallyStage
    extra = 0
    fields = ["number", "name", "layout", "status", "version"]
    readonly_fields = ["status", "version"]
    ordering = ["number"]
    setup_key = "stages"
    number_field = "number"

    def setup_row(self, form: Any) -> dict[str, Any]:
        return {
            "name": form.cleaned_data.get("name") or "",
            "layout": form.cleaned_data.get("layout"),
        }


@admin.register(Rally)
class RallyAdmin(SetupAdmin):
    list_display = ["name", "club", "public", "seed", "standings_through", "created_at"]
    list_filter = ["public", "club"]
    search_fields = ["name", "club__name"]
    inlines = [DriverInline, RallyStageInline]
    fields = ["club", "name", "public", "seed", "rules", "standings_through"]
    readonly_fields = ["standings_through"]

    def setup_data(
        self, cleaned: dict[str, Any], rows: dict[str, list[dict[str, Any]]]
    ) -> dict[str, Any]:
        return {**rows, "rules": cleaned.get("rules") or {}}


@admin.register(RallyStage)
class RallyStageAdmin(EventAdminMixin, ClubScopedAdmin):
    list_display = ["competition", "number", "name", "status", "source", "version", "resolved_at"]
    search_fields = ["competition__name", "name"]
    fields = EventAdminMixin.event_fields("name", "layout")
    readonly_fields = [f for f in fields if f != "name"]


class ChampionshipRallyFormSet(BaseInlineFormSet):
    """The championship's rallies, checked as the API checks them (RM-47: rallies of the
    championship's club, each once), whoever edits: an organiser of two clubs or a superuser
    could pick another club's rally here (issue #15, item 7)."""

    def clean(self) -> None:
        super().clean()
        club = getattr(self.instance, "club", None)
        if club is None or any(form.errors for form in self.forms):
            return
        kept = [
            form.cleaned_data
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        rallies = [row["rally"].pk for row in kept if row.get("rally") is not None]
        problems = check_championship_rallies(rallies, club)
        if problems:
            raise forms.ValidationError(problems)


class ChampionshipRallyInline(ScopedInline, admin.TabularInline):
    model = ChampionshipRally
    formset = ChampionshipRallyFormSet
    extra = 0
    fields = ["order", "rally"]
    ordering = ["order"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "rally" and not request.user.is_superuser:
            kwargs["queryset"] = Rally.objects.administered_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class RallyChampionshipForm(forms.ModelForm):
    class Meta:
        model = RallyChampionship
        fields = [
            "club",
            "name",
            "public",
            "points",
            "power_stage",
            "power_stage_points",
            "drop_worst",
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        # RM-47/RM-48: the same checks as the API, so the standings never read bad settings.
        settings: dict[str, Any] = {
            k: data[k]
            for k in ("points", "power_stage", "power_stage_points", "drop_worst")
            if k in data
        }
        _settings, problems = parse_championship_settings(settings)
        for key, found in param_messages(problems).items():  # in the reader's language
            self.add_error(key if key in self.fields else None, found)
        return data


@admin.register(RallyChampionship)
class RallyChampionshipAdmin(ClubScopedAdmin):
    form = RallyChampionshipForm
    list_display = ["name", "club", "public", "points", "power_stage", "drop_worst"]
    list_filter = ["public", "club"]
    search_fields = ["name", "club__name"]
    inlines = [ChampionshipRallyInline]
    fields = ["club", "name", "public", "points", "power_stage", "power_stage_points", "drop_worst"]
