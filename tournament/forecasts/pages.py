"""The forecast section of every competition page: the title odds as tables (statuses in words,
reasons on hover, tap and for screen readers), the main classification's positions as a heat
map (shaded cells with their figures) and each title's odds after every event so far (the
shared accessible line chart, with its data table)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.forecasts.loaders import RALLY_CHAMPIONSHIP
from tournament.forecasts.models import Forecast
from tournament.forecasts.reading import forecast_body, history, ordered, stored
from tournament.web.charts import PALETTE_SIZE, LineChart, Series, line_chart

TITLE_NAMES = {
    "yellow": gettext_lazy("Yellow jersey (general classification)"),
    "green": gettext_lazy("Green jersey (sprint classification)"),
    "polka_dot": gettext_lazy("Polka dot jersey (mountain classification)"),
    "team": gettext_lazy("Team classification"),
    "tour_points": gettext_lazy("Tour winner (Tour Points)"),
    "drivers": gettext_lazy("Drivers' title"),
    "teams": gettext_lazy("Teams' title"),
    "overall": gettext_lazy("Rally winner"),
}
ENTRANT = {
    "rider": gettext_lazy("Rider"),
    "team": gettext_lazy("Team"),
    "driver": gettext_lazy("Driver"),
}
STATUS = {
    "clinched": gettext_lazy("Clinched"),
    "eliminated": gettext_lazy("Eliminated"),
    "open": gettext_lazy("Open"),
}
AFTER = {"tour": "after_stage", "rally": "after_stage", RALLY_CHAMPIONSHIP: "after_rally"}
#: Shades of the heat map (forecast.css: .heat-0 … .heat-9).
SHADES = 10
#: Lines of an odds chart at most (the palette's colours): the likeliest entrants.
CHART_LINES = PALETTE_SIZE


def percent(p: float) -> str:
    """A probability as a page writes it: 0 %, <1 %, 41 %, >99 %, 100 %."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{round(p * 100)}%"


def _entrant_key(entry: dict[str, Any]) -> str:
    return next((k for k in ("rider", "team", "driver") if k in entry), "name")


def odds_tables(titles: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    tables = []
    for key, entries in titles.items():
        column = _entrant_key(entries[0]) if entries else "name"
        rows = [
            {
                "name": e["name"],
                "percent": percent(e["probability"]),
                "status": e["status"],
                "status_label": STATUS.get(e["status"], e["status"]),
                "reason": e.get("reason"),
                "needs_help": e.get("needs_help"),
            }
            for e in entries
        ]
        tables.append(
            {
                "key": key,
                "label": TITLE_NAMES.get(key, key),
                "entrant": ENTRANT.get(column, _("Driver")),
                "rows": rows,
            }
        )
    return tables


def heat_map(positions: dict[str, list[dict[str, Any]]]) -> dict[str, Any] | None:
    for key, rows in positions.items():
        if not rows:
            return None
        column = _entrant_key(rows[0])
        return {
            "key": key,
            "entrant": ENTRANT.get(column, _("Driver")),
            "ranks": list(range(1, len(rows) + 1)),
            "rows": [
                {
                    "name": row["name"],
                    "cells": [
                        {
                            "text": percent(p) if p > 0 else "·",
                            "shade": min(SHADES - 1, int(p * SHADES)) if p > 0 else 0,
                            "empty": p <= 0,
                        }
                        for p in row["distribution"]
                    ],
                }
                for row in rows
            ],
        }
    return None


def _identity(entry: dict[str, Any]) -> Any:
    return entry.get(_entrant_key(entry), entry["name"])


def odds_charts(rows: list[Forecast]) -> list[dict[str, Any]]:
    """One chart per title: each likely entrant's odds (in %) after every event so far."""
    if len(rows) < 2:
        return []
    labels = [_("Start") if r.after == 0 else str(r.after) for r in rows]
    charts = []
    for title in ordered(rows[-1].titles):
        latest = rows[-1].titles[title]
        names = {_identity(e): e["name"] for e in latest}
        series_of: dict[Any, list[int | None]] = {k: [] for k in names}
        for row in rows:
            values = {_identity(e): e["probability"] for e in row.titles.get(title, [])}
            for k in names:
                v = values.get(k)
                series_of[k].append(None if v is None else round(v * 100))
        likely = [k for k in names if max((v or 0) for v in series_of[k]) >= 1][:CHART_LINES]
        if not likely:
            continue
        series = [
            Series(names[k], tuple(series_of[k]), colour=i % PALETTE_SIZE)
            for i, k in enumerate(likely)
        ]
        chart: LineChart = line_chart(
            labels, series, lower_is_better=False, y_label=lambda v: f"{v}%", left=40
        )
        charts.append({"key": title, "label": TITLE_NAMES.get(title, title), "chart": chart})
    return charts


def lead(kind: str, body: dict[str, Any]) -> str:
    """What the forecast is, in one sentence."""
    after = next((v for k, v in body.items() if k.startswith("after_")), None)
    count = body["simulations"]
    if kind == RALLY_CHAMPIONSHIP:
        since = _("after rally %(n)s") % {"n": after} if after else _("before the first rally")
    elif kind in ("tour", "rally"):
        since = _("after stage %(n)s") % {"n": after} if after else _("before the first stage")
    else:
        since = _("after race %(n)s") % {"n": after} if after else _("before the first race")
    return ngettext(
        "Chances from %(count)s simulation of what is left to play, %(since)s. Who can still "
        "win is exact; the chances are estimates from the results so far.",
        "Chances from %(count)s simulations of what is left to play, %(since)s. Who can still "
        "win is exact; the chances are estimates from the results so far.",
        count,
    ) % {"count": f"{count:,}", "since": since}


def section(kind: str, competition: Any) -> dict[str, Any]:
    """The include's context."""
    rows = stored(kind, competition)
    body = forecast_body(kind, competition, AFTER.get(kind, "after_race"), None, rows)
    return {
        "forecast": body,
        "computing": body["status"] == "computing",
        "lead": lead(kind, body) if body["titles"] else "",
        "tables": odds_tables(body["titles"]),
        "heat": heat_map(body["positions"]),
        "charts": odds_charts(history(kind, competition, rows)),
    }
