"""The forecast of every competition, for its pages (issue #16, issue #17).

Two readings of the stored forecast, written once for every kind:

- :func:`summary`, the include of each competition page: who can still win each title and the
  favourite's chance, in one small table, with a link to the full forecast. The competition
  page reads only the latest forecast's titles (one query, without the simulations' exact
  statuses or the rank distribution): a 21-stage tour stores ~1.5 MB of forecasts whose
  decoding alone cost the page 25 ms, and its charts 80 KB.
- :func:`forecast_page`, ``/<collection>/<id>/forecast/`` (``?after_stage=N`` and the like):
  the title odds as tables (statuses in words, reasons on hover, tap and for screen readers),
  the main classification's positions as a heat map (shaded cells with their figures) and each
  title's odds after every event so far (the shared accessible line chart, with its data table).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe

from scoring.digits import parse_digits
from tournament.forecasts.loaders import RALLY_CHAMPIONSHIP, current
from tournament.forecasts.models import Forecast
from tournament.forecasts.reading import forecast_body, history, ordered
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


def _rows(kind: str, competition: Any) -> list[Forecast]:
    """The competition's stored forecasts in event order, without the exact statuses kept for
    the chunks' merge (as large as the titles, and read by no page)."""
    rows = Forecast.objects.filter(kind=kind, competition_id=competition.pk)
    return list(rows.defer("exact").order_by("after"))


def section(kind: str, competition: Any, after: int | None = None) -> dict[str, Any]:
    """The full forecast after event ``after`` (None: the latest; validated by the caller):
    odds tables, heat map and the odds after each event up to it (one query)."""
    rows = _rows(kind, competition)
    body = forecast_body(kind, competition, AFTER.get(kind, "after_race"), after, rows)
    shown = body.get(AFTER.get(kind, "after_race")) or 0
    ready = [r for r in history(kind, competition, rows) if r.after <= shown]
    return {
        "forecast": body,
        "computing": body["status"] == "computing",
        "lead": lead(kind, body) if body["titles"] else "",
        "tables": odds_tables(body["titles"]),
        "heat": heat_map(body["positions"]),
        "charts": odds_charts(ready),
    }


#: Entrants named beside the favourite in the summary, at most (then "and N more").
OTHERS = 3


#: Shorter names of the titles where the summary's first column needs them (a phone's width).
SHORT_NAMES: dict[str, str | Promise] = {
    "yellow": gettext_lazy("Yellow jersey"),
    "green": gettext_lazy("Green jersey"),
    "polka_dot": gettext_lazy("Polka Dot jersey"),
    "team": gettext_lazy("Team classification"),
    "tour_points": gettext_lazy("Tour Points"),
}


