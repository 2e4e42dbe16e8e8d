"""Championship pages: standings, race pages and the scorekeeper form (``/championships/…``).

Built from the generic web pieces (``tournament.web.components``, ``charts``, the templates under
``templates/components/``); views never recompute standings, they read the stored snapshot that
the API serves. A championship page costs a fixed number of queries whatever the number of races
or drivers: the championship with drivers and races prefetched, and one snapshot.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from scoring.formula_d import parse_race_results
from tournament.championships import setup_pages
from tournament.championships.forms import RESULTS, DriverRowFormSet, initial_rows
from tournament.championships.models import Championship, Driver, Race
from tournament.clubs.models import Role, role_in
from tournament.competitions import simulation
from tournament.competitions.forms import named_rows
from tournament.competitions.kinds import AnyKind, get_kind
from tournament.web import components as ui
from tournament.web import pages, points, replay_progress
from tournament.web.access import may_write, require_write_role, visible_or_404


def get_championship(pk: Any, user: Any) -> Championship:
    """The championship with its drivers and races (two prefetches), or 404 (visibility)."""
    queryset = Championship.objects.select_related("club").prefetch_related(
        Prefetch("drivers", queryset=Driver.objects.order_by("order")),
        Prefetch("races", queryset=Race.objects.order_by("number").defer("results")),
    )
    championship: Championship = visible_or_404(queryset, pk, user)
    return championship


def _kind() -> AnyKind:
    return get_kind("championship")


def _race_url(championship: Championship, number: int) -> str:
    return PAGES.event_url(championship.pk, number)


@require_safe
def championship(request: HttpRequest, pk: int) -> HttpResponse:
    """Driver and team standings, the race-by-race grid, the points chart and the races."""
    champ = get_championship(pk, request.user)
    data = pages.standings(_kind(), champ, pages.after_param(request, _kind()))
    shown = data.get("after_race")
    races = list(champ.races.all())
    context = {
        "championship": champ,
        "can_organise": role_in(champ.club_id, request.user) == Role.ORGANISER,
        "shown": shown,
        "race_count": len(races),
        "after_choices": range(1, (champ.standings_through or 0) + 1),
        "events": points.race_list(
            champ.races.all(),
            data,
            lambda n: _race_url(champ, n),
            name=lambda race: race.circuit.title(),
            note=lambda race: ngettext("%(n)s lap", "%(n)s laps", race.laps) % {"n": race.laps},
        ),
        "tables": [points.driver_table(data), points.team_table(data)],
        "grid": points.result_grid(data, lambda n: _race_url(champ, n)),
        "chart": points.points_chart(data),
        "can_write": may_write(request.user, champ),
        "to_enter": (to_enter := next((race for race in races if race.version == 0), None)),
        "to_enter_url": PAGES.results_url(champ.pk, to_enter.number) if to_enter else "",
    }
    return render(request, "web/championships/championship.html", context)


def _race(championship: Championship, number: Any) -> Race:
    race: Race = pages.event_or_404(_kind(), championship, number)
    return race


def classification_table(race: Race, names: dict[int, Driver], scored: dict[int, int]) -> ui.Table:
    """FD-42: the race's complete order with status, laps, WP left, pole and race points."""
    rows = []
    for entry in sorted(race.results, key=lambda r: r["position"]):
        driver = names.get(entry["driver"])
        rows.append(
            ui.Row(
                (
                    ui.Cell(entry["position"], ui.RANK),
                    ui.Cell(driver.name if driver else f"#{entry['driver']}", ui.TEXT),
                    ui.Cell(driver.team if driver else "", ui.TEXT),
                    ui.Cell(_("finished") if entry["status"] == "finished" else _("eliminated")),
                    ui.Cell(entry["laps"], ui.NUMBER),
                    ui.Cell(
                        entry.get("wp_left") if isinstance(entry.get("wp_left"), int) else None,
                        ui.NUMBER,
                    ),
                    ui.Cell(_("pole") if entry.get("pole") else "", ui.TEXT),
                    ui.Cell(scored.get(entry["driver"]), ui.NUMBER),
                )
            )
        )
    return ui.Table(
        slug="classification",
        title=_("Classification"),
        columns=(
            ui.Column("position", _("Pos."), ui.RANK),
            ui.Column("driver", _("Driver"), ui.TEXT),
            ui.Column("team", _("Team"), ui.TEXT),
            ui.Column("status", _("Status"), ui.TEXT),
            ui.Column("laps", _("Laps"), ui.NUMBER),
            ui.Column("wp_left", _("WP left"), ui.NUMBER),
            ui.Column("pole", _("Pole"), ui.TEXT),
            ui.Column("points", _("Points"), ui.NUMBER),
        ),
        rows=tuple(rows),
    )


