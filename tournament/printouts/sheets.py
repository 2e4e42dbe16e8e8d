"""The printable sheet of a competition: every event's results, the standings and the charts.

A sheet is built from the same pieces as the pages (``classification_tables``, ``stage_list``,
``points.driver_table``, ``overall_table``, the inline SVG charts) and rendered by the print
templates (``templates/print/``), which include the same components as the pages, with the print
stylesheet ``static/podium/print.css`` (A4). WeasyPrint turns the HTML into a PDF; the charts
stay vector graphics. Building a sheet reads the competition without a user: the views check
the page's visibility first (a private competition is a 404 to whoever may not read it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.competitions.kinds import get_kind
from tournament.web import components as ui
from tournament.web import pages, points

#: The kinds with a sheet, by label: their URL collection.
COLLECTIONS: Final = {
    "tour": "tours",
    "championship": "championships",
    "league": "leagues",
    "rally": "rallies",
}


class PrintChart:
    """A page's chart as printed: its wide drawing only, carrying the chart styles inside the
    SVG (WeasyPrint draws an inline SVG with the styles it holds, not the page's stylesheet)."""

    def __init__(self, chart: Any) -> None:
        self._chart = chart
        wide = [lay for lay in chart.layouts if lay.name == "wide"] or list(chart.layouts[-1:])
        style = f"<style>{chart_styles()}</style>"
        self.layouts = tuple(
            dataclasses.replace(lay, body=mark_safe(style + str(lay.body))) for lay in wide
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chart, name)


@cache
def chart_styles() -> str:
    """The chart rules of the sheet (``static/podium/print_charts.css``)."""
    return Path(static_path("podium/print_charts.css")).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Figure:
    """A chart as the pages draw it (``components/line_chart.html`` or ``timeline.html``)."""

    template: str
    raw: Any  # the page's chart (charts.LineChart or charts.Timeline)
    chart_id: str
    heading: str
    title: str
    desc: str
    x_title: str
    entrant_label: str = ""

    @property
    def chart(self) -> PrintChart:
        return PrintChart(self.raw)


@dataclass(frozen=True)
class EventSheet:
    """One event's results: its heading, a note (finish, circuit) and its tables."""

    heading: str
    note: str
    tables: tuple[ui.Table, ...]


@dataclass
class Sheet:
    name: str
    club: str
    lead: str
    version: int
    events: ui.EventList | None = None
    tables: list[ui.Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    results: list[EventSheet] = field(default_factory=list)
    results_heading: str = ""


def _printed(table: ui.Table, slug: str | None = None) -> ui.Table:
    """A table as printed: no CSV link, an anchor of its own."""
    return dataclasses.replace(table, csv_url=None, slug=slug or table.slug)


def _lead(label: str, shown: int | None, total: int) -> str:
    if label in ("championship", "league"):
        if shown is None:
            return _("No race resolved yet.")
        return _("Standings after race %(n)s of %(total)s") % {"n": shown, "total": total}
    if shown is None:
        return _("No stage resolved yet.")
    return _("Standings after stage %(n)s of %(total)s") % {"n": shown, "total": total}


def _events(label: str, competition: Any) -> list[Any]:
    """The competition's events in order, with their results (one query)."""
    model = get_kind(label).event_model
    return list(model.objects.filter(competition=competition).order_by("number"))


# --- each kind -------------------------------------------------------------------------------


def tour_sheet(pk: int) -> Sheet:
    from tournament.tours.pages import (
        Names,
        classification_tables,
        gc_chart,
        jersey_timeline,
        stage_list,
        tour_queryset,
    )
    from tournament.tours.views import _results_table

    kind = get_kind("tour")
    tour = tour_queryset().get(pk=pk)
    snapshots = pages.load_snapshots(kind, tour)
    data = pages.standings(kind, tour, None, snapshots)
    shown = data.get("after_stage")
    names = Names.of(tour)
    stages = _events("tour", tour)
    sheet = Sheet(
        tour.name,
        tour.club.name,
        _lead("tour", shown, len(stages)),
        tour.standings_version,
        events=stage_list(tour, snapshots, names),
        tables=[_printed(t) for t in classification_tables(tour, data, names, after=shown)],
        results_heading=_("Stage results"),
    )
    if data.get("final") and data.get("winner"):
        sheet.lead += " · " + _("Tour winner: %(winner)s") % {"winner": names.team(data["winner"])}
    timeline = jersey_timeline(snapshots, shown, names)
    if timeline:
        sheet.figures.append(
            Figure(
                "components/timeline.html",
                timeline,
                "timeline",
                _("Jersey timeline"),
                _("Jersey timeline"),
                _("Who wore the yellow, green and polka dot jerseys after each stage."),
                _("Stage"),
            )
        )
    chart = gc_chart(snapshots, shown, names)
    if chart:
        sheet.figures.append(
            Figure(
                "components/line_chart.html",
                chart,
                "gc",
                _("General classification by stage"),
                _("General classification position of each rider after each stage"),
                _("One line per rider, position 1 at the top."),
                _("Stage"),
            )
        )
    for stage in stages:
        if stage.results:
            table = _results_table(tour, stage.results, names, f"stage-{stage.number}")
            sheet.results.append(EventSheet(_event_heading(kind, stage), "", (_printed(table),)))
    return sheet


def _event_heading(kind: Any, event: Any) -> str:
    label = str(kind.event_label(event.number))
    name = getattr(event, "name", "") or ""
    return f"{label} · {name}" if name and name != label else label


def _points_figure(data: dict[str, Any]) -> list[Figure]:
    chart = points.points_chart(data)
    if chart is None:
        return []
    return [
        Figure(
            "components/line_chart.html",
            chart,
            "points",
            _("Points by race"),
            _("Points of each driver after each race"),
            _("One line per driver; team-mates share a colour."),
            _("Race"),
            _("Driver"),
        )
    ]


def championship_sheet(pk: int) -> Sheet:
    from django.db.models import Prefetch

    from tournament.championships.models import Championship, Driver, Race
    from tournament.championships.views import classification_table

    kind = get_kind("championship")
    champ = (
        Championship.objects.select_related("club")
        .prefetch_related(
            Prefetch("drivers", queryset=Driver.objects.order_by("order")),
            Prefetch("races", queryset=Race.objects.order_by("number").defer("results")),
        )
        .get(pk=pk)
    )
    snapshots = pages.load_snapshots(kind, champ)
    data = pages.standings(kind, champ, None, snapshots)
    races = _events("championship", champ)
    names = {d.pk: d for d in champ.drivers.all()}
    sheet = _points_sheet("championship", champ, data, races)
    sheet.events = points.race_list(
        races,
        data,
        lambda n: "",
        name=lambda race: race.circuit.title(),
        note=lambda race: ngettext("%(n)s lap", "%(n)s laps", race.laps) % {"n": race.laps},
    )
    for race in races:
        if race.results:
            scored = points.race_points(snapshots.get(race.number), race.number)
            table = classification_table(race, names, scored)
            sheet.results.append(
                EventSheet(
                    f"{kind.event_label(race.number)} · {race.circuit.title()}",
                    "",
                    (_printed(table, f"race-{race.number}"),),
                )
            )
    return sheet


def _points_sheet(label: str, competition: Any, data: dict[str, Any], races: list[Any]) -> Sheet:
    tables = [points.driver_table(data)]
    if data.get("teams"):
        tables.append(points.team_table(data))
    if data.get("after_race"):
        tables.append(points.result_grid(data, lambda n: ""))
    return Sheet(
        competition.name,
        competition.club.name,
        _lead(label, data.get("after_race"), len(races)),
        competition.standings_version,
        tables=[_printed(t) for t in tables],
        figures=_points_figure(data),
        results_heading=_("Race results"),
    )


def league_sheet(pk: int) -> Sheet:
    from tournament.leagues.models import League
    from tournament.leagues.views import race_table

    kind = get_kind("league")
    league = (
        League.objects.select_related("club").prefetch_related(*kind.detail_prefetch).get(pk=pk)
    )
    snapshots = pages.load_snapshots(kind, league)
    data = pages.standings(kind, league, None, snapshots)
    races = _events("league", league)
    drivers = {d.pk: d for d in league.drivers.all()}
    sheet = _points_sheet("league", league, data, races)
    sheet.events = points.race_list(
        races, data, lambda n: "", name=lambda r: r.name or str(kind.event_label(r.number))
    )
    for race in races:
        if race.results:
            scored = points.race_points(snapshots.get(race.number), race.number)
            table = race_table(league, race, drivers, scored, f"race-{race.number}")
            sheet.results.append(EventSheet(_event_heading(kind, race), "", (table,)))
    return sheet


def rally_sheet(pk: int) -> Sheet:
    from tournament.rallies import pages as rally_pages

    kind = get_kind("rally")
    rally = rally_pages.rally_queryset().get(pk=pk)
    snapshots = pages.load_snapshots(kind, rally)
    data = pages.standings(kind, rally, None, snapshots)
    shown = data.get("after_stage")
    names = rally_pages.names_of(rally)
    stages = list(rally.stages.all())
    sheet = Sheet(
        rally.name,
        rally.club.name,
        _lead("rally", shown, len(stages)),
        rally.standings_version,
        events=rally_pages.stage_list(rally, snapshots, names),
        tables=[
            _printed(rally_pages.overall_table(data)),
            _printed(rally_pages.stage_by_stage_table(data, names)),
        ],
        results_heading=_("Stage results"),
    )
    chart = rally_pages.gap_chart(snapshots, shown, names)
    if chart:
        sheet.figures.append(
            Figure(
                "components/line_chart.html",
                chart,
                "gaps",
                _("Gap to the leader by stage"),
                _("Each driver's gap to the leader after each stage"),
                _("One line per driver; the leader's line is at zero."),
                _("Stage"),
                _("Driver"),
            )
        )
    for stage in stages:
        if stage.number in snapshots:
            table = rally_pages.stage_table(snapshots[stage.number], stage.number, names)
            sheet.results.append(
                EventSheet(
                    _event_heading(kind, stage), "", (_printed(table, f"stage-{stage.number}"),)
                )
            )
    return sheet


BUILDERS: Final[dict[str, Callable[[int], Sheet]]] = {
    "tour": tour_sheet,
    "championship": championship_sheet,
    "league": league_sheet,
    "rally": rally_sheet,
}


# --- rendering -------------------------------------------------------------------------------


def sheet_html(label: str, pk: int, language: str) -> tuple[str, int]:
    """The sheet's HTML in ``language`` and the standings version it shows."""
    with translation.override(language):
        sheet = BUILDERS[label](pk)
        html = render_to_string(
            "print/sheet.html",
            {"sheet": sheet, "LANGUAGE_CODE": language, "kind": label},
        )
    return html, sheet.version


def static_path(name: str) -> str:
    found = finders.find(name)
    if not found:  # collected static files only (production)
        found = str(Path(settings.STATIC_ROOT or "") / name)
    return str(found)


def stylesheet_path() -> str:
    return static_path("podium/print.css")


def render_pdf(label: str, pk: int, language: str) -> tuple[bytes, int]:
    """The sheet as a PDF (A4, vector charts) and the standings version it shows."""
    from weasyprint import CSS, HTML  # type: ignore[import-untyped]

    from tournament.printouts.printable import make_printable

    html, version = sheet_html(label, pk, language)
    document = HTML(string=html, base_url=str(settings.BASE_DIR))
    # Before layout: without the screen-only markup, and with drawable jersey icons.
    make_printable(document.etree_element)
    pdf = document.write_pdf(stylesheets=[CSS(filename=stylesheet_path())])
    return bytes(pdf or b""), version
