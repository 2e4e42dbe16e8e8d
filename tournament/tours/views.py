"""Grand Tour pages: tour, stage, team, embed, CSV, the scorekeeper form and its live status.

Every page reads a fixed number of queries whatever the tour's size: the tour with its stages,
teams and riders prefetched, and all its standings snapshots in one query. The shared addresses
(``/tours/<id>/``, ``…/stages/<n>/``, ``…/results/``) come from ``PAGES`` and the registry
(``tournament.web.pages``); the tour's own pages are its ``extra``.
"""

from __future__ import annotations

from typing import Any, Literal

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods, require_safe

from scoring.grand_tour import StageSpec
from scoring.grand_tour.validation import timing_values
from tournament.clubs.models import Role, role_in
from tournament.competitions import simulation
from tournament.competitions.kinds import AnyKind, get_kind
from tournament.competitions.models import Status
from tournament.tours.forms import RESULTS, RiderRowFormSet, initial_rows
from tournament.tours.loading import gt_rules
from tournament.tours.models import Stage, StageResultVersion, Tour
from tournament.tours.pages import (
    CLASSIFICATIONS,
    JERSEY_NAMES,
    Names,
    classification_tables,
    gc_chart,
    get_tour,
    jersey_timeline,
    specialist_label,
    stage_list,
    start_order,
    team_url,
)
from tournament.tours.setup_page import TOUR_SETUP
from tournament.web import pages
from tournament.web.access import may_write, require_write_role, visible_or_404
from tournament.web.components import GAP, NUMBER, RANK, TEXT, TIME, Cell, Column, Row, Table
from tournament.web.exports import table_csv
from tournament.web.replay import build_replay


def _kind() -> AnyKind:
    return get_kind("tour")


def _standings(tour: Tour, snapshots: pages.Snapshots, request: HttpRequest | None) -> Any:
    """The standings the reader asked for (``?after_stage=N``; a 400 outside 1..through)."""
    after = pages.after_param(request, _kind()) if request is not None else None
    return pages.standings(_kind(), tour, after, snapshots)


@require_safe
def tour(request: HttpRequest, pk: int) -> HttpResponse:
    """Stages, classifications, Tour Points, start order, jersey timeline and GC chart."""
    tour = get_tour(pk, request.user)
    snapshots = pages.load_snapshots(_kind(), tour)
    data = _standings(tour, snapshots, request)
    shown = data.get("after_stage")
    names = Names.of(tour)
    stages = list(tour.stages.all())
    order = start_order(data, names)
    next_stage = (shown or 0) + 1 if order else None
    to_enter = next((s for s in stages if s.version == 0), None)
    context = {
        "tour": tour,
        "shown": shown,
        "through": tour.standings_through,
        "stage_count": len(stages),
        "after_choices": range(1, (tour.standings_through or 0) + 1),
        "tables": classification_tables(tour, data, names, after=shown),
        "events": stage_list(tour, snapshots, names),
        "timeline": jersey_timeline(snapshots, shown, names),
        "chart": gc_chart(snapshots, shown, names),
        "start_order": order,
        "next_stage": next_stage,
        "winner": names.team(data.get("winner")) if data.get("final") else "",
        "can_write": may_write(request.user, tour),
        "can_organise": role_in(tour.club_id, request.user) == Role.ORGANISER,
        "to_enter": to_enter,
    }
    return render(request, "web/tour.html", context)


@require_safe
@xframe_options_exempt  # meant to be framed by club websites
def embed_tour(request: HttpRequest, pk: int) -> HttpResponse:
    """Compact standings for an ``<iframe>``: jerseys, General and Tour Points."""
    tour = get_tour(pk, request.user)
    snapshots = pages.load_snapshots(_kind(), tour)
    data = _standings(tour, snapshots, request)
    names = Names.of(tour)
    tables = {
        t.slug: t for t in classification_tables(tour, data, names, after=data.get("after_stage"))
    }
    jerseys = [
        (key, label, names.rider((data.get("jerseys") or {}).get(key)))
        for key, label in JERSEY_NAMES.items()
    ]
    context = {
        "tour": tour,
        "shown": data.get("after_stage"),
        "stage_count": len(tour.stages.all()),
        "tables": [tables["general"], tables["tour_points"]],
        "jerseys": jerseys,
    }
    return render(request, "web/embed_tour.html", context)


@require_safe
def tour_csv(request: HttpRequest, pk: int, slug: str) -> HttpResponse:
    """One classification as CSV (``?after_stage=N`` as on the page)."""
    if slug not in CLASSIFICATIONS:
        raise Http404
    tour = get_tour(pk, request.user)
    snapshots = pages.load_snapshots(_kind(), tour)
    data = _standings(tour, snapshots, request)
    tables = classification_tables(tour, data, Names.of(tour), after=data.get("after_stage"))
    table = next(t for t in tables if t.slug == slug)
    suffix = f"after-{data['after_stage']}" if data.get("after_stage") else "start"
    return table_csv(table, filename=f"{tour.name}-{slug}-{suffix}")