def eliminations(race: Race, names: dict[int, Driver]) -> list[tuple[int, str, int]]:
    """(order out, driver, laps completed): FD-41, missing orders implied by the positions."""
    entries = parse_race_results(race.results) if race.results else ()
    out = sorted(
        (e for e in entries if e.status == "eliminated"), key=lambda e: e.elimination_order or 0
    )
    return [
        (e.elimination_order or 0, names[e.driver].name if e.driver in names else "", e.laps)
        for e in out
    ]


@require_safe
def race(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A race: its classification, eliminations and the points each driver scored."""
    champ = get_championship(pk, request.user)
    race = _race(champ, number)
    pages.settle_banners(request, race)
    names = {d.pk: d for d in champ.drivers.all()}
    scored = points.race_points(pages.event_snapshot(_kind(), champ, race), race.number)
    context = {
        "championship": champ,
        "race": race,
        "races": list(champ.races.all()),
        "status_label": pages.status_label(race.status),
        "entered": [names[pk].name for pk in race.drivers if pk in names],
        "table": classification_table(race, names, scored) if race.results else None,
        "eliminations": eliminations(race, names),
        "replay_url": (
            reverse("championship-replay", kwargs={"pk": champ.pk, "number": race.number})
            if race.source == "simulated"
            else None
        ),
        "progress": replay_progress.formula_d_progress(
            simulation.replay_of(kind=_kind(), event=race) if race.source == "simulated" else None,
            {pk: d.name for pk, d in names.items()},
        ),
        "can_write": may_write(request.user, champ),
    }
    return render(request, "web/championships/race.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def race_results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The scorekeeper form: login, then visibility (404), then the club role (403)."""
    champ = get_championship(pk, request.user)
    race = _race(champ, number)
    require_write_role(request.user, champ)
    names = {d.pk: d.name for d in champ.drivers.all()}
    stale = False
    if request.method == "POST":
        formset = DriverRowFormSet(request.POST)
        version = pages.form_version(request, race.version)
        stored = RESULTS.submit(formset, event=race, user=request.user, version=version)
        if stored is not None:
            pages.results_stored(request, race, _("Results stored; the race is being resolved."))
            return HttpResponseRedirect(_race_url(champ, race.number))
        stale = version != race.version
    else:
        formset = DriverRowFormSet(initial=initial_rows(race))
    context = {
        "championship": champ,
        "race": race,
        "formset": formset,
        "rows": named_rows(formset, names),
        "version": race.version,
        "stale": stale,
    }
    return render(request, "web/championships/race_results.html", context)


PAGES = pages.KindPages(
    kind="championship",
    card_label=gettext_lazy("Formula D championship"),
    progress=gettext_lazy("%(done)s of %(total)s races"),
    competition=championship,
    event_name="race",
    event=race,
    results=race_results,
    winner_path="drivers__0__name",
    extra=(
        # The organisers' set-up pages (issue #15): tournament/championships/setup_pages.py.
        path("clubs/<slug:slug>/championships/new/", setup_pages.new, name="new"),
        path("championships/<int:pk>/edit/", setup_pages.edit, name="edit"),
    ),
)
