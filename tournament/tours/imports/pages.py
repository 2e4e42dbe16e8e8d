"""``/clubs/<slug>/import/``: the organisers' page to upload a Companion backup or a CSV file.

The page runs the API's own readers and service (:mod:`.companion`, :mod:`.csv_format`,
:func:`.services.import_tour`), so it refuses exactly what the API refuses; each problem is
listed with the place in the file it points at (``game.gameResults.entries[2]...`` or
``line 5, time``). A stored tour opens on its page, with the Tour Points differences, if any,
shown as messages.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournament.clubs.models import Club, Role, role_in
from tournament.competitions.errors import InvalidInput
from tournament.fields import FormIntegerField
from tournament.tours.imports import companion, csv_format
from tournament.tours.imports.plan import flatten, to_path_text
from tournament.tours.imports.services import import_tour
from tournament.tours.setup import MAX_STAGES
from tournament.tours.views import PAGES

#: Differences listed one by one on the tour page; the rest are counted (the history has all).
SHOWN_DIFFERENCES = 10


class CompanionForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Companion backup (.json)"),
        help_text=gettext_lazy("In the Companion: More, Export Game."),
    )
    name = forms.CharField(
        label=gettext_lazy("Tour name"),
        max_length=160,
        required=False,
        help_text=gettext_lazy("Leave empty to use the game's name."),
    )
    public = forms.BooleanField(label=gettext_lazy("Public"), required=False, initial=True)


class CsvForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file"))
    name = forms.CharField(label=gettext_lazy("Tour name"), max_length=160)
    stages = FormIntegerField(
        label=gettext_lazy("Stages in the tour"),
        min_value=1,
        max_value=MAX_STAGES,
        required=False,
        help_text=gettext_lazy("Only when the tour has more stages than the file names."),
    )
    public = forms.BooleanField(label=gettext_lazy("Public"), required=False, initial=True)


def _organised_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if role_in(club.pk, request.user) != Role.ORGANISER:
        raise PermissionDenied
    return club


def _problems(detail: Any) -> list[str]:
    """Every message of a 400 with the place in the file it points at."""
    found = []
    for path, message in flatten(detail):
        # Places in the file itself: a CSV's read "line 5, time", a backup's
        # "game.gameResults.entries[2]..." (the API's root key, csv or document, left out).
        where = path[1:] if path and path[0] in (csv_format.ROOT, companion.ROOT) else path
        csv_place = bool(where) and str(where[0]).startswith(("line ", "stage "))
        place = ", ".join(str(step) for step in where) if csv_place else to_path_text(where)
        found.append(f"{place}: {message}" if place else message)
    return found


def _read_upload(upload: Any) -> bytes:
    if upload.size is not None and upload.size > csv_format.MAX_BYTES:
        raise InvalidInput(
            {"file": [_("The file is larger than %(n)s KB.") % {"n": csv_format.MAX_BYTES // 1024}]}
        )
    data: bytes = upload.read()
    return data


def _import(request: HttpRequest, club: Club, action: str, form: forms.Form) -> Any:
    """The imported tour; InvalidInput (its problems shown) when the file cannot be read."""
    data = form.cleaned_data
    raw = _read_upload(data["file"])
    if action == "companion":
        try:
            document = json.loads(csv_format.decode(raw))
        except ValueError:
            raise InvalidInput({"file": [_("The file is not a JSON backup.")]}) from None
        plan = companion.read_companion(document, name=data["name"].strip())
    else:
        plan = csv_format.read_csv(
            csv_format.decode(raw), name=data["name"], stage_count=data.get("stages")
        )
    return import_tour(plan=plan, club=club, by=request.user, public=data["public"])


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _organised_club(request, slug)
    forms_by_action: dict[str, forms.Form] = {"companion": CompanionForm(), "csv": CsvForm()}
    problems: list[str] = []
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action in forms_by_action:
        form_class = CompanionForm if action == "companion" else CsvForm
        form = form_class(request.POST, request.FILES, prefix=None)
        forms_by_action[action] = form
        if form.is_valid():
            try:
                imported = _import(request, club, action, form)
            except InvalidInput as exc:
                problems = _problems(exc.detail)
            else:
                messages.success(
                    request,
                    _("Tour imported: %(n)s stages with results, being resolved.")
                    % {"n": imported.tour.stages.exclude(version=0).count()},
                )
                for diff in imported.differences[:SHOWN_DIFFERENCES]:
                    messages.warning(request, _difference_text(diff))
                if len(imported.differences) > SHOWN_DIFFERENCES:
                    messages.warning(
                        request,
                        _("%(n)s more Tour Points differences: see the tour's history.")
                        % {"n": len(imported.differences) - SHOWN_DIFFERENCES},
                    )
                return HttpResponseRedirect(PAGES.competition_url(imported.tour.pk))
    context = {
        "club": club,
        "companion_form": forms_by_action["companion"],
        "csv_form": forms_by_action["csv"],
        "action": action,
        "problems": problems,
        "columns": csv_format.COLUMNS,
    }
    failed = bool(problems) or any(f.errors for f in forms_by_action.values())
    return render(request, "web/imports/page.html", context, status=400 if failed else 200)


def _difference_text(diff: dict[str, Any]) -> str:
    values = {
        "team": diff["team_name"],
        "stage": diff["stage"],
        "file": diff["file"],
        "podium": diff["podium"],
    }
    if diff["entry"] == "rest_day":
        return (
            _(
                "Rest Day after stage %(stage)s: the backup gives %(team)s %(file)s Tour Points, "
                "Podium %(podium)s (kept)."
            )
            % values
        )
    return (
        _(
            "Stage %(stage)s: the backup gives %(team)s %(file)s Tour Points, Podium "
            "%(podium)s (kept)."
        )
        % values
    )