def _results_table(tour: Tour, rows: list[dict[str, Any]], names: Names, slug: str) -> Table:
    """A stage's result rows (as stored) with their times and gaps to the stage winner."""
    ordered = sorted(rows, key=lambda r: r["position"])
    best = min((60 * r["minutes"] + r["seconds"] for r in ordered), default=0)
    body = []
    for row in ordered:
        time = 60 * row["minutes"] + row["seconds"]
        team = names.team_of(row["rider"])
        body.append(
            Row(
                (
                    Cell(row["position"], RANK),
                    Cell(names.rider(row["rider"]) or f"#{row['rider']}", TEXT),
                    Cell(
                        team.name if team else "",
                        TEXT,
                        href=team_url(tour, team.pk) if team else None,
                    ),
                    Cell(time, TIME),
                    Cell(time - best, GAP),
                    Cell(row.get("sprint_points", 0), NUMBER),
                    Cell(row.get("mountain_points", 0), NUMBER),
                    Cell(row.get("exhaustion"), NUMBER),
                )
            )
        )
    return Table(
        slug=slug,
        title=_("Results"),
        columns=(
            Column("position", _("Pos."), RANK),
            Column("rider", _("Rider"), TEXT),
            Column("team", _("Team"), TEXT),
            Column("time", _("Time"), TIME),
            Column("gap", _("Gap"), GAP),
            Column("sprint", _("Sprint"), NUMBER),
            Column("mountain", _("Mountain"), NUMBER),
            Column("exhaustion", _("Exhaustion"), NUMBER),
        ),
        rows=tuple(body),
    )


def _stage(tour: Tour, number: Any) -> Stage:
    stage: Stage = pages.event_or_404(_kind(), tour, number)
    return stage


def _live_context(tour: Tour, stage: Stage, data: dict[str, Any] | None) -> dict[str, Any]:
    """What the live status fragment shows: the status, and once resolved the new standings."""
    general = (data or {}).get("general", [])
    wearing = {rider: key for key, rider in ((data or {}).get("jerseys") or {}).items() if rider}
    return {
        "tour": tour,
        "stage": stage,
        "status_label": pages.status_label(stage.status),
        "polling": stage.status == Status.SUBMITTED,
        "general": [{**row, "jersey": wearing.get(row["rider"])} for row in general],
        "standings_url": PAGES.competition_url(tour.pk)
        + (f"?after_stage={stage.number}" if data else ""),
    }


