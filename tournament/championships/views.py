"""Championship pages: standings, race pages and the scorekeeper form (``/championships/…``).

Built from the generic web pieces (``tournament.web.components``, ``charts``, the templates under
``templates/components/``); views never recompute standings, they read the stored snapshot that
the API serves. A championship page costs a fixed number of queries whatever the number of races
or drivers: the championship with drivers and races prefetched, and one snapshot.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from scoring.formula_d import parse_race_results
from tournament.championships.forms import DriverRowFormSet, initial_rows, row_names, submit_formset
from tournament.championships.models import Championship, Driver, Race, RaceStandings
from tournament.competitions import services
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.web.access import event_number, may_write, require_write_role, visible_or_404
from tournament.web.charts import Series, line_chart
from tournament.web.components import (
    NUMBER,
    RANK,
    TEXT,
    Cell,
    Column,
    CompetitionCard,
    EventList,
    EventRow,
    Row,
    Table,
    competition_cards,
)

STATUS_WORDS = {"finished": "", "eliminated": "✕", "not_entered": "–"}


def _status_label(status: str) -> Any:
    return Status(status).label if status in Status.values else status


def get_championship(pk: Any, user: Any) -> Championship:
    """The championship with its drivers and races (two prefetches), or 404 (visibility)."""
    queryset = Championship.objects.select_related("club").prefetch_related(
        Prefetch("drivers", queryset=Driver.objects.order_by("order")),
        Prefetch("races", queryset=Race.objects.order_by("number").defer("results")),
    )
    championship: Championship = visible_or_404(queryset, pk, user)
    return championship


def _after(request: HttpRequest) -> int | None:
    raw = request.GET.get("after_race", "")
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise BadRequest(_("after_race must be a whole number.")) from None


def _standings(championship: Championship, after: int | None) -> dict[str, Any]:
    try:
        data: dict[str, Any] = services.standings(
            kind=get_kind("championship"), competition=championship, after=after
        )
    except InvalidInput as exc:
        # Same rule as the API: after_race outside 1..the last resolved race is a 400.
        raise BadRequest(str(exc.detail)) from None
    return data


def _race_url(championship: Championship, number: int) -> str:
    return reverse("championships:race", args=[championship.pk, number])


def driver_table(data: dict[str, Any]) -> Table:
    """FD-75/FD-76: the driver standings (ranks never shared)."""
    return Table(
        slug="drivers",
        title=_("Drivers"),
        columns=(
            Column("rank", _("Pos."), RANK),
            Column("driver", _("Driver"), TEXT),
            Column("team", _("Team"), TEXT),
            Column("points", _("Points"), NUMBER),
            Column("wins", _("Wins"), NUMBER),
        ),
        rows=tuple(
            Row(
                (
                    Cell(d["rank"], RANK),
                    Cell(d["name"], TEXT),
                    Cell(d["team"] or "", TEXT),
                    Cell(d["points"], NUMBER),
                    Cell(d["wins"], NUMBER),
                )
            )
            for d in data.get("drivers", [])
        ),
        empty=_("No race resolved yet."),
    )


def team_table(data: dict[str, Any]) -> Table:
    """FD-77: the team (constructors) standings."""
    return Table(
        slug="teams",
        title=_("Teams"),
        columns=(
            Column("rank", _("Pos."), RANK),
            Column("team", _("Team"), TEXT),
            Column("points", _("Points"), NUMBER),
        ),
        rows=tuple(
            Row((Cell(t["rank"], RANK), Cell(t["team"], TEXT), Cell(t["points"], NUMBER)))
            for t in data.get("teams", [])
        ),
        empty=_("No team standings yet."),
    )


def result_grid(championship: Championship, data: dict[str, Any]) -> Table:
    """Race by race: each driver's position (✕ eliminated, – not entered), dropped in brackets."""
    count = data.get("after_race") or 0
    columns = [Column("driver", _("Driver"), TEXT)]
    columns += [Column(f"r{n}", _("R%(n)s") % {"n": n}, TEXT) for n in range(1, count + 1)]
    columns.append(Column("points", _("Points"), NUMBER))
    rows = []
    for d in data.get("drivers", []):
        dropped = set(d.get("dropped", []))
        cells = [Cell(d["name"], TEXT)]
        for n, (position, status) in enumerate(zip(d["results"], d["statuses"], strict=True), 1):
            shown = str(position) if position is not None else STATUS_WORDS.get(status, "")
            if n in dropped:
                shown = f"({shown})"  # FD-74: a discarded result
            cells.append(Cell(shown, TEXT, href=_race_url(championship, n)))
        cells.append(Cell(d["points"], NUMBER))
        rows.append(Row(tuple(cells)))
    return Table(
        slug="grid",
        title=_("Race by race"),
        columns=tuple(columns),
        rows=tuple(rows),
        empty=_("No race resolved yet."),
    )


def points_chart(data: dict[str, Any]) -> Any:
    """Each driver's standings points after each race (drops applied as they were then)."""
    drivers = data.get("drivers", [])
    count = data.get("after_race") or 0
    if count < 1 or not drivers:
        return None
    teams: list[str] = []
    series = []
    for d in drivers:
        team = d.get("team") or ""
        if team not in teams:
            teams.append(team)
        progression = list(d.get("progression") or [])
        values = tuple(progression[:count]) + (None,) * (count - len(progression))
        # Team-mates share a colour; the second car of a team is dashed.
        series.append(
            Series(
                label=d["name"],
                values=values,
                colour=teams.index(team),
                dashed=sum(1 for s in series if s.colour == teams.index(team)) > 0,
            )
        )
    return line_chart([str(n) for n in range(1, count + 1)], series, lower_is_better=False)


