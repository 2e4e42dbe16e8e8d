"""Admin for Formula D championships: an organiser can run a whole championship from here.

Set up the championship with its drivers and races (checked as a whole by the API's set-up
check before anything is stored), enter each race's results with the same form and checks as the
scorekeeper page, read the standings, and resolve failed races again.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournament.championships.forms import RESULTS, DriverRowFormSet, initial_rows
from tournament.championships.models import (
    Championship,
    Driver,
    Race,
)
from tournament.competitions.admin_base import (
    ClubScopedAdmin,
    EventAdminMixin,
    EventSetupInline,
    PointsStandings,
    SetupAdmin,
    SetupInline,
)


class DriverInline(SetupInline, admin.TabularInline):
    model = Driver
    extra = 0
    fields = ["order", "name", "team", "build"]
    setup_key = "drivers"
    number_field = "order"

    def setup_row(self, form: Any) -> dict[str, Any]:
        data = form.cleaned_data
        # "pk" is no key of the request: ChampionshipAdmin names the races' drivers with it.
        return {
            "name": data["name"],
            "team": data.get("team") or None,
            "build": data.get("build"),
            "pk": form.instance.pk,
        }


class RaceInlineForm(forms.ModelForm):
    # Empty: every driver of the championship (FD-78), as an API request that omits them.
    drivers = forms.JSONField(label=_("drivers entered"), required=False)

    class Meta:
        model = Race
        fields = ["number", "circuit", "laps", "drivers"]

    def save(self, commit: bool = True) -> Any:
        # An empty box is "every driver": the row is stored with none for a moment, and
        # ChampionshipAdmin.save_related writes the checked entry list (a NULL was a 500).
        if self.instance.drivers is None:
            self.instance.drivers = []
        return super().save(commit)


class RaceInline(EventSetupInline, admin.TabularInline):
    model = Race
    form = RaceInlineForm
    setup_key = "races"
    number_field = "number"
    extra = 0
    fields = ["number", "circuit", "laps", "drivers", "status", "version", "results_link"]
    readonly_fields = ["status", "version", "results_link"]
    ordering = ["number"]

    def setup_row(self, form: Any) -> dict[str, Any]:
        data = form.cleaned_data
        return {
            "circuit": data["circuit"],
            "laps": data.get("laps"),
            "drivers": data.get("drivers"),
        }


def entered_names(entered: Any, names: dict[Any, str]) -> list[str] | None:
    """A race's entry box as the request's names: ids of saved drivers, or names as typed."""
    if entered is None:
        return None
    if not isinstance(entered, list):
        return [str(entered)]  # not a list: the API's check says so
    return [names.get(item, str(item)) if isinstance(item, int) else str(item) for item in entered]


@admin.register(Championship)
class ChampionshipAdmin(PointsStandings, SetupAdmin):
    list_display = ["name", "club", "public", "rule_set", "seed", "standings_through", "created_at"]
    list_filter = ["public", "rule_set", "club"]
    search_fields = ["name", "club__name"]
    inlines = [DriverInline, RaceInline]
    readonly_fields = ["standings_through", "standings_table"]
    locked_fields = ("club", "seed", "rule_set", "points", "points_preset", "rules")
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

    def setup_data(
        self, cleaned: dict[str, Any], rows: dict[str, list[dict[str, Any]]]
    ) -> dict[str, Any]:
        drivers = rows.get("drivers", [])
        names = {row.pop("pk"): row["name"] for row in drivers}
        races = [
            # The page keeps the ids of the drivers entered (or their names, for drivers not
            # saved yet); the request names them (FD-78). Only an empty box means everyone: an
            # entry list naming nobody is the API's 400, not "every driver" (issue #15, item 7).
            {**race, "drivers": entered_names(race["drivers"], names)}
            for race in rows.get("races", [])
        ]
        points = cleaned.get("points_preset") or cleaned.get("points") or None
        return {
            "rule_set": cleaned.get("rule_set") or "basic",
            "points": points,
            "drivers": drivers,
            "races": races,
            "rules": cleaned.get("rules") or {},
        }

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        checked = getattr(form, "checked_setup", None)
        if checked is None:
            return
        # The races as the check completed them (FD-78 entries by name, FD-37 default laps,
        # the shipped circuit's name), with the ids the drivers have now that they are saved.
        championship = form.instance
        ids = dict(Driver.objects.filter(championship=championship).values_list("name", "pk"))
        races = Race.objects.filter(competition=championship).order_by("number")
        for race, setup in zip(races, checked["races"], strict=False):
            race.circuit, race.laps = setup["circuit"], setup["laps"]
            race.drivers = [ids[name] for name in setup["drivers"]]
            race.save(update_fields=["circuit", "laps", "drivers"])


@admin.register(Race)
class RaceAdmin(EventAdminMixin, ClubScopedAdmin):
    list_display = ["competition", "number", "circuit", "laps", "status", "source", "version"]
    search_fields = ["competition__name", "circuit"]
    fields = readonly_fields = EventAdminMixin.event_fields("circuit", "laps", "drivers")

    entrant_label = _("driver")
    results_form = RESULTS

    def results_formset(self, race: Race, data: Any = None) -> Any:
        if data is not None:
            return DriverRowFormSet(data)
        return DriverRowFormSet(initial=initial_rows(race))
