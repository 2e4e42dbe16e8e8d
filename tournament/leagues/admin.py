"""Admin for leagues: set up a league, enter each race's results, read the standings.

The page's settings, drivers and races are checked together by the API's set-up check
(``LeagueKind.setup_serializer``) and written as the API writes them, so the admin cannot store
a league the API would refuse. Results use the scorekeeper form and checks.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournament.competitions.admin_base import (
    ClubScopedAdmin,
    EventAdminMixin,
    EventSetupInline,
    PointsStandings,
    SetupAdmin,
    SetupInline,
    setup_locked,
)
from tournament.leagues.forms import RESULTS, formset
from tournament.leagues.models import Driver, League, Race
from tournament.leagues.serializers import SETTINGS


class DriverInline(SetupInline, admin.TabularInline):
    model = Driver
    setup_key = "drivers"
    number_field = "order"
    extra = 0
    fields = ["order", "name", "team"]

    def setup_row(self, form: Any) -> dict[str, Any]:
        return {"name": form.cleaned_data["name"], "team": form.cleaned_data.get("team") or None}


class RaceInlineForm(forms.ModelForm):
    entered = forms.CharField(
        label=_("drivers entered"),
        required=False,
        help_text=_("Names, separated by commas; empty: every driver."),
    )

    class Meta:
        model = Race
        fields = ["number", "name"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        race = self.instance
        if race.pk:
            names = dict(race.competition.drivers.values_list("pk", "name"))
            if race.drivers != list(names):
                self.fields["entered"].initial = ", ".join(names.get(pk, "") for pk in race.drivers)


class RaceInline(EventSetupInline, admin.TabularInline):
    model = Race
    form = RaceInlineForm
    setup_key = "races"
    number_field = "number"
    extra = 0
    fields = ["number", "name", "entered", "status", "version", "results_link"]
    readonly_fields = ["status", "version", "results_link"]
    ordering = ["number"]

    def setup_row(self, form: Any) -> dict[str, Any]:
        row: dict[str, Any] = {"name": form.cleaned_data.get("name") or ""}
        text = form.cleaned_data.get("entered") or ""
        if text.strip():
            # Typed but naming nobody (", ,") is an entry list of none: the API's 400, not
            # "every driver" (issue #15, item 7). Only an empty box means everyone.
            row["drivers"] = [n.strip() for n in text.split(",") if n.strip()]
        return row

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Once results exist the entry lists are shown by the race pages, not edited here.
        return [f for f in self.fields if f != "entered"] if setup_locked(obj) else self.fields


@admin.register(League)
class LeagueAdmin(PointsStandings, SetupAdmin):
    list_display = ["name", "club", "game", "public", "standings_through", "created_at"]
    list_filter = ["public", "club"]
    search_fields = ["name", "game", "club__name"]
    inlines = [DriverInline, RaceInline]
    readonly_fields = ["points_preset", "standings_through", "standings_table"]
    fields = ["club", "name", "public", *SETTINGS, *readonly_fields]
    locked_fields = ("club", *SETTINGS)

    def setup_data(
        self, cleaned: dict[str, Any], rows: dict[str, list[dict[str, Any]]]
    ) -> dict[str, Any]:
        return {**{key: cleaned.get(key) for key in SETTINGS}, **rows}

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        setup = getattr(form, "checked_setup", None)
        if setup is None:
            super().save_related(request, form, formsets, change)
            return
        # The checked set-up replaces the drivers and races whole, as a set-up PATCH does (no
        # race has results yet, so nothing refers to these rows).
        Race.objects.filter(competition=form.instance).delete()
        Driver.objects.filter(league=form.instance).delete()
        self.kind().write_setup(form.instance, setup)
        for each in formsets:  # read by the admin's change message
            each.new_objects, each.changed_objects, each.deleted_objects = [], [], []


@admin.register(Race)
class RaceAdmin(EventAdminMixin, ClubScopedAdmin):
    list_display = ["competition", "number", "name", "status", "source", "version"]
    search_fields = ["competition__name", "name"]
    fields = readonly_fields = EventAdminMixin.event_fields("name", "drivers")
    entrant_label = _("driver")

    results_form = RESULTS

    def results_formset(self, race: Race, data: Any = None) -> Any:
        return formset(race.competition, race, data)
