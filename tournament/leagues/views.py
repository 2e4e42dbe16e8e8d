"""League pages: standings, race pages and the scorekeeper form (``/leagues/…``).

The standings pieces are the points-championship ones (``tournament.web.points``) and the pages
are declared once in ``PAGES``; views read stored snapshots, never recompute standings. A page
costs a fixed number of queries: the league with drivers and races prefetched, and one snapshot.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from tournament.competitions.kinds import get_kind
from tournament.leagues.forms import formset_class, initial_rows, submit_formset
from tournament.leagues.models import League, Race
from tournament.web import pages, points
from tournament.web.access import may_write, require_write_role, visible_or_404
from tournament.web.components import (
    NUMBER,
    RANK,
    TEXT,
    Cell,
    Column,
    EventList,
    EventRow,
    Row,
    Table,
)


def get_league(pk: Any, user: Any) -> League:
    """The league with its drivers and races (two prefetches), or 404 (visibility)."""
    queryset = League.objects.select_related("club").prefetch_related(
        *get_kind("league").detail_prefetch
    )
    league: League = visible_or_404(queryset, pk, user)
    return league


def race_title(race: Race) -> str:
    return race.name or get_kind("league").event_label(race.number)


@require_safe
def league(request: HttpRequest, pk: int) -> HttpResponse:
    """Driver and team standings, the race-by-race grid, the points chart and the races."""
    kind, obj = get_kind("league"), get_league(pk, request.user)
    data = pages.standings(kind, obj, pages.after_param(request, kind))
    races = list(obj.races.all())
    winners = {
        n: d["name"]
        for d in data.get("drivers", [])
        for n, p in enumerate(d["results"], 1)
        if p == 1
    }
    events = EventList(
        title=_("Races"),
        awards=(),
        rows=tuple(
            EventRow(
                number=r.number,
                name=race_title(r),
                url=PAGES.event_url(obj.pk, r.number),
                status=r.status,
                status_label=pages.status_label(r.status),
                note="",
                winner=winners.get(r.number, ""),
            )
            for r in races
        ),
        event_label=_("Race"),
    )
    context = {
        "league": obj,
        "shown": data.get("after_race"),
        "race_count": len(races),
        "after_choices": range(1, (obj.standings_through or 0) + 1),
        "events": events,
        "tables": [points.driver_table(data), points.team_table(data)],
        "grid": points.result_grid(data, lambda n: PAGES.event_url(obj.pk, n)),
        "chart": points.points_chart(data),
        "can_write": may_write(request.user, obj),
        "to_enter": next((r for r in races if r.version == 0), None),
    }
    return render(request, "web/leagues/league.html", context)


@require_safe
def race(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A race: its finishing order with status, bonus and the points each driver scored."""
    kind, obj = get_kind("league"), get_league(pk, request.user)
    event: Race = pages.event_or_404(kind, obj, number)
    names = {d.pk: d for d in obj.drivers.all()}
    scored: dict[int, int] = {}
    for d in (pages.event_snapshot(kind, obj, event) or {}).get("drivers", []):
        totals = d.get("race_points") or []
        if event.number <= len(totals) and d["statuses"][event.number - 1] != "not_entered":
            scored[d["driver"]] = totals[event.number - 1]
    columns = [
        Column("position", _("Pos."), RANK),
        Column("driver", _("Driver"), TEXT),
        Column("team", _("Team"), TEXT),
        Column("status", _("Status"), TEXT),
        *([Column("bonus", _("Bonus"), NUMBER)] if obj.bonus_points else []),
        Column("points", _("Points"), NUMBER),
    ]
    rows = []
    for entry in event.results:
        driver = names.get(entry["driver"])
        cells = [
            Cell(entry["position"], RANK),
            Cell(driver.name if driver else f"#{entry['driver']}", TEXT),
            Cell(driver.team if driver else "", TEXT),
            Cell(_("finished") if entry["status"] == "finished" else _("dnf"), TEXT),
            *([Cell(entry.get("bonus", 0), NUMBER)] if obj.bonus_points else []),
            Cell(scored.get(entry["driver"]), NUMBER),
        ]
        rows.append(Row(tuple(cells)))
    table = Table(
        slug="classification", title=_("Classification"), columns=tuple(columns), rows=tuple(rows)
    )
    context = {
        "league": obj,
        "race": event,
        "title": race_title(event),
        "races": list(obj.races.all()),
        "status_label": pages.status_label(event.status),
        "entered": [names[x].name for x in event.drivers if x in names],
        "table": table if event.results else None,
        "can_write": may_write(request.user, obj),
    }
    return render(request, "web/leagues/race.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def race_results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The scorekeeper form: login, then visibility (404), then the club role (403)."""
    obj = get_league(pk, request.user)
    event: Race = pages.event_or_404(get_kind("league"), obj, number)
    require_write_role(request.user, obj)
    formset_type = formset_class(obj)
    stale = False
    if request.method == "POST":
        formset = formset_type(request.POST)
        version = pages.form_version(request, event.version)
        if submit_formset(formset, race=event, user=request.user, version=version) is not None:
            messages.success(request, _("Results stored; the race is being resolved."))
            return HttpResponseRedirect(PAGES.event_url(obj.pk, event.number))
        stale = version != event.version
    else:
        formset = formset_type(initial=initial_rows(event))
    names = {d.pk: d.name for d in obj.drivers.all()}
    context = {
        "league": obj,
        "race": event,
        "title": race_title(event),
        "formset": formset,
        "rows": [(form, names.get(_driver_id(form) or 0, "")) for form in formset.forms],
        "version": event.version,
        "stale": stale,
    }
    return render(request, "web/leagues/race_results.html", context)


def _driver_id(form: Any) -> int | None:
    try:
        return int(form["driver"].value())
    except (TypeError, ValueError):
        return None


PAGES = pages.KindPages(
    kind="league",
    card_label=gettext_lazy("League"),
    progress=gettext_lazy("%(done)s of %(total)s races"),
    competition=league,
    event_name="race",
    event=race,
    results=race_results,
)
