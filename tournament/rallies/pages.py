"""Rally presenter: a rally's rows and stored snapshots → the generic page components of
``tournament.web`` (tables, event list, line chart). Nothing is recomputed here: every time comes
from the snapshots the worker stored; all snapshots of a rally are read in one query.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.clock import clock
from tournament.competitions.tie_break import row_sentence
from tournament.rallies.models import Driver, Rally, RallyChampionship, RallyStage
from tournament.rallies.setup import layout_name
from tournament.web import charts
from tournament.web import components as ui
from tournament.web.access import visible_or_404
from tournament.web.pages import status_label


def rally_queryset() -> Any:
    """Rallies with what a rally page shows: club, stages (without results), drivers."""
    return Rally.objects.select_related("club").prefetch_related(
        Prefetch("stages", queryset=RallyStage.objects.order_by("number").defer("results")),
        Prefetch("drivers", queryset=Driver.objects.order_by("order")),
    )


def get_rally(pk: Any, user: Any) -> Rally:
    """The rally with its set-up prefetched, if ``user`` may read it (else Http404)."""
    return visible_or_404(rally_queryset(), pk, user)


def names_of(rally: Rally) -> dict[int, str]:
    return {d.pk: d.name for d in rally.drivers.all()}


def stage_list(rally: Rally, snapshots: dict[int, dict[str, Any]], names: dict[int, str]) -> Any:
    """Every stage with its status, layout and winner(s)."""
    rows = []
    for stage in rally.stages.all():
        snap = snapshots.get(stage.number) or {}
        classified = (snap.get("stages") or [])[-1:] or [{}]
        winners = classified[0].get("winners") or []
        rows.append(
            ui.EventRow(
                number=stage.number,
                name=stage.name,
                url=reverse("rallies:stage", args=[rally.pk, stage.number]),
                status=stage.status,
                status_label=status_label(stage.status),
                note=layout_name(stage.layout),
                winner=", ".join(names.get(w, "") for w in winners),
            )
        )
    return ui.EventList(title=_("Stages"), awards=(), rows=tuple(rows), event_label=_("Stage"))


def overall_table(data: dict[str, Any]) -> ui.Table:
    """RM-44: ranked drivers with time and gap, then drivers out of the rally (RM-46)."""
    rows = []
    for row in data.get("overall") or []:
        out = row["out_after_stage"]
        rows.append(
            ui.Row(
                cells=(
                    ui.Cell(row["rank"], ui.RANK),
                    ui.Cell(row["name"]),
                    ui.Cell(row["time"], ui.TIME),
                    ui.Cell(row["gap"], ui.GAP),  # the leader's 0 reads "—"
                    ui.Cell(row["stage_wins"], ui.NUMBER),
                    ui.Cell(_("retired on stage %(n)s") % {"n": out} if out else ""),
                ),
                tie_break=row_sentence(row),
            )
        )
    return ui.Table(
        slug="overall",
        title=_("Overall classification"),
        columns=(
            ui.Column("rank", _("Rank"), ui.RANK),
            ui.Column("driver", _("Driver")),
            ui.Column("time", _("Time"), ui.TIME),
            ui.Column("gap", _("Gap"), ui.GAP),
            ui.Column("stage_wins", _("Stage wins"), ui.NUMBER),
            ui.Column("out", _("Out of the rally")),
        ),
        rows=tuple(rows),
        empty=_("No stage resolved yet."),
    )


def stage_table(snapshot: dict[str, Any] | None, number: int, names: dict[int, str]) -> ui.Table:
    """One stage's classification (RM-42): rank, driver, stage time, gap to the fastest."""
    stage = next(
        (s for s in (snapshot or {}).get("stages") or [] if s.get("number") == number), None
    )
    times = sorted(
        (stage or {}).get("times") or [],
        key=lambda t: (t.get("rank") is None, t.get("rank") or 0),
    )
    best = min((t["time"] for t in times if t.get("time") is not None), default=None)
    rows = []
    for t in times:
        time = t.get("time")
        rows.append(
            ui.Row(
                cells=(
                    ui.Cell(t.get("rank"), ui.RANK),
                    ui.Cell(names.get(t["driver"], ""), ui.TEXT),
                    ui.Cell(time, ui.TIME),
                    ui.Cell(None if time is None or best is None else time - best, ui.GAP),
                    ui.Cell("*" if t.get("super_rally") else "", ui.TEXT),
                ),
                tie_break=row_sentence(t),
            )
        )
    return ui.Table(
        slug="stage",
        title=_("Stage classification"),
        columns=(
            ui.Column("rank", _("Rank"), ui.RANK),
            ui.Column("driver", _("Driver")),
            ui.Column("time", _("Time"), ui.TIME),
            ui.Column("gap", _("Gap"), ui.GAP),
            ui.Column("super_rally", _("Super Rally")),
        ),
        rows=tuple(rows),
        empty=_("No results for this stage yet."),
    )


