"""Admin for Grand Tours: an organiser can run a whole tour from here.

Set up the tour with its stages and teams (each team's two riders on its row), checked as a whole
by the same set-up check as the API before anything is stored; enter each stage's results with
the same form and checks as the scorekeeper page, and read the standings; failed stages can be
resolved again with an action.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.flamme_rouge.track import CourseError, parse_course
from scoring.clock import clock
from scoring.grand_tour import specialist_order
from tournament.competitions.admin_base import (
    ClubScopedAdmin,
    EventAdminMixin,
    EventSetupInline,
    SetupAdmin,
    SetupInline,
)
from tournament.competitions.services import results_stored
from tournament.tours.forms import RESULTS, RiderRowFormSet, initial_rows
from tournament.tours.kind import load_setup
from tournament.tours.loading import stage_rules
from tournament.tours.models import (
    Rider,
    RiderRole,
    Stage,
    Team,
    Tour,
)
from tournament.tours.setup import SPECIALIST_BASE


def _locked(tour: Tour | None) -> bool:
    return results_stored(Stage, tour)


class StageInlineForm(forms.ModelForm):
    class Meta:
        model = Stage
        fields = ["number", "name", "course", "finish", "stacks", "rest_day_after"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        course = data.get("course")
        if course:
            tour = self.instance.competition if self.instance.competition_id else None
            rules = stage_rules(tour.rules) if tour is not None else None
            try:
                parsed = parse_course(course, rules=rules)
            except CourseError:
                pass  # the tour's set-up check (the API's) names the bad tile on this box
            else:
                data["finish"] = parsed.finish
        return data


class StageInline(EventSetupInline, admin.TabularInline):
    model = Stage
    form = StageInlineForm
    setup_key = "stages"
    number_field = "number"
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

    def setup_row(self, form: Any) -> dict[str, Any]:
        data = form.cleaned_data
        return {
            "name": data.get("name") or "",
            "course": data.get("course") or "",
            "finish": data.get("finish") or "flat",
            "stacks": data.get("stacks") or [],
            # Not a key of the create request's stage: TourAdmin turns it into rest_days_after.
            "rest_day_after": bool(data.get("rest_day_after")),
        }


def _specialist_field() -> forms.ChoiceField:
    choices = [("", "—")] + [(name, name.replace("_", " ")) for name in SPECIALIST_BASE]
    return forms.ChoiceField(choices=choices, required=False, label=_("specialist"))


class TeamInlineForm(forms.ModelForm):
    """A team with its two riders on one row (GT vocabulary: a Rouleur and a Sprinteur).

    The rider boxes may be left empty here: the tour's set-up check (the API's) says what a
    team lacks, on this row, and nothing is stored.
    """

    rouleur = forms.CharField(label=_("Rouleur"), max_length=80, required=False)
    rouleur_specialist = _specialist_field()
    sprinteur = forms.CharField(label=_("Sprinteur"), max_length=80, required=False)
    sprinteur_specialist = _specialist_field()

    class Meta:
        model = Team
        fields = ["order", "name", "player"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            for rider in self.instance.riders.all():
                self.fields[rider.role].initial = rider.name
                self.fields[f"{rider.role}_specialist"].initial = rider.specialist

    def riders(self) -> list[dict[str, Any]]:
        """The riders typed on the row, in the create request's shape (blank names left out)."""
        data = self.cleaned_data
        return [
            {"name": data[role], "role": role, "specialist": data.get(f"{role}_specialist") or ""}
            for role in (RiderRole.ROULEUR, RiderRole.SPRINTEUR)
            if (data.get(role) or "").strip()
        ]

    def save(self, commit: bool = True) -> Team:
        team: Team = super().save(commit=commit)
        if commit:
            # The set-up check passed: exactly one rouleur and one sprinteur (GT vocabulary).
            Rider.objects.filter(team=team).delete()
            Rider.objects.bulk_create(
                Rider(
                    team=team,
                    name=rider["name"].strip(),
                    role=rider["role"],
                    specialist=rider["specialist"],
                )
                for rider in self.riders()
            )
        return team


class TeamInline(SetupInline, admin.TabularInline):
    model = Team
    form = TeamInlineForm
    setup_key = "teams"
    number_field = "order"
    extra = 0
    fields = [
        "order",
        "name",
        "player",
        "rouleur",
        "rouleur_specialist",
        "sprinteur",
        "sprinteur_specialist",
    ]

    def setup_row(self, form: Any) -> dict[str, Any]:
        data = form.cleaned_data
        return {"name": data["name"], "player": data.get("player") or "", "riders": form.riders()}

    @admin.display(description=_("riders"))
    def riders_list(self, team: Team) -> str:
        return ", ".join(r.name for r in team.riders.all()) if team.pk else ""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Once results exist the riders are shown, not edited (the rider boxes are no fields).
        return ["order", "name", "player", "riders_list"] if _locked(obj) else self.fields


@admin.register(Tour)
class TourAdmin(SetupAdmin):
    # The whole create request, as POST /api/tours/: a seed out of range, a blank name… too.
    check_whole_request = True
    # A Rest Day's place is a box of a stage row: its errors are shown above the stages.
    error_lists = {"rest_days_after": "stages"}
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

    def setup_data(
        self, cleaned: dict[str, Any], rows: dict[str, list[dict[str, Any]]]
    ) -> dict[str, Any]:
        stages = rows.get("stages", [])
        rest = [n for n, stage in enumerate(stages, start=1) if stage.pop("rest_day_after")]
        return {
            "stages": stages,
            "teams": rows.get("teams", []),
            "rest_days_after": rest,
            "rules": cleaned.get("rules") or {},
        }

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        tour = form.instance
        if not _locked(tour):
            # GT-1.3: the pick order follows the teams entered.
            tour.specialist_order = list(specialist_order(load_setup(tour)))
            tour.save(update_fields=["specialist_order"])

    standings_caption = _("After stage %(n)s")
    standings_headings = ("#", _("rider"), _("time"), "TP")

    def standings_rows(self, data: dict[str, Any]) -> list[tuple[Any, ...]]:
        tp = {row["team"]: row["total"] for row in data.get("tour_points", [])}
        general = data.get("general", [])
        # Times as the pages write them (m:ss / h:mm:ss), never raw seconds (issue #16).
        return [(r["rank"], r["name"], clock(r["time"]), tp.get(r["team"], "")) for r in general]


@admin.register(Stage)
class StageAdmin(EventAdminMixin, ClubScopedAdmin):
    list_display = ["competition", "number", "name", "status", "source", "version", "resolved_at"]
    search_fields = ["competition__name", "name"]
    fields = EventAdminMixin.event_fields("name")
    readonly_fields = [f for f in fields if f != "name"]
    entrant_label = _("rider")
    results_form = RESULTS

    def results_formset(self, stage: Stage, data: Any = None) -> Any:
        if data is not None:
            return RiderRowFormSet(data)
        return RiderRowFormSet(initial=initial_rows(stage, self._riders(stage)))

    def results_rows(self, stage: Stage, formset: Any) -> list[tuple[Any, str]]:
        names = {r.pk: f"{r.name} ({r.team.name})" for r in self._riders(stage)}
        return [(form, names.get(_int(form["rider"].value()) or 0, "")) for form in formset.forms]

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
