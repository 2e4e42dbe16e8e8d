"""Enter a Grand Tour stage from the board (issue #15 item 6).

Instead of typing minutes and seconds, the scorekeeper copies what the table shows (GT-2): for
each rider, the round in which he crossed the line (counted from the first round in which anyone
crossed) and the square past the line of the foremost rider of his pack, plus his place in the
pack when it holds several riders. The times are computed by ``scoring.grand_tour.timing``, the
code the Flamme Rouge engine reads the Timing tile with, from the tour's Timing tile values on
the stage's finish side; the page shows them (a preview), then submits ordinary results through
the same service as the typed form and the API.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring.clock import clock
from scoring.grand_tour import StageSpec
from scoring.grand_tour.timing import BoardTime, Crossing, board_issues, board_times
from scoring.grand_tour.validation import timing_values
from scoring.issues import Issue
from tournament.competitions.forms import set_form_errors, submit_rows
from tournament.competitions.kinds import get_kind
from tournament.fields import FormIntegerField
from tournament.tours.loading import gt_rules
from tournament.tours.models import Stage, Tour
from tournament.tours.pages import get_tour
from tournament.web import pages
from tournament.web.access import require_write_role

#: The boxes the service's errors may name (the others go on the rider's card).
POINT_FIELDS = ("sprint_points", "mountain_points", "exhaustion")
MAX_ROUNDS = 20  # rounds after the first crossing: far beyond a real stage's tail

MESSAGES: dict[str, Any] = {
    "board_unknown_rider": gettext_lazy("This rider does not ride in this tour."),
    "board_repeated_rider": gettext_lazy("This rider is listed twice; list each rider once."),
    "board_missing": gettext_lazy("%(name)s has no round: every rider crosses the line."),
    "board_round": gettext_lazy("Rounds count from 1."),
    "board_front": gettext_lazy("The foremost rider stands 1 to %(max)s squares past the line."),
    "board_place": gettext_lazy("Places count from 1."),
    "board_place_taken": gettext_lazy(
        "Another rider of this pack (same round, same foremost square) has place %(place)s."
    ),
    "board_no_first_round": gettext_lazy(
        "Round 1 is the first round in which a rider crossed, so some rider crossed in it."
    ),
}


class BoardRowForm(forms.Form):
    """One rider's card: what the board shows when he crossed, and his tokens and cards."""

    rider = FormIntegerField(widget=forms.HiddenInput)
    round = forms.TypedChoiceField(label=gettext_lazy("round"), coerce=int)
    front = forms.TypedChoiceField(label=gettext_lazy("pack front"), coerce=int)
    place = forms.TypedChoiceField(
        label=gettext_lazy("place in pack"), coerce=int, required=False, empty_value=None
    )
    sprint_points = FormIntegerField(
        label=gettext_lazy("sprint points"), required=False, min_value=0, max_value=100000
    )
    mountain_points = FormIntegerField(
        label=gettext_lazy("mountain points"), required=False, min_value=0, max_value=100000
    )
    exhaustion = FormIntegerField(
        label=gettext_lazy("exhaustion"), required=False, min_value=0, max_value=100000
    )

    def __init__(
        self, *args: Any, tile: Sequence[int] = (), riders: int = 0, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        fields: dict[str, Any] = self.fields
        fields["round"].choices = [("", "—")] + [(n, str(n)) for n in range(1, MAX_ROUNDS + 1)]
        # The seconds beside each square, so the box reads like the tile itself.
        fields["front"].choices = [("", "—")] + [
            (k, f"{k} · {clock(seconds)}") for k, seconds in enumerate(tile, start=1)
        ]
        fields["place"].choices = [("", "—")] + [(n, str(n)) for n in range(1, riders + 1)]


class BaseBoardFormSet(forms.BaseFormSet):
    """The cards of every rider; each form gets the stage's tile and the number of riders."""

    def __init__(
        self, *args: Any, tile: Sequence[int] = (), riders: int = 0, **kwargs: Any
    ) -> None:
        self.tile, self.riders = tile, riders
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "tile": self.tile, "riders": self.riders}


BoardFormSet: Any = forms.formset_factory(BoardRowForm, formset=BaseBoardFormSet, extra=0)


def initial_board(stage: Stage, riders: Sequence[Any], tile: Sequence[int]) -> list[dict[str, Any]]:
    """The cards in entry order, read back from stored results where the tile allows.

    A stored time gives its round (``minutes + 1``, GT-2.3) and, when its seconds are printed
    on the tile, the first square showing them; places follow the stored positions.
    """
    stored = {row["rider"]: row for row in stage.results}
    rows: list[dict[str, Any]] = []
    seen: dict[tuple[int, int], int] = {}
    for row in sorted(stage.results, key=lambda r: r["position"]):
        if row["seconds"] in tile:
            key = (row["minutes"] + 1, tile.index(row["seconds"]) + 1)
            seen[key] = seen.get(key, 0) + 1
            row = {**row, "_round": key[0], "_front": key[1], "_place": seen[key]}
            stored[row["rider"]] = row
    for rider in riders:
        row = stored.get(rider.pk, {})
        rows.append(
            {
                "rider": rider.pk,
                "round": row.get("_round"),
                "front": row.get("_front"),
                "place": row.get("_place"),
                "sprint_points": row.get("sprint_points"),
                "mountain_points": row.get("mountain_points"),
                "exhaustion": row.get("exhaustion"),
            }
        )
    return rows


