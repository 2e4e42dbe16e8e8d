"""Grand Tour presenter: a tour's rows and stored snapshots → the generic page components.

Nothing here recomputes standings: every number comes from the snapshots the worker stored
(``StageStandings.data``, the API's standings JSON) or, before stage 1 is resolved, from
``competitions.services.standings`` (both through ``tournament.web.pages``). All snapshots of a
tour are read in one query, so a page costs the same number of queries for 2 stages as for 21.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.competitions.tie_break import row_sentence
from tournament.tours.models import Finish, Rider, RiderRole, Stage, Team, Tour
from tournament.web import charts
from tournament.web import components as ui
from tournament.web.access import visible_or_404
from tournament.web.pages import status_label

JERSEY_OF = {"general": "yellow", "sprint": "green", "mountain": "polka_dot"}
JERSEY_NAMES = {
    "yellow": _("Yellow"),
    "green": _("Green"),
    "polka_dot": _("Polka Dot"),
}
#: The Tour Points columns (GT-9): by source, then the total.
TOUR_POINTS = {
    "podium": _("Podium"),
    "rest_days": _("Rest Day"),
    "classification": _("Classification"),
    "total": _("Total"),
}
CLASSIFICATIONS = {
    "general": _("General classification"),
    "sprint": _("Sprint classification"),
    "mountain": _("Mountain classification"),
    "team": _("Team classification"),
    "tour_points": _("Tour Points"),
}


def tour_queryset() -> Any:
    """Tours with what every tour page shows: club, stages (without results), teams, riders."""
    return Tour.objects.select_related("club").prefetch_related(
        Prefetch("stages", queryset=Stage.objects.order_by("number").defer("results")),
        Prefetch(
            "teams",
            queryset=Team.objects.order_by("order").prefetch_related(
                Prefetch("riders", queryset=Rider.objects.order_by("role"))
            ),
        ),
    )


def get_tour(pk: Any, user: Any) -> Tour:
    """The tour with its set-up prefetched, if ``user`` may read it (else Http404)."""
    return visible_or_404(tour_queryset(), pk, user)


@dataclass(frozen=True)
class Names:
    """Who is who, from the prefetched teams: riders' and teams' names, riders' teams."""

    riders: dict[int, Rider]
    teams: dict[int, Team]
    team_index: dict[int, int]  # entry order, for chart colours

    @classmethod
    def of(cls, tour: Tour) -> Names:
        teams = list(tour.teams.all())
        return cls(
            riders={r.pk: r for t in teams for r in t.riders.all()},
            teams={t.pk: t for t in teams},
            team_index={t.pk: i for i, t in enumerate(teams)},
        )

    def rider(self, rider_id: int | None) -> str:
        rider = self.riders.get(rider_id) if rider_id is not None else None
        return rider.name if rider is not None else ""

    def team_of(self, rider_id: int) -> Team | None:
        rider = self.riders.get(rider_id)
        return self.teams.get(rider.team_id) if rider is not None else None

    def team(self, team_id: int | None) -> str:
        team = self.teams.get(team_id) if team_id is not None else None
        return team.name if team is not None else ""


def team_url(tour: Tour, team_id: int) -> str:
    return reverse("tours:team", args=[tour.pk, team_id])


def with_after(url: str, after: int | None, latest: int | None) -> str:
    """``url`` keeping the ``after_stage`` the reader chose (omitted for the latest)."""
    if after is None or after == latest:
        return url
    return f"{url}?{urlencode({'after_stage': after})}"


def classification_tables(
    tour: Tour,
    data: dict[str, Any],
    names: Names,
    *,
    after: int | None = None,
    highlight_team: int | None = None,
) -> list[ui.Table]:
    """General, Sprint, Mountain, Team and Tour Points tables of one standings snapshot."""
    wearing = {rider: name for name, rider in (data.get("jerseys") or {}).items() if rider}
    latest = tour.standings_through

    def csv(slug: str) -> str:
        return with_after(reverse("tours:tour-csv", args=[tour.pk, slug]), after, latest)

    def rider_cells(row: dict[str, Any]) -> tuple[ui.Cell, ...]:
        return (
            ui.Cell(row["rank"], ui.RANK),
            ui.Cell(row["name"], ui.TEXT, icon=wearing.get(row["rider"])),
            ui.Cell(names.team(row["team"]), ui.TEXT, href=team_url(tour, row["team"])),
        )

    def team_cells(row: dict[str, Any]) -> tuple[ui.Cell, ...]:
        return (
            ui.Cell(row["rank"], ui.RANK),
            ui.Cell(row["name"], ui.TEXT, href=team_url(tour, row["team"])),
        )

    def timed(row: dict[str, Any]) -> tuple[ui.Cell, ...]:
        return ui.Cell(row["time"], ui.TIME), ui.Cell(row["gap"], ui.GAP)

    def table(
        slug: str,
        columns: tuple[ui.Column, ...],
        cells: Callable[[dict[str, Any]], tuple[ui.Cell, ...]],
        icon: str | None = None,
    ) -> ui.Table:
        """Classification ``slug`` of the snapshot, the rows of ``highlight_team`` marked."""
        return ui.Table(
            slug=slug,
            title=CLASSIFICATIONS[slug],
            icon=icon,
            columns=columns,
            rows=tuple(
                ui.Row(cells(r), highlight=r["team"] == highlight_team, tie_break=row_sentence(r))
                for r in data.get(slug, [])
            ),
            csv_url=csv(slug),
        )

    rank, rider, team = (
        ui.Column("rank", pgettext_lazy("rank", "#"), ui.RANK),
        ui.Column("rider", _("Rider"), ui.TEXT),
        ui.Column("team", _("Team"), ui.TEXT),
    )
    time, gap, points = (
        ui.Column("time", _("Time"), ui.TIME),
        ui.Column("gap", _("Gap"), ui.GAP),
        ui.Column("points", _("Points"), ui.NUMBER),
    )
    tour_points = tuple(ui.Column(key, label, ui.NUMBER) for key, label in TOUR_POINTS.items())
    return [
        table(
            "general",
            (rank, rider, team, time, gap),
            lambda r: (*rider_cells(r), *timed(r)),
            "yellow",
        ),
        *(
            table(
                slug,
                (rank, rider, team, points),
                lambda r: (*rider_cells(r), ui.Cell(r["points"], ui.NUMBER)),
                JERSEY_OF[slug],
            )
            for slug in ("sprint", "mountain")
        ),
        table("team", (rank, team, time, gap), lambda r: (*team_cells(r), *timed(r))),
        table(
            "tour_points",
            (rank, team, *tour_points),
            lambda r: (*team_cells(r), *(ui.Cell(r[key], ui.NUMBER) for key in TOUR_POINTS)),
        ),
    ]


