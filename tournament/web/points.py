"""Points-championship pages (Formula D championships, leagues): standings tables, the
race-by-race grid and the points chart, from the standings JSON both kinds share
(``drivers[rank, driver, name, team, points, wins, results, statuses, progression, dropped]``,
``teams[rank, team, points]``, ``after_race``). Each page passes its own race addresses and
status marks, so the same pieces serve any game scored by ``scoring.points``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from tournament.competitions.tie_break import row_sentence
from tournament.web.charts import LineChart, Series, line_chart
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
from tournament.web.pages import status_label

#: How the grid marks a race without a position (FD: eliminated ✕, not entered –).
STATUS_MARKS = {"finished": "", "eliminated": "✕", "dnf": "✕", "not_entered": "–"}


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
                ),
                tie_break=row_sentence(d),
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
            Row(
                (Cell(t["rank"], RANK), Cell(t["team"], TEXT), Cell(t["points"], NUMBER)),
                tie_break=row_sentence(t),
            )
            for t in data.get("teams", [])
        ),
        empty=_("No team standings yet."),
    )


def result_grid(
    data: dict[str, Any],
    race_url: Callable[[int], str],
    marks: Mapping[str, str] = STATUS_MARKS,
) -> Table:
    """Race by race: each driver's position (``marks`` for a race without one), dropped results
    in brackets (FD-74), each linking to ``race_url(number)``."""
    count = data.get("after_race") or 0
    columns = [Column("driver", _("Driver"), TEXT)]
    columns += [Column(f"r{n}", _("R%(n)s") % {"n": n}, TEXT) for n in range(1, count + 1)]
    columns.append(Column("points", _("Points"), NUMBER))
    rows = []
    for d in data.get("drivers", []):
        dropped = set(d.get("dropped", []))
        cells = [Cell(d["name"], TEXT)]
        for n, (position, status) in enumerate(zip(d["results"], d["statuses"], strict=True), 1):
            shown = str(position) if position is not None else marks.get(status, "")
            if n in dropped:
                shown = f"({shown})"  # FD-74: a discarded result
            cells.append(Cell(shown, TEXT, href=race_url(n)))
        cells.append(Cell(d["points"], NUMBER))
        rows.append(Row(tuple(cells)))
    return Table(
        slug="grid",
        title=_("Race by race"),
        columns=tuple(columns),
        rows=tuple(rows),
        empty=_("No race resolved yet."),
    )


def points_chart(data: dict[str, Any]) -> LineChart | None:
    """Each driver's points as scored, race after race (issue #16): dropped results still count
    on the line, which therefore never stays flat after a win, and are marked (open squares)."""
    drivers = data.get("drivers", [])
    count = data.get("after_race") or 0
    if count < 1 or not drivers:
        return None
    teams: list[str] = []
    series: list[Series] = []
    for d in drivers:
        team = d.get("team") or ""
        if team not in teams:
            teams.append(team)
        scored = list(d.get("race_points") or d.get("progression") or [])[:count]
        running = (
            [sum(scored[: n + 1]) for n in range(len(scored))] if "race_points" in d else scored
        )
        values = tuple(running) + (None,) * (count - len(running))
        dropped = frozenset(n - 1 for n in d.get("dropped", []) if 0 < n <= len(running))
        # Team-mates share a colour; the second car of a team is dashed.
        series.append(
            Series(
                label=d["name"],
                values=values,
                colour=teams.index(team),
                dashed=any(s.colour == teams.index(team) for s in series),
                marked=dropped,
            )
        )
    return line_chart([str(n) for n in range(1, count + 1)], series, lower_is_better=False)


def race_list(
    races: Iterable[Any],
    data: dict[str, Any],
    race_url: Callable[[int], str],
    *,
    name: Callable[[Any], str],
    note: Callable[[Any], Any] = lambda race: "",
) -> EventList:
    """Every race with its status and, once counted in the standings, its winner."""
    winners = {
        n: d["name"]
        for d in data.get("drivers", [])
        for n, position in enumerate(d["results"], start=1)
        if position == 1
    }
    rows = tuple(
        EventRow(
            number=race.number,
            name=name(race),
            url=race_url(race.number),
            status=race.status,
            status_label=status_label(race.status),
            note=note(race),
            winner=winners.get(race.number, ""),
        )
        for race in races
    )
    return EventList(title=_("Races"), awards=(), rows=rows, event_label=_("Race"))


def race_points(snapshot: dict[str, Any] | None, number: int) -> dict[int, int]:
    """Driver id → the points race ``number`` gave them, from the standings after it (drivers
    not entered in it have none)."""
    scored: dict[int, int] = {}
    for d in (snapshot or {}).get("drivers", []):
        totals = d.get("race_points") or []
        if number <= len(totals) and d["statuses"][number - 1] != "not_entered":
            scored[d["driver"]] = totals[number - 1]
    return scored