def title_summary(titles: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per title: the favourite (entries come highest probability first) with its
    chance and status, and the others who can still win it, in one line of text."""
    summary = []
    for key, entries in titles.items():
        if not entries:
            continue
        favourite, rest = entries[0], entries[1:]
        alive = [e for e in rest if e["status"] != "eliminated"]
        others = ", ".join(f"{e['name']} {percent(e['probability'])}" for e in alive[:OTHERS])
        more = len(alive) - OTHERS
        if more > 0:
            others += " " + ngettext("and %(n)s more", "and %(n)s more", more) % {"n": more}
        summary.append(
            {
                "key": key,
                "label": SHORT_NAMES.get(key) or TITLE_NAMES.get(key, key),
                "name": favourite["name"],
                "percent": percent(favourite["probability"]),
                "status": favourite["status"],
                "status_label": STATUS.get(favourite["status"], favourite["status"]),
                "others": others,
            }
        )
    return summary


def forecast_url(kind: str, pk: int) -> str:
    """The address of the competition's full forecast page (``forecast:<kind>``)."""
    return reverse(f"forecast:{kind}", args=[pk])


def summary(kind: str, competition: Any) -> dict[str, Any]:
    """The competition page's include: the latest forecast's titles only (one query).

    The summary names no reasons: the titles are read as stored (reasons untranslated, each
    entrant's scenario unread) and only the status, the lead and the planning of a missing or
    stale forecast go through :func:`forecast_body` (with the titles left out).
    """
    now_after = current(kind, competition)[0]
    rows = list(
        Forecast.objects.filter(kind=kind, competition_id=competition.pk, after=now_after).defer(
            "exact", "positions"
        )
    )
    titles: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        titles = {title: row.titles[title] for title in ordered(row.titles)}
        # read here, not translated again there; the distribution (deferred) is not shown
        row.titles, row.positions = {}, {}
    body = forecast_body(kind, competition, AFTER.get(kind, "after_race"), None, rows)
    titles = titles or body["titles"]  # none stored before: the read planned and re-read it
    return {
        "computing": body["status"] == "computing",
        "lead": lead(kind, body) if titles else "",
        "titles": title_summary(titles),
        "url": forecast_url(kind, competition.pk),
    }


# --- the forecast page -------------------------------------------------------------------------

#: The label of the page's ``after_*`` selector, per kind.
AFTER_LABEL = {
    "tour": gettext_lazy("After stage"),
    "rally": gettext_lazy("After stage"),
    RALLY_CHAMPIONSHIP: gettext_lazy("After rally"),
}


def _competition(kind: str, pk: int, user: Any) -> tuple[Any, str]:
    """The competition ``pk`` if ``user`` may read it (else Http404) and its page's address."""
    from tournament.web.access import visible_or_404
    from tournament.web.pages import pages_of

    if kind == RALLY_CHAMPIONSHIP:
        from tournament.rallies.models import RallyChampionship

        queryset: Any = RallyChampionship.objects.select_related("club")
        competition = visible_or_404(queryset, pk, user)
        return competition, reverse("rallies:championship", args=[competition.pk])
    pages = pages_of(kind)
    if pages is None:
        raise Http404
    competition = visible_or_404(
        pages.game.competition_model.objects.select_related("club"), pk, user
    )
    return competition, pages.competition_url(competition.pk)


def _after(request: HttpRequest, name: str, latest: int) -> int | None:
    """The ``after_*`` parameter: None when absent, else 0..latest (anything else is a 400, as
    in the API)."""
    raw = request.GET.get(name, "")
    if raw == "":
        return None
    try:
        after = parse_digits(raw)
    except ValueError:
        raise BadRequest(_("%(name)s must be a whole number.") % {"name": name}) from None
    if after > latest:
        raise BadRequest(_("Must be between 0 and %(n)s.") % {"n": latest})
    return after


def forecast_page(request: HttpRequest, pk: int, *, kind: str) -> HttpResponse:
    """Every title's odds, the final positions and the odds after each event so far."""
    competition, competition_url = _competition(kind, pk, request.user)
    name = AFTER.get(kind, "after_race")
    latest = current(kind, competition)[0]
    after = _after(request, name, latest)
    context = section(kind, competition, after)
    shown = context["forecast"].get(name) or 0
    context.update(
        {
            "competition": competition,
            "competition_url": competition_url,
            "after_name": name,
            "after_label": AFTER_LABEL.get(kind, _("After race")),
            "after_choices": [(n, str(n) if n else _("Start")) for n in range(latest + 1)],
            "shown": shown,
        }
    )
    return render(request, "web/forecast/page.html", context)


def urlpatterns() -> list[URLPattern]:
    """``/<collection>/<id>/forecast/`` for every kind with pages, and rally championships."""
    from tournament.web.pages import all_pages

    collections = [(p.kind, p.game.collection) for p in all_pages()]
    collections.append((RALLY_CHAMPIONSHIP, "rally-championships"))
    return [
        path(
            f"{collection}/<int:pk>/forecast/",
            require_safe(partial(forecast_page, kind=kind)),
            name=kind,
        )
        for kind, collection in collections
    ]
