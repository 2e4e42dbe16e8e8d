"""Rally pages: the rally (overall, stage-by-stage, time-gap chart), the rally championship,
and the scorekeeper's stage sheet with a preview of the computed times before saving.

Every page reads a fixed number of queries whatever the rally's size: the rally with its stages
and drivers prefetched, and all its snapshots in one query (``pages``). The addresses come from
``PAGES`` and the registry (``tournament.web.pages``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from scoring.clock import clock
from tournament.clubs.models import Role, role_in
from tournament.competitions import services as workflow
from tournament.competitions import simulation
from tournament.competitions.errors import Conflict, InvalidInput, VersionConflict
from tournament.competitions.forms import set_form_errors
from tournament.competitions.kinds import AnyKind, get_kind
from tournament.rallies import championship_setup, pages, services, setup_pages
from tournament.rallies.forms import DriverRowFormSet, apply_errors, initial_rows, sheet_rows
from tournament.rallies.models import Rally, RallyStage
from tournament.rallies.setup import layout_name
from tournament.web import pages as web_pages
from tournament.web import replay_progress
from tournament.web.access import may_write, require_write_role


def _kind() -> AnyKind:
    return get_kind("rally")


@require_safe
def rally(request: HttpRequest, pk: int) -> HttpResponse:
    """Stages, the overall classification, stage times and the time-gap chart."""
    rally = pages.get_rally(pk, request.user)
    snapshots = web_pages.load_snapshots(_kind(), rally)
    data = web_pages.standings(_kind(), rally, web_pages.after_param(request, _kind()), snapshots)
    shown = data.get("after_stage")
    names = pages.names_of(rally)
    stages = list(rally.stages.all())
    web_pages.settle_banners(request, *stages)
    context = {
        "rally": rally,
        "shown": shown,
        "stage_count": len(stages),
        "after_choices": range(1, (rally.standings_through or 0) + 1),
        "events": pages.stage_list(rally, snapshots, names),
        "overall": pages.overall_table(data),
        "stage_times": pages.stage_by_stage_table(data, names),
        "chart": pages.gap_chart(snapshots, shown, names),
        "can_write": may_write(request.user, rally),
        "can_organise": role_in(rally.club_id, request.user) == Role.ORGANISER,
        "stages": stages,
        # The championships counting this rally, linked from its page (issue #16).
        "championships": list(rally.championships.visible_to(request.user).order_by("name")),
    }
    return render(request, "web/rallies/rally.html", context)


@require_safe
def stage(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One special stage: its status, layout, classification and the overall after it."""
    rally = pages.get_rally(pk, request.user)
    stage = web_pages.event_or_404(_kind(), rally, number, defer=("results",))
    snapshot = web_pages.event_snapshot(_kind(), rally, stage)
    names = pages.names_of(rally)
    context = {
        "rally": rally,
        "stage": stage,
        "status_label": web_pages.status_label(stage.status),
        "layout": layout_name(stage.layout),
        "stages": list(rally.stages.all()),
        "classification": pages.stage_table(snapshot, stage.number, names),
        "overall": pages.overall_table(snapshot or {}),
        "resolved": snapshot is not None,
        "progress": replay_progress.rallyman_progress(
            simulation.replay_of(kind=_kind(), event=stage)
            if stage.source == "simulated"
            else None,
            stage.layout,
            names,
        ),
        "can_write": may_write(request.user, rally),
    }
    return render(request, "web/rallies/stage.html", context)


@require_safe
def championship(request: HttpRequest, pk: int) -> HttpResponse:
    """The championship's rallies and its standings (RM-47 to RM-51)."""
    championship = pages.get_championship(pk, request.user)
    try:
        data = services.rally_championship_standings(
            championship=championship,
            after=web_pages.after_param(request, _kind(), "after_rally"),
        )
    except InvalidInput as exc:
        raise BadRequest(str(exc.detail)) from None
    except Conflict as exc:
        raise BadRequest(str(exc.detail)) from None
    entries = list(championship.entries.all())
    counted = data.get("after_rally") or 0
    context = {
        "championship": championship,
        "entries": [(e.order, e.rally, e.order <= counted) for e in entries],
        "table": pages.championship_table(data, len(entries)),
        "counted": counted,
        "rally_count": len(entries),
        "can_organise": role_in(championship.club_id, request.user) == Role.ORGANISER,
    }
    return render(request, "web/rallies/championship.html", context)


