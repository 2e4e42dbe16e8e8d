"""Player pages: /clubs/<slug>/players/ and /clubs/<slug>/players/<id>/ (with the merge action)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.clubs.models import Club, Role, role_in
from tournament.competitions.errors import InvalidInput
from tournament.players import services
from tournament.players.models import Player
from tournament.players.record import player_record

COLLECTIONS = {
    "tour": "tours",
    "championship": "championships",
    "league": "leagues",
    "rally": "rallies",
}


def players(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    rows = Player.objects.filter(club=club).order_by("key")
    return render(request, "web/players/list.html", {"club": club, "players": rows})


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
    record = player_record(person, request.user)
    for row in record:
        row["url"] = f"/{COLLECTIONS[row['kind']]}/{row['id']}/"
    others = Player.objects.filter(club=club).exclude(pk=pk).order_by("key") if can_organise else []
    context = {
        "club": club,
        "player": person,
        "record": record,
        "titles": sum(len(r["titles"]) for r in record),
        "wins": sum(r["event_wins"] for r in record),
        "can_organise": can_organise,
        "others": others,
    }
    return render(request, "web/players/player.html", context)