def _crossings(formset: Any) -> list[Crossing]:
    return [
        Crossing(
            rider=form.cleaned_data["rider"],
            round=form.cleaned_data["round"],
            front=form.cleaned_data["front"],
            place=form.cleaned_data.get("place"),
        )
        for form in formset.forms
    ]


def _put_issues(formset: Any, issues: list[Issue], names: dict[int, str]) -> None:
    """Each board issue on the box (or card) it names, in the reader's language."""
    general = []
    for issue in issues:
        template = MESSAGES.get(issue.code)
        params = {**issue.params, "name": names.get(issue.params.get("rider", 0), "")}
        text = str(template) % params if template is not None else issue.message
        if issue.index is not None and issue.index < len(formset.forms):
            formset.forms[issue.index].add_error(issue.field, text)
        else:
            general.append(text)
    if general:
        set_form_errors(formset, general)


def compute(
    formset: Any,
    tile: Sequence[int],
    riders: Sequence[int],
    *,
    dummies: bool,
    names: dict[int, str],
) -> list[BoardTime] | None:
    """The stage's times from a valid formset (GT-2), or None with the errors on its boxes."""
    if not formset.is_valid():
        return None
    crossings = _crossings(formset)
    issues = board_issues(crossings, riders, tile, dummies=dummies)
    if issues:
        _put_issues(formset, issues, names)
        return None
    return board_times(crossings, tile)


def api_rows(formset: Any, times: list[BoardTime]) -> list[dict[str, Any]]:
    """The results body, one row per card in card order (service errors map back by index)."""
    by_rider = {t.rider: t for t in times}
    rows = []
    for form in formset.forms:
        data = form.cleaned_data
        time = by_rider[data["rider"]]
        rows.append(
            {
                "rider": data["rider"],
                "position": time.position,
                "minutes": time.minutes,
                "seconds": time.seconds,
                "sprint_points": data.get("sprint_points") or 0,
                "mountain_points": data.get("mountain_points") or 0,
                "exhaustion": data.get("exhaustion"),
            }
        )
    return rows


def _stage_tile(tour: Tour, stage: Stage) -> list[int]:
    finish: Literal["flat", "ascent"] = "ascent" if stage.finish == "ascent" else "flat"
    return list(timing_values(StageSpec(stage.number, finish), gt_rules(tour.rules)))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def board_entry(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The board entry page: preview the times (``action=preview``) or submit them."""
    tour = get_tour(pk, request.user)
    require_write_role(request.user, tour)
    kind = get_kind("tour")
    stage: Stage = pages.event_or_404(kind, tour, number)
    riders = [rider for team in tour.teams.all() for rider in team.riders.all()]
    names = {rider.pk: rider.name for rider in riders}
    tile = _stage_tile(tour, stage)
    rules = gt_rules(tour.rules)
    sizes = {"tile": tile, "riders": len(riders)}
    times: list[BoardTime] | None = None
    version = stage.version
    if request.method == "POST":
        formset = BoardFormSet(request.POST, **sizes)
        version = pages.form_version(request, stage.version)
        times = compute(
            formset, tile, list(names), dummies=rules.dummy_teams != "none", names=names
        )
        if times is not None and request.POST.get("action") == "submit":
            stored = submit_rows(
                formset,
                kind=kind,
                event=stage,
                rows=api_rows(formset, times),
                user=request.user,
                version=version,
                row_fields=POINT_FIELDS,
            )
            if stored is not None:
                pages.results_stored(
                    request, stage, _("Results stored; the stage is being resolved.")
                )
                page = pages.pages_of("tour")
                assert page is not None
                return HttpResponseRedirect(page.event_url(tour.pk, stage.number))
    else:
        formset = BoardFormSet(initial=initial_board(stage, riders, tile), **sizes)
    teams = {rider.pk: team for team in tour.teams.all() for rider in team.riders.all()}
    cards = []
    for form in formset.forms:
        try:
            rider_id = int(form["rider"].value())
        except (TypeError, ValueError):
            rider_id = 0
        cards.append({"form": form, "name": names.get(rider_id, ""), "team": teams.get(rider_id)})
    problems = [
        (card["name"], [e for errors in card["form"].errors.values() for e in errors])
        for card in cards
        if card["form"].errors
    ]
    context = {
        "problems": [*[("", [str(e)]) for e in formset.non_form_errors()], *problems],
        "tour": tour,
        "stage": stage,
        "formset": formset,
        "cards": cards,
        "version": version,
        "stale": version != stage.version,
        "tile": [clock(s) for s in tile],
        "timing_tile": rules.timing_tile,
        "dummies": rules.dummy_teams != "none",
        "preview": [
            {"time": t, "name": names.get(t.rider, ""), "team": teams.get(t.rider)}
            for t in times or []
        ],
    }
    if request.headers.get("X-Podium-Preview") == "1":
        return render(request, "web/board_entry_preview.html", context)
    return render(request, "web/board_entry.html", context)