def _sheet_context(pk: Any, number: Any, user: Any) -> tuple[Rally, RallyStage]:
    """The rally and its stage ``number`` (with its results) for a scorekeeper, else 404/403."""
    rally = pages.get_rally(pk, user)
    require_write_role(user, rally)
    stage: RallyStage = web_pages.event_or_404(_kind(), rally, number)
    return rally, stage


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def stage_results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Enter or correct a stage sheet: a time or a turn log per driver (RM-52).

    "Preview" shows the computed times (or the errors) without storing anything; "Submit" stores
    through the service, whose RM-53 errors come back onto the boxes they name.
    """
    rally, stage = _sheet_context(pk, number, request.user)
    drivers = [(d.pk, d.name) for d in rally.drivers.all()]
    names = dict(drivers)
    version = stage.version
    preview: dict[int, dict[str, Any]] = {}
    if request.method == "POST":
        formset = DriverRowFormSet(request.POST)
        version = web_pages.form_version(request, stage.version)
        if formset.is_valid():
            rows = sheet_rows(formset)
            try:
                if "preview" in request.POST:
                    computed = services.preview_stage_sheet(
                        rally=rally, number=stage.number, rows=rows
                    )
                    preview = {row["driver"]: row for row in computed}
                else:
                    workflow.submit_results(
                        kind=_kind(),
                        competition_id=rally.pk,
                        number=stage.number,
                        rows=rows,
                        by=request.user,
                        expected_version=version,
                    )
                    web_pages.results_stored(
                        request, stage, _("Results stored; the stage is being resolved.")
                    )
                    return HttpResponseRedirect(PAGES.competition_url(rally.pk))
            except InvalidInput as exc:
                apply_errors(formset, exc.detail)
            except VersionConflict:
                set_form_errors(
                    formset, [_("Someone changed these results meanwhile; reload the page.")]
                )
            except Conflict as exc:
                set_form_errors(formset, [str(exc.detail)])
    else:
        out = services.drivers_out_before(rally=rally, number=stage.number)
        formset = DriverRowFormSet(initial=initial_rows(stage.results, drivers, out))
    rows = []
    for form in formset.forms:
        try:
            driver = int(form["driver"].value())
        except (TypeError, ValueError):
            driver = 0
        rows.append({"form": form, "name": names.get(driver, ""), "preview": preview.get(driver)})
    context = {
        "rally": rally,
        "stage": stage,
        "formset": formset,
        "rows": rows,
        "version": version,
        "previewed": bool(preview),
    }
    return render(request, "web/rallies/stage_results.html", context)


@login_required
@require_safe
def log_preview(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    """The live preview of one turn log (RM-55) under the rally's rules, for the sheet page."""
    rally, _stage = _sheet_context(pk, number, request.user)
    log = request.GET.get("log", "")[:400]
    answer = services.preview_log(rally=rally, log=log, time=request.GET.get("time"))
    if "net_time" in answer:
        answer["text"] = _(
            "Net time %(time)s (cards %(cards)s s − %(tokens)s tokens, %(turns)s turns)"
        ) % {**answer, "time": clock(answer["net_time"])}
        if answer.get("mismatch"):
            answer["text"] += " · " + _("differs from the time given")
    return JsonResponse(answer)


PAGES = web_pages.KindPages(
    kind="rally",
    card_label=gettext_lazy("Rally"),
    progress=gettext_lazy("%(done)s of %(total)s stages"),
    competition=rally,
    event_name="stage",
    event=stage,
    results=stage_results,
    winner_path="overall__0__name",
    more_cards=pages.championship_cards,
    extra=(
        path("rallies/<int:pk>/stages/<int:number>/preview/", log_preview, name="log-preview"),
        path("rally-championships/<int:pk>/", championship, name="championship"),
        # The organisers' set-up pages (issue #15): tournament/rallies/setup_pages.py.
        path("clubs/<slug:slug>/rallies/new/", setup_pages.new, name="new"),
        path("rallies/<int:pk>/edit/", setup_pages.edit, name="edit"),
        path(
            "clubs/<slug:slug>/rally-championships/new/",
            championship_setup.new,
            name="championship-new",
        ),
        path(
            "rally-championships/<int:pk>/edit/", championship_setup.edit, name="championship-edit"
        ),
    ),
)
