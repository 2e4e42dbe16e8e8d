"""Player pages: /clubs/<slug>/players/, /clubs/<slug>/players/<id>/ (best results, head-to-head,
charts, the merge action) and the hall of fame /clubs/<slug>/hall-of-fame/."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.clubs.models import Club, Role, role_in
from tournament.competitions.errors import InvalidInput
from tournament.players import career, hall_of_fame, labels, services
from tournament.players.history import KINDS
from tournament.players.models import Player
from tournament.players.record import load as record_history
from tournament.players.record import player_record
from tournament.web.charts import PALETTE_SIZE, LineChart, Series, line_chart

COLLECTIONS = {
    "tour": "tours",
    "championship": "championships",
    "league": "leagues",
    "rally": "rallies",
}


def competition_url(kind: str, pk: int) -> str:
    return f"/{COLLECTIONS[kind]}/{pk}/"


def players(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    rows = Player.objects.filter(club=club).order_by("key")
    return render(request, "web/players/list.html", {"club": club, "players": rows})


def _opponent(request: HttpRequest, person: Player, others: list[Player]) -> Player | None:
    """The ``?vs=`` player, ``None`` without one; InvalidInput for anything but another player."""
    raw = request.GET.get("vs", "")
    if raw == "":
        return None
    chosen = next((o for o in others if str(o.pk) == raw.strip()), None)
    if chosen is None:
        raise InvalidInput({"vs": [_("Choose another player of the club to compare with.")]})
    return chosen


def _rank_chart(
    chosen: list[Any], series: dict[int, list[int | None]], names: dict[int, str]
) -> LineChart:
    """Rank per competition, oldest first (x: the competitions' numbers in the legend): one
    line per player, the second dashed."""
    x_labels = [str(n) for n in range(1, len(chosen) + 1)]
    lines = [
        Series(names[pk], tuple(values), colour=index % PALETTE_SIZE, dashed=index == 1)
        for index, (pk, values) in enumerate(series.items())
    ]
    return line_chart(x_labels, lines)


def _charts(history: list[Any], person: Player, rival: Player | None) -> list[dict[str, Any]]:
    charts = []
    chosen, series = career.rank_series(history, [person.pk])
    if chosen:
        names = {person.pk: person.name}
        charts.append(
            {
                "key": "ranks",
                "chart": _rank_chart(chosen, series, names),
                "legend": [(c.name, labels.GAME_ONE[c.kind]) for c in chosen],
                "title": _("%(name)s: rank in each competition") % {"name": person.name},
                "desc": _(
                    "Rank 1 is at the top; competitions oldest first, numbered as in the list "
                    "below the chart, which names each one's game."
                ),
            }
        )
    if rival is not None:
        shared = [c for c in history if c.entry_of(person.pk) and c.entry_of(rival.pk)]
        chosen, series = career.rank_series(shared, [person.pk, rival.pk])
        if chosen:
            names = {person.pk: person.name, rival.pk: rival.name}
            charts.append(
                {
                    "key": "versus",
                    "chart": _rank_chart(chosen, series, names),
                    "legend": [(c.name, labels.GAME_ONE[c.kind]) for c in chosen],
                    "title": _("%(a)s and %(b)s: ranks where both entered")
                    % {"a": person.name, "b": rival.name},
                    "desc": _(
                        "One line per player (the second dashed); rank 1 is at the top; "
                        "competitions oldest first, numbered as in the list below the chart."
                    ),
                }
            )
    return charts


@require_http_methods(["GET", "POST"])
def player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    person = get_object_or_404(Player.objects.select_related("user"), club=club, pk=pk)
    can_organise = role_in(club.pk, request.user) == Role.ORGANISER
    if request.method == "POST":
        if not can_organise:
            raise PermissionDenied
        try:
            into = services.merge(person, int(request.POST.get("into") or 0))
        except (InvalidInput, ValueError):
            messages.error(request, _("Choose another player of the club to merge into."))
            return redirect("players:player", slug, pk)
        messages.success(request, _("The players are merged."))
        return redirect("players:player", slug, into.pk)
    others = list(Player.objects.filter(club=club).exclude(pk=pk).order_by("key"))
    status, vs_error = 200, ""
    try:
        rival = _opponent(request, person, others)
    except InvalidInput as error:
        rival, status = None, 400
        vs_error = str(error.detail["vs"][0])
    history = record_history(club, person, request.user, rivals=(rival.pk,) if rival else ())
    record = player_record(person, request.user, history)
    for row in record:
        row["url"] = competition_url(row["kind"], row["id"])
        row["title_labels"] = [labels.title(t) for t in row["titles"]]
        row["jersey_labels"] = [(labels.title(j), n) for j, n in row["jerseys"].items()]
    best = [
        {
            "game": labels.GAMES[b.kind],
            "best": b,
            "rank_in": [(name, competition_url(kind, cid)) for kind, cid, name in b.rank_in],
        }
        for b in career.best_results(history, person.pk)
    ]
    versus = None
    if rival is not None:
        versus = career.head_to_head(history, person.pk, rival.pk)
        for row in versus["competitions"]:
            row["url"] = competition_url(row["kind"], row["id"])
        for row in versus["games"]:
            row["game"] = labels.GAMES[row["kind"]]
    context = {
        "club": club,
        "player": person,
        "record": record,
        "titles": sum(len(r["titles"]) for r in record),
        "wins": sum(r["event_wins"] for r in record),
        "best": best,
        "rival": rival,
        "versus": versus,
        "vs_error": vs_error,
        "charts": _charts(history, person, rival),
        "can_organise": can_organise,
        "others": others,
    }
    return render(request, "web/players/player.html", context, status=status)


def hall(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    body = hall_of_fame.club_hall_of_fame(club, request.user)
    for row in body["records"]:
        row["holders"] = [
            {**asdict(h), "url": competition_url(h.kind, h.competition_id)} for h in row["holders"]
        ]
        row["label"] = labels.record(row["key"], row["kind"])
        row["figure_text"] = labels.figure(row["key"], row["kind"], row["figure"])
        row["game"] = labels.GAMES[row["kind"]]
    for running in body["holders"]:
        running["url"] = competition_url(running["kind"], running["id"])
        running["game"] = labels.GAME_ONE[running["kind"]]
        for held in running["titles"]:
            held["label"] = labels.title(held["title"])
    for row in body["titles"]:
        row["cells"] = [row["games"][k] for k in KINDS]
    context = {
        "club": club,
        **body,
        "games": [labels.GAMES[k] for k in KINDS],
    }
    return render(request, "web/hall_of_fame/hall.html", context)