def stage_list(tour: Tour, snapshots: dict[int, dict[str, Any]], names: Names) -> ui.EventList:
    """Every stage with its status, winner and the jersey holders after it."""
    rows = []
    for stage in tour.stages.all():
        snap = snapshots.get(stage.number)
        podium = ((snap or {}).get("stage") or {}).get("podium") or []
        jerseys = (snap or {}).get("jerseys") or {}
        rows.append(
            ui.EventRow(
                number=stage.number,
                name=stage.name,
                url=reverse("tours:stage", args=[tour.pk, stage.number]),
                status=stage.status,
                status_label=status_label(stage.status),
                note=Finish(stage.finish).label if stage.finish in Finish.values else "",
                winner=names.rider(podium[0]) if podium else "",
                holders=tuple(names.rider(jerseys.get(j)) for j in JERSEY_NAMES),
                after_break=_("Rest Day") if stage.rest_day_after else "",
            )
        )
    return ui.EventList(
        title=_("Stages"),
        awards=tuple(ui.Award(j, label, icon=j) for j, label in JERSEY_NAMES.items()),
        rows=tuple(rows),
        event_label=_("Stage"),
    )


def jersey_timeline(
    snapshots: dict[int, dict[str, Any]], through: int | None, names: Names
) -> charts.Timeline | None:
    """Who wore each jersey after each stage 1..through (GT-6.4)."""
    events = [n for n in sorted(snapshots) if through is not None and n <= through]
    if not events:
        return None
    lanes = [
        (
            jersey,
            label,
            [names.rider((snapshots[n].get("jerseys") or {}).get(jersey)) for n in events],
        )
        for jersey, label in JERSEY_NAMES.items()
    ]
    return charts.timeline(events, lanes)


def gc_chart(
    snapshots: dict[int, dict[str, Any]], through: int | None, names: Names
) -> charts.LineChart | None:
    """Each rider's GC position after each stage 1..through: team colour, sprinteur dashed."""
    events = [n for n in sorted(snapshots) if through is not None and n <= through]
    if not events:
        return None
    ranks: dict[int, dict[int, int]] = {}
    for number in events:
        for row in snapshots[number].get("general", []):
            ranks.setdefault(row["rider"], {})[number] = row["rank"]
    final = {row["rider"]: row["rank"] for row in snapshots[events[-1]].get("general", [])}
    series = [
        charts.Series(
            label=names.rider(rider_id),
            values=tuple(ranks[rider_id].get(n) for n in events),
            colour=names.team_index.get(names.riders[rider_id].team_id, 0)
            if rider_id in names.riders
            else 0,
            dashed=rider_id in names.riders and names.riders[rider_id].role == RiderRole.SPRINTEUR,
        )
        for rider_id in sorted(ranks, key=lambda r: final.get(r, 999))
    ]
    return charts.line_chart([str(n) for n in events], series)


def start_order(data: dict[str, Any], names: Names) -> list[tuple[int, str, str]]:
    """(team id, team name, player) in the order they place their riders next stage."""
    order = data.get("next_start_order") or []
    return [(t, names.team(t), names.teams[t].player if t in names.teams else "") for t in order]


#: FR-63's specialists (games/flamme_rouge/cards.py SPECIALISTS), named like the roles: a
#: translated, capitalised label, never the stored key ("grimpeur" beside "Rouleur", issue #16).
SPECIALIST_LABELS: dict[str, Promise] = {
    "baroudeur": pgettext_lazy("specialist", "Baroudeur"),
    "flandrien": pgettext_lazy("specialist", "Flandrien"),
    "grimpeur": pgettext_lazy("specialist", "Grimpeur"),
    "domestique": pgettext_lazy("specialist", "Domestique"),
    "super_rouleur": pgettext_lazy("specialist", "Super Rouleur"),
    "puncheur": pgettext_lazy("specialist", "Puncheur"),
    "descender": pgettext_lazy("specialist", "Descender"),
    "polyvalent": pgettext_lazy("specialist", "Polyvalent"),
    "mountaineer": pgettext_lazy("specialist", "Mountaineer"),
    "squirrel": pgettext_lazy("specialist", "Squirrel"),
    "super_sprinteur": pgettext_lazy("specialist", "Super Sprinteur"),
    "flahute": pgettext_lazy("specialist", "Flahute"),
}


def specialist_label(key: str) -> str | Promise:
    """A rider's specialist as shown (``—`` for none; an unknown key capitalised as stored)."""
    if not key:
        return "—"
    return SPECIALIST_LABELS.get(key) or key.replace("_", " ").capitalize()
