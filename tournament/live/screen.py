"""The big screen: ``/<collection>/{id}/screen/`` for a TV across the room.

One page per competition of every kind (tours, championships, leagues, rallies, rally
championships) with the same visibility as its page. It shows, one "slide" at a time, rotating
every few seconds (``static/podium/screen.js``): the classifications (their first rows: the
screen never scrolls), the jerseys, the last event's podium and, when the forecasts app is
installed, the forecast (a marked slot otherwise). It follows the competition's event stream
and redraws its slides in place when the standings change.

The slides are built from the same pieces as the pages (``classification_tables``,
``points.driver_table``, ``overall_table``, ``championship_table``) and the same stored
snapshot: each screen reads what its competition page reads, no more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from django.apps import apps
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from tournament.competitions.kinds import get_kind
from tournament.live.state import RALLY_CHAMPIONSHIP, Target
from tournament.web import components as ui
from tournament.web import pages, points

#: Rows of a classification on one slide: readable across a room at 1280×720.
ROWS: Final = 10


@dataclass(frozen=True)
class Place:
    place: int
    name: str
    detail: str = ""


@dataclass(frozen=True)
class Jersey:
    icon: str
    label: str
    holder: str


@dataclass(frozen=True)
class ForecastSlot:
    """Where ``screen.js`` reads the forecast (API.md) and which titles it shows."""

    url: str
    titles: tuple[tuple[str, str], ...]  # (title key, label)


@dataclass(frozen=True)
class Slide:
    """One screenful: a table, the podium, the jerseys, or the forecast slot."""

    kind: str  # table, podium, jerseys, forecast
    title: Any
    table: ui.Table | None = None
    more: int = 0  # rows of the table left off
    places: tuple[Place, ...] = ()
    jerseys: tuple[Jersey, ...] = ()
    forecast: ForecastSlot | None = None


@dataclass
class Screen:
    target: Target
    competition: Any
    club: str
    subtitle: str
    page_url: str
    slides: list[Slide] = field(default_factory=list)

    @property
    def events_url(self) -> str:
        return reverse(f"live:{self.target.kind}-events", args=[self.target.pk])

    @property
    def version(self) -> int:
        return (
            self.target.state().version
            if self.target.kind == RALLY_CHAMPIONSHIP
            else int(self.competition.standings_version)
        )


def table_slide(table: ui.Table) -> Slide:
    shown = dataclasses.replace(table, rows=table.rows[:ROWS], csv_url=None)
    return Slide("table", table.title, table=shown, more=max(0, len(table.rows) - ROWS))


def podium_slide(event: str, places: list[Place]) -> Slide | None:
    if not places:
        return None
    return Slide("podium", _("Podium") + " · " + event, places=tuple(places[:3]))


def forecast_slide(target: Target, collection: str, titles: dict[str, Any]) -> Slide:
    """The forecast's place in the rotation: filled by ``screen.js`` from ``…/forecast/`` once
    a forecast is ready; without the forecasts app, an empty slot the rotation skips."""
    slot = None
    if apps.is_installed("tournament.forecasts"):
        url = f"/api/{collection}/{target.pk}/forecast/"
        slot = ForecastSlot(url, tuple((key, str(label)) for key, label in titles.items()))
    return Slide("forecast", _("Forecast"), forecast=slot)


def _subtitle(kind_label: str, shown: int | None, total: int) -> str:
    if kind_label in ("championship", "league"):
        if shown is None:
            return _("No race resolved yet.")
        return _("Standings after race %(n)s of %(total)s") % {"n": shown, "total": total}
    if shown is None:
        return _("No stage resolved yet.")
    return _("Standings after stage %(n)s of %(total)s") % {"n": shown, "total": total}


# --- each kind -------------------------------------------------------------------------------


def tour_screen(request: HttpRequest, pk: int) -> Screen:
    from tournament.tours.pages import (
        CLASSIFICATIONS,
        JERSEY_NAMES,
        Names,
        classification_tables,
        get_tour,
    )

    kind = get_kind("tour")
    tour = get_tour(pk, request.user)
    data = pages.standings(kind, tour, None, pages.load_snapshots(kind, tour))
    names = Names.of(tour)
    shown = data.get("after_stage")
    screen = Screen(
        Target("tour", tour.pk),
        tour,
        tour.club.name,
        _subtitle("tour", shown, len(tour.stages.all())),
        reverse("tours:tour", args=[tour.pk]),
    )
    tables = classification_tables(tour, data, names, after=shown)
    stage = data.get("stage") or {}
    podium = [
        Place(i, names.rider(rider), getattr(names.team_of(rider), "name", ""))
        for i, rider in enumerate(stage.get("podium") or [], start=1)
    ]
    jerseys = tuple(
        Jersey(key, str(label), names.rider((data.get("jerseys") or {}).get(key)) or "—")
        for key, label in JERSEY_NAMES.items()
    )
    screen.slides = [
        table_slide(tables[0]),
        Slide("jerseys", _("Jerseys"), jerseys=jerseys),
        *filter(None, [podium_slide(kind.event_label(shown), podium) if shown else None]),
        *(table_slide(t) for t in tables[1:]),
        forecast_slide(
            screen.target,
            "tours",
            {"yellow": CLASSIFICATIONS["general"], "tour_points": CLASSIFICATIONS["tour_points"]},
        ),
    ]
    return screen


def _race_podium(data: dict[str, Any], number: int | None) -> list[Place]:
    """The first three of race ``number`` from the points standings (``results`` by race)."""
    if not number:
        return []
    places = [
        Place(d["results"][number - 1], d["name"], d.get("team") or "")
        for d in data.get("drivers", [])
        if len(d.get("results") or []) >= number and d["results"][number - 1] in (1, 2, 3)
    ]
    return sorted(places, key=lambda p: p.place)


def points_screen(label: str, competition: Any, url: str) -> Screen:
    kind = get_kind(label)
    data = pages.standings(kind, competition, None)
    shown = data.get("after_race")
    screen = Screen(
        Target(label, competition.pk),
        competition,
        competition.club.name,
        _subtitle(label, shown, len(competition.races.all())),
        url,
    )
    podium = podium_slide(kind.event_label(shown), _race_podium(data, shown)) if shown else None
    screen.slides = [
        table_slide(points.driver_table(data)),
        *filter(None, [podium]),
        *([table_slide(points.team_table(data))] if data.get("teams") else []),
        forecast_slide(screen.target, kind.collection, {"drivers": _("Drivers")}),
    ]
    return screen


def championship_screen(request: HttpRequest, pk: int) -> Screen:
    from tournament.championships.views import get_championship

    champ = get_championship(pk, request.user)
    return points_screen("championship", champ, reverse("championships:championship", args=[pk]))


def league_screen(request: HttpRequest, pk: int) -> Screen:
    from tournament.leagues.views import _league

    league = _league(pk, request)
    return points_screen("league", league, reverse("leagues:league", args=[pk]))


def rally_screen(request: HttpRequest, pk: int) -> Screen:
    from tournament.rallies import pages as rally_pages

    kind = get_kind("rally")
    rally = rally_pages.get_rally(pk, request.user)
    snapshots = pages.load_snapshots(kind, rally)
    data = pages.standings(kind, rally, None, snapshots)
    shown = data.get("after_stage")
    screen = Screen(
        Target("rally", rally.pk),
        rally,
        rally.club.name,
        _subtitle("rally", shown, len(rally.stages.all())),
        reverse("rallies:rally", args=[pk]),
    )
    podium = None
    if shown:
        stage = rally_pages.stage_table(snapshots.get(shown), shown, rally_pages.names_of(rally))
        places = [
            Place(i, str(row.cells[1].value), ui_time(row.cells[2]))
            for i, row in enumerate(stage.rows[:3], start=1)
        ]
        podium = podium_slide(kind.event_label(shown), places)
    screen.slides = [
        table_slide(rally_pages.overall_table(data)),
        *filter(None, [podium]),
        forecast_slide(screen.target, "rallies", {"overall": _("Overall classification")}),
    ]
    return screen


def ui_time(cell: ui.Cell) -> str:
    """A stage time as the pages write it (m:ss), for a podium line."""
    from scoring.clock import clock

    return clock(cell.value) if isinstance(cell.value, int) else str(cell.value or "")


def rally_championship_screen(request: HttpRequest, pk: int) -> Screen:
    from tournament.competitions.errors import Conflict
    from tournament.rallies import pages as rally_pages
    from tournament.rallies import services

    championship = rally_pages.get_championship(pk, request.user)
    try:
        data = services.rally_championship_standings(championship=championship, after=None)
    except Conflict:  # results the engine refuses: the page says so; the screen shows none
        data = {"after_rally": None, "drivers": []}
    entries = list(championship.entries.all())
    counted = data.get("after_rally") or 0
    subtitle = ngettext(
        "%(n)s of %(total)s rally counted", "%(n)s of %(total)s rallies counted", len(entries)
    ) % {"n": counted, "total": len(entries)}
    screen = Screen(
        Target(RALLY_CHAMPIONSHIP, championship.pk),
        championship,
        championship.club.name,
        subtitle,
        reverse("rallies:championship", args=[pk]),
    )
    podium = None
    if counted:
        rally = entries[counted - 1].rally
        podium = podium_slide(rally.name, _race_podium(data, counted))
    screen.slides = [
        table_slide(rally_pages.championship_table(data, len(entries))),
        *filter(None, [podium]),
        forecast_slide(screen.target, "rally-championships", {"drivers": _("Drivers")}),
    ]
    return screen


BUILDERS: Final[dict[str, tuple[str, Callable[[HttpRequest, int], Screen]]]] = {
    "tour": ("tours", tour_screen),
    "championship": ("championships", championship_screen),
    "league": ("leagues", league_screen),
    "rally": ("rallies", rally_screen),
    RALLY_CHAMPIONSHIP: ("rally-championships", rally_championship_screen),
}


def screen_view(build: Callable[[HttpRequest, int], Screen]) -> Callable[..., HttpResponse]:
    @require_safe
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        screen = build(request, pk)
        fragment = request.GET.get("part") == "slides"
        template = "web/screen/_slides.html" if fragment else "web/screen/screen.html"
        return render(request, template, {"screen": screen})

    return view


def urlpatterns() -> list[URLPattern]:
    return [
        path(f"{collection}/<int:pk>/screen/", screen_view(build), name=f"{label}-screen")
        for label, (collection, build) in BUILDERS.items()
    ]