@require_safe
def stage(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A stage: results, podium, jerseys taken, Rest Day awards and earlier versions."""
    tour = get_tour(pk, request.user)
    stage = _stage(tour, number)
    pages.settle_banners(request, stage)
    names = Names.of(tour)
    data = pages.event_snapshot(_kind(), tour, stage)
    versions = list(
        StageResultVersion.objects.filter(event=stage)
        .select_related("created_by")
        .defer("replay")
        .order_by("-number")
    )
    podium_tp = list(gt_rules(tour.rules).podium_tp)
    podium = [
        (row, names.rider(row["rider"]), podium_tp[i] if i < len(podium_tp) else 0)
        for i, row in enumerate(sorted(stage.results, key=lambda r: r["position"])[:3])
    ]
    summary = (data or {}).get("stage") or {}
    jerseys = (
        [
            (key, label, names.rider(((data or {}).get("jerseys") or {}).get(key)))
            for key, label in JERSEY_NAMES.items()
        ]
        if data
        else []
    )
    context = {
        "tour": tour,
        "stage": stage,
        "stages": list(tour.stages.all()),
        "results": _results_table(tour, stage.results, names, "results") if stage.results else None,
        "podium": podium,
        "jerseys": jerseys,
        "rest_day_awards": [
            (
                CLASSIFICATIONS.get(award["classification"], award["classification"]),
                names.rider(award["rider"]),
            )
            for award in summary.get("rest_day_awards", [])
        ],
        "previous": [
            (version, _results_table(tour, version.rows, names, f"v{version.number}"))
            for version in versions
            if version.number != stage.version
        ],
        "current_version": next((v for v in versions if v.number == stage.version), None),
        "replay": build_replay(simulation.replay_of(kind=_kind(), event=stage), names.rider),
        "can_write": may_write(request.user, tour),
        **_live_context(tour, stage, data),
    }
    return render(request, "web/stage.html", context)


@require_safe
def stage_live(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The status fragment the stage page polls every second until the stage settles."""
    tour = visible_or_404(Tour.objects.select_related("club"), pk, request.user)
    stage = _stage(tour, number)
    return render(
        request,
        "web/_stage_live.html",
        _live_context(tour, stage, pages.event_snapshot(_kind(), tour, stage)),
    )


@require_safe
def team(request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
    """A player's sheet: riders, Tour Points by source and stage, exhaustion carried."""
    tour = get_tour(pk, request.user)
    names = Names.of(tour)
    team = names.teams.get(team_id)
    if team is None:
        raise Http404
    snapshots = pages.load_snapshots(_kind(), tour)
    data = _standings(tour, snapshots, None)
    riders = list(team.riders.all())
    rider_ids = {r.pk for r in riders}
    tp = next((row for row in data.get("tour_points", []) if row["team"] == team.pk), None)
    cards = {row["rider"]: row["cards"] for row in data.get("exhaustion", [])}
    wearing = {rider: key for key, rider in (data.get("jerseys") or {}).items() if rider}
    placings = {
        slug: {row["rider"]: row for row in data.get(slug, []) if row["rider"] in rider_ids}
        for slug in ("general", "sprint", "mountain")
    }
    sheet = [
        {
            "rider": rider,
            "jersey": wearing.get(rider.pk),
            "specialist": specialist_label(rider.specialist),
            "cards": cards.get(rider.pk),
            "general": placings["general"].get(rider.pk),
            "sprint": placings["sprint"].get(rider.pk),
            "mountain": placings["mountain"].get(rider.pk),
        }
        for rider in riders
    ]
    # Tour Points earned per stage: the difference between consecutive snapshots' totals.
    history = []
    previous = {"podium": 0, "rest_days": 0, "classification": 0, "total": 0}
    for number in sorted(snapshots):
        row = next(
            (r for r in snapshots[number].get("tour_points", []) if r["team"] == team.pk), None
        )
        if row is None:
            continue
        exhaustion = {r["rider"]: r["cards"] for r in snapshots[number].get("exhaustion", [])}
        history.append(
            {
                "number": number,
                **{key: row[key] - previous[key] for key in previous},
                "cards": [exhaustion.get(r.pk) for r in riders],
            }
        )
        previous = {key: row[key] for key in previous}
    context = {
        "tour": tour,
        "team": team,
        "sheet": sheet,
        "tp": tp,
        "history": history,
        "riders": riders,
        "shown": data.get("after_stage"),
    }
    return render(request, "web/team.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def stage_results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Enter or correct a stage's results (scorekeepers and organisers of the club).

    The formset checks only that boxes hold whole numbers; the rules are the service's (the same
    validation as the API), and its errors come back onto the boxes they name.
    """
    tour = get_tour(pk, request.user)
    require_write_role(request.user, tour)
    stage = _stage(tour, number)
    riders = [rider for team in tour.teams.all() for rider in team.riders.all()]
    version = stage.version
    if request.method == "POST":
        formset = RiderRowFormSet(request.POST)
        version = pages.form_version(request, stage.version)
        if RESULTS.submit(formset, event=stage, user=request.user, version=version):
            pages.results_stored(request, stage, _("Results stored; the stage is being resolved."))
            return HttpResponseRedirect(PAGES.event_url(tour.pk, stage.number))
    else:
        formset = RiderRowFormSet(initial=initial_rows(stage, riders))
    by_id = {rider.pk: rider for rider in riders}
    rules = gt_rules(tour.rules)
    finish: Literal["flat", "ascent"] = "ascent" if stage.finish == "ascent" else "flat"
    tile = list(timing_values(StageSpec(stage.number, finish), rules))
    rows = []
    for form in formset.forms:
        try:
            rider = by_id.get(int(form["rider"].value()))
        except (TypeError, ValueError):
            rider = None
        seconds = form["seconds"].value()
        choices = list(tile)
        if (
            rules.timing_tile
            and str(seconds) not in {str(v) for v in tile}
            and seconds not in (None, "")
        ):
            choices.append(seconds)  # never hide a stored value the tile does not print
        rows.append(
            {
                "form": form,
                "rider": rider,
                "team": _team_of(tour, rider),
                "seconds_choices": choices,
            }
        )
    context = {
        "tour": tour,
        "stage": stage,
        "formset": formset,
        "rows": rows,
        "version": version,
        "stale": version != stage.version,
        "timing_tile": rules.timing_tile,
        "tile": tile,
    }
    return render(request, "web/stage_results.html", context)


def _team_of(tour: Tour, rider: Any) -> Any:
    """The rider's team from the prefetched teams (no query)."""
    if rider is None:
        return None
    return next((team for team in tour.teams.all() if team.pk == rider.team_id), None)


PAGES = pages.KindPages(
    kind="tour",
    card_label=gettext_lazy("Grand Tour"),
    progress=gettext_lazy("%(done)s of %(total)s stages"),
    competition=tour,
    event_name="stage",
    event=stage,
    results=stage_results,
    winner_path="general__0__name",
    extra=(
        path("tours/<int:pk>/standings/<slug:slug>.csv", tour_csv, name="tour-csv"),
        path("tours/<int:pk>/stages/<int:number>/live/", stage_live, name="stage-live"),
        path("tours/<int:pk>/teams/<int:team_id>/", team, name="team"),
        path("embed/tours/<int:pk>/", embed_tour, name="embed-tour"),
        # The organisers' set-up pages (tournament/tours/setup_page.py).
        path("clubs/<slug:slug>/tours/new/", TOUR_SETUP.new_view(), name="new"),
        path("tours/<int:pk>/edit/", TOUR_SETUP.edit_view(), name="edit"),
    ),
)
