"""League pages: standings, race pages and the scorekeeper form (``/leagues/…``).

Declared once in ``PAGES`` and built from the points-championship pieces shared with Formula D
(``tournament.web.points``, ``components/points_standings.html``, ``results_form.html``); views
read stored snapshots, never recompute standings, in a fixed number of queries.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from tournament.clubs.models import Role, role_in
from tournament.competitions.forms import named_rows
from tournament.competitions.kinds import get_kind
from tournament.leagues import setup_pages
from tournament.leagues.forms import RESULTS, formset
from tournament.leagues.models import League, Race
from tournament.web import components as ui
from tournament.web import pages, points
from tournament.web.access import may_write, require_write_role, visible_or_404


def _league(pk: Any, request: HttpRequest) -> League:
    """The league with its drivers and races prefetched; 404 unless the caller may see it."""
    queryset = League.objects.select_related("club")
    league: League = visible_or_404(
        queryset.prefetch_related(*get_kind("league").detail_prefetch), pk, request.user
    )
    return league


def _race(league: League, number: Any) -> Race:
    race: Race = pages.event_or_404(get_kind("league"), league, number)
    return race


def _title(race: Race) -> str:
    return race.name or get_kind("league").event_label(race.number)


@require_safe
def league(request: HttpRequest, pk: int) -> HttpResponse:
    """Driver and team standings, the race-by-race grid, the points chart and the races."""
    obj = _league(pk, request)
    data = pages.standings(get_kind("league"), obj, pages.after_param(request, get_kind("league")))
    races = list(obj.races.all())
    to_enter = next((r for r in races if r.version == 0), None)
    context = {
        "league": obj,
        "can_organise": role_in(obj.club_id, request.user) == Role.ORGANISER,
        "shown": data.get("after_race"),
        "race_count": len(races),
        "after_choices": range(1, (obj.standings_through or 0) + 1),
        "events": points.race_list(races, data, lambda n: PAGES.event_url(obj.pk, n), name=_title),
        "tables": [points.driver_table(data), points.team_table(data)],
        "grid": points.result_grid(data, lambda n: PAGES.event_url(obj.pk, n)),
        "chart": points.points_chart(data),
        "can_write": may_write(request.user, obj),
        "to_enter": to_enter,
        "to_enter_url": to_enter and PAGES.results_url(obj.pk, to_enter.number),
    }
    return render(request, "web/leagues/league.html", context)


def race_table(
    league: Any,
    race: Any,
    drivers: dict[int, Any],
    scored: dict[int, int],
    table_id: str = "classification",
) -> ui.Table:
    """A league race's finishing order with status, bonus and points (the page and the sheet)."""
    bonus = [ui.Column("bonus", _("Bonus"), ui.NUMBER)] if league.bonus_points else []
    columns = (
        ui.Column("position", _("Pos."), ui.RANK),
        ui.Column("driver", _("Driver"), ui.TEXT),
        ui.Column("team", _("Team"), ui.TEXT),
        ui.Column("status", _("Status"), ui.TEXT),
        *bonus,
        ui.Column("points", _("Points"), ui.NUMBER),
    )
    rows = []
    for entry in race.results:
        driver = drivers.get(entry["driver"])
        rows.append(
            ui.Row(
                (
                    ui.Cell(entry["position"], ui.RANK),
                    ui.Cell(driver.name if driver else f"#{entry['driver']}", ui.TEXT),
                    ui.Cell(driver.team if driver else "", ui.TEXT),
                    ui.Cell(_("finished") if entry["status"] == "finished" else _("dnf")),
                    *([ui.Cell(entry.get("bonus", 0), ui.NUMBER)] if bonus else []),
                    ui.Cell(scored.get(entry["driver"]), ui.NUMBER),
                )
            )
        )
    return ui.Table(table_id, _("Classification"), columns, tuple(rows))


@require_safe
def race(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A race: its finishing order with status, bonus and the points each driver scored."""
    obj = _league(pk, request)
    event = _race(obj, number)
    drivers = {d.pk: d for d in obj.drivers.all()}
    scored = points.race_points(pages.event_snapshot(get_kind("league"), obj, event), event.number)
    context = {
        "league": obj,
        "race": event,
        "title": _title(event),
        "results": bool(event.results),
        "races": list(obj.races.all()),
        "status_label": pages.status_label(event.status),
        "entered": [drivers[x].name for x in event.drivers if x in drivers],
        "table": event.results and race_table(obj, event, drivers, scored),
        "can_write": may_write(request.user, obj),
    }
    return render(request, "web/leagues/race.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def race_results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The scorekeeper form: login, then visibility (404), then the club role (403)."""
    obj = _league(pk, request)
    event = _race(obj, number)
    require_write_role(request.user, obj)
    form, stale = formset(obj, event, request.POST if request.method == "POST" else None), False
    if request.method == "POST":
        version = pages.form_version(request, event.version)
        if RESULTS.submit(form, event=event, user=request.user, version=version) is not None:
            messages.success(request, _("Results stored; the race is being resolved."))
            return HttpResponseRedirect(PAGES.event_url(obj.pk, event.number))
        stale = version != event.version
    context = {
        "league": obj,
        "race": event,
        "title": _title(event),
        "formset": form,
        "rows": named_rows(form, {d.pk: d.name for d in obj.drivers.all()}),
        "version": event.version,
        "stale": stale,
    }
    return render(request, "web/leagues/race_results.html", context)


PAGES = pages.KindPages(
    kind="league",
    card_label=gettext_lazy("League"),
    progress=gettext_lazy("%(done)s of %(total)s races"),
    competition=league,
    event_name="race",
    event=race,
    results=race_results,
    extra=(
        # The organisers' set-up pages (issue #15): tournament/leagues/setup_pages.py.
        path("clubs/<slug:slug>/leagues/new/", setup_pages.new, name="new"),
        path("leagues/<int:pk>/edit/", setup_pages.edit, name="edit"),
    ),
)