def race_list(championship: Championship, data: dict[str, Any]) -> EventList:
    """Every race: circuit, laps, status and, when counted in the standings, its winner."""
    winners: dict[int, str] = {}
    for d in data.get("drivers", []):
        for n, position in enumerate(d["results"], start=1):
            if position == 1:
                winners[n] = d["name"]
    rows = tuple(
        EventRow(
            number=race.number,
            name=race.circuit.title(),
            url=_race_url(championship, race.number),
            status=race.status,
            status_label=_status_label(race.status),
            note=ngettext("%(n)s lap", "%(n)s laps", race.laps) % {"n": race.laps},
            winner=winners.get(race.number, ""),
        )
        for race in championship.races.all()
    )
    return EventList(title=_("Races"), awards=(), rows=rows, event_label=_("Race"))


def championship_cards(queryset: Any) -> list[CompetitionCard]:
    """Cards for the home and club pages (for ``tournament.web.views``); one query."""
    return competition_cards(
        queryset,
        events="races",
        kind_label=_("Formula D championship"),
        url_name="championships:championship",
        progress=lambda done, total: (
            _("%(done)s of %(total)s races") % {"done": done, "total": total}
        ),
    )


@require_safe
def championship(request: HttpRequest, pk: int) -> HttpResponse:
    """Driver and team standings, the race-by-race grid, the points chart and the races."""
    champ = get_championship(pk, request.user)
    data = _standings(champ, _after(request))
    shown = data.get("after_race")
    races = list(champ.races.all())
    context = {
        "championship": champ,
        "shown": shown,
        "race_count": len(races),
        "after_choices": range(1, (champ.standings_through or 0) + 1),
        "events": race_list(champ, data),
        "tables": [driver_table(data), team_table(data)],
        "grid": result_grid(champ, data),
        "chart": points_chart(data),
        "can_write": may_write(request.user, champ),
        "to_enter": next((race for race in races if race.version == 0), None),
    }
    return render(request, "web/championships/championship.html", context)


def _race(championship: Championship, number: Any) -> Race:
    race = Race.objects.filter(competition=championship, number=event_number(number)).first()
    if race is None:
        raise Http404
    race.competition = championship  # already loaded: no second query
    return race


def classification_table(race: Race, names: dict[int, Driver], points: dict[int, int]) -> Table:
    """FD-42: the race's complete order with status, laps, WP left, pole and race points."""
    rows = []
    for entry in sorted(race.results, key=lambda r: r["position"]):
        driver = names.get(entry["driver"])
        rows.append(
            Row(
                (
                    Cell(entry["position"], RANK),
                    Cell(driver.name if driver else f"#{entry['driver']}", TEXT),
                    Cell(driver.team if driver else "", TEXT),
                    Cell(_("finished") if entry["status"] == "finished" else _("eliminated")),
                    Cell(entry["laps"], NUMBER),
                    Cell(
                        entry.get("wp_left") if isinstance(entry.get("wp_left"), int) else None,
                        NUMBER,
                    ),
                    Cell(_("pole") if entry.get("pole") else "", TEXT),
                    Cell(points.get(entry["driver"]), NUMBER),
                )
            )
        )
    return Table(
        slug="classification",
        title=_("Classification"),
        columns=(
            Column("position", _("Pos."), RANK),
            Column("driver", _("Driver"), TEXT),
            Column("team", _("Team"), TEXT),
            Column("status", _("Status"), TEXT),
            Column("laps", _("Laps"), NUMBER),
            Column("wp_left", _("WP left"), NUMBER),
            Column("pole", _("Pole"), TEXT),
            Column("points", _("Points"), NUMBER),
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
    names = {d.pk: d for d in champ.drivers.all()}
    points: dict[int, int] = {}
    if race.status == Status.RESOLVED:
        snapshot = (
            RaceStandings.objects.filter(competition=champ, number=race.number)
            .values_list("data", flat=True)
            .first()
        )
        for d in (snapshot or {}).get("drivers", []):
            totals = d.get("race_points") or []
            if race.number <= len(totals) and d["statuses"][race.number - 1] != "not_entered":
                points[d["driver"]] = totals[race.number - 1]
    context = {
        "championship": champ,
        "race": race,
        "races": list(champ.races.all()),
        "status_label": _status_label(race.status),
        "entered": [names[pk].name for pk in race.drivers if pk in names],
        "table": classification_table(race, names, points) if race.results else None,
        "eliminations": eliminations(race, names),
        "replay_url": (
            reverse("championship-replay", kwargs={"pk": champ.pk, "number": race.number})
            if race.source == "simulated"
            else None
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
        try:
            version = int(request.POST.get("version", race.version))
        except ValueError:
            version = race.version
        stored = submit_formset(formset, race=race, user=request.user, version=version)
        if stored is not None:
            messages.success(request, _("Results stored; the race is being resolved."))
            return HttpResponseRedirect(_race_url(champ, race.number))
        stale = version != race.version
    else:
        formset = DriverRowFormSet(initial=initial_rows(race))
    context = {
        "championship": champ,
        "race": race,
        "formset": formset,
        "rows": row_names(formset, names),
        "version": race.version,
        "stale": stale,
    }
    return render(request, "web/championships/race_results.html", context)