def stage_by_stage_table(data: dict[str, Any], names: dict[int, str]) -> ui.Table:
    """One row per driver (overall order), one column per stage: the stage time (RM-42).

    A stage win is marked ``(1)`` and a Super Rally time (RM-46) ``*``, in text rather than
    colour only, so the table reads the same aloud.
    """
    stages = data.get("stages") or []
    times = {
        s["number"]: {
            t["driver"]: (t["time"], t.get("super_rally"), t.get("rank")) for t in s["times"]
        }
        for s in stages
    }
    rows = []
    for row in data.get("overall") or []:
        cells = [ui.Cell(row["rank"], ui.RANK), ui.Cell(row["name"])]
        for s in stages:
            time, super_rally, rank = times[s["number"]].get(row["driver"], (None, False, None))
            text = _format_stage_time(time, super_rally, rank)
            cells.append(ui.Cell(text, ui.TEXT))
        cells.append(ui.Cell(row["time"], ui.TIME))
        rows.append(ui.Row(cells=tuple(cells)))
    return ui.Table(
        slug="stage-times",
        title=_("Stage times"),
        columns=(
            ui.Column("rank", _("Rank"), ui.RANK),
            ui.Column("driver", _("Driver")),
            *(ui.Column(f"ss{s['number']}", _("SS%(n)s") % {"n": s["number"]}) for s in stages),
            ui.Column("time", _("Total"), ui.TIME),
        ),
        rows=tuple(rows),
        empty=_("No stage resolved yet."),
    )


def _format_stage_time(time: int | None, super_rally: bool | None, rank: int | None) -> str:
    """``m:ss`` (RM-42), ``(1)`` after a stage win, ``*`` after a Super Rally time."""
    if time is None:
        return "–"
    text = clock(time)
    if super_rally:
        return f"{text}*"
    return f"{text} (1)" if rank == 1 else text


def gap_chart(
    snapshots: dict[int, dict[str, Any]], through: int | None, names: dict[int, str]
) -> charts.LineChart | None:
    """Each driver's gap to the leader after each stage (seconds; the leader's line is 0)."""
    numbers = [n for n in sorted(snapshots) if through is not None and n <= through]
    if not numbers:
        return None
    gaps: dict[int, list[int | None]] = {d: [] for d in names}
    for n in numbers:
        by_driver = {row["driver"]: row["gap"] for row in snapshots[n].get("overall") or []}
        for d in names:
            gaps[d].append(by_driver.get(d))
    series = [
        charts.Series(label=names[d], values=tuple(values), colour=i)
        for i, (d, values) in enumerate(gaps.items())
    ]
    # Gap labels ("+12m") are wider than ranks: room for them on the left.
    return charts.line_chart(
        [str(n) for n in numbers],
        series,
        lower_is_better=True,
        left=44,
        y_step=charts.time_step,
        y_label=_gap_label,
    )


def _gap_label(value: int) -> str:
    """A gap tick as every time is written (``0:00``, ``+0:15``, ``+1:00``: scoring.clock)."""
    return clock(value, sign="+" if value else "")


# --- championships -------------------------------------------------------------------------------


def championship_cards(user: Any, **filters: Any) -> list[ui.CompetitionCard]:
    """Home and club cards of the rally championships ``user`` may see (one query).

    A championship is running once one of its rallies has a resolved stage, upcoming before.
    """
    from django.db.models import Count, Q
    from django.utils.translation import gettext, ngettext

    championships = (
        RallyChampionship.objects.visible_to(user)
        .filter(**filters)
        .select_related("club")
        .annotate(
            rally_count=Count("entries", distinct=True),
            started=Count(
                "entries", filter=Q(entries__rally__standings_through__gt=0), distinct=True
            ),
        )
    )
    cards = []
    for championship in championships:
        running = bool(championship.started)
        cards.append(
            ui.CompetitionCard(
                kind_label=_("Rally championship"),
                name=championship.name,
                url=reverse("rallies:championship", args=[championship.pk]),
                club=championship.club.name,
                club_url=reverse("web:club", args=[championship.club.slug]),
                state="running" if running else "upcoming",
                state_label=gettext("running") if running else gettext("upcoming"),
                progress=ngettext("%(n)s rally", "%(n)s rallies", championship.rally_count)
                % {"n": championship.rally_count},
                public=championship.public,
                extra={"club_id": championship.club_id},
                created_at=championship.created_at,
            )
        )
    return cards


def get_championship(pk: Any, user: Any) -> RallyChampionship:
    """The championship with its rallies (in order), if ``user`` may read it (else Http404)."""
    from tournament.rallies.models import ChampionshipRally

    queryset = RallyChampionship.objects.select_related("club").prefetch_related(
        Prefetch(
            "entries",
            queryset=ChampionshipRally.objects.order_by("order").select_related("rally"),
        )
    )
    return visible_or_404(queryset, pk, user)


def championship_table(data: dict[str, Any], rally_count: int) -> ui.Table:
    """RM-51 order with points, wins and the position in each counted rally."""
    counted = data.get("after_rally") or 0
    rows = []
    for row in data.get("drivers") or []:
        dropped = set(row.get("dropped") or [])
        results = []
        for i, position in enumerate(row["results"], start=1):
            text = "–" if position is None else str(position)
            results.append(ui.Cell(f"({text})" if i in dropped else text))
        rows.append(
            ui.Row(
                cells=(
                    ui.Cell(row["rank"], ui.RANK),
                    ui.Cell(row["name"]),
                    *results,
                    ui.Cell(row["wins"], ui.NUMBER),
                    ui.Cell(row["points"], ui.NUMBER),
                ),
                tie_break=row_sentence(row),
            )
        )
    return ui.Table(
        slug="championship",
        title=_("Championship standings"),
        columns=(
            ui.Column("rank", _("Rank"), ui.RANK),
            ui.Column("driver", _("Driver")),
            *(ui.Column(f"r{n}", _("R%(n)s") % {"n": n}) for n in range(1, counted + 1)),
            ui.Column("wins", _("Wins"), ui.NUMBER),
            ui.Column("points", _("Points"), ui.NUMBER),
        ),
        rows=tuple(rows),
        empty=_("No rally counted yet: a rally counts once all its stages are resolved."),
    )


def rally_url(rally: Rally) -> str:
    return reverse("rallies:rally", args=[rally.pk])
