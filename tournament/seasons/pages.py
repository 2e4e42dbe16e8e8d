"""Season pages: ``/clubs/<slug>/seasons/<id>/`` (the standings, with ties explained) and the
organisers' ``/clubs/<slug>/seasons/new/`` (pick finished competitions of the club)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring.seasons import points_for
from tournament.clubs.models import Club, Role, role_in
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.competitions.tie_break import ordinal
from tournament.seasons import services
from tournament.seasons.forms import SeasonForm
from tournament.seasons.models import Kind, Season
from tournament.seasons.serializers import SeasonInputSerializer
from tournament.seasons.standings import finished_ids, season_table

#: How the form names each game beside a competition's name.
GAMES = {
    Kind.TOUR: gettext_lazy("Grand Tour"),
    Kind.CHAMPIONSHIP: gettext_lazy("Formula D championship"),
    Kind.LEAGUE: gettext_lazy("League"),
    Kind.RALLY: gettext_lazy("Rally"),
}


def _url(kind: str, pk: int) -> str:
    return f"/{get_kind(kind).collection}/{pk}/"


@require_http_methods(["GET", "HEAD", "POST"])
def season(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    found = get_object_or_404(Season.objects.prefetch_related("items"), club=club, pk=pk)
    can_organise = role_in(club.pk, request.user) == Role.ORGANISER
    if request.method == "POST":
        # The organisers' one action here: delete the season (its competitions stay).
        if not can_organise or request.POST.get("action") != "delete":
            raise PermissionDenied
        found.delete()
        messages.success(request, _("The season %(name)s is deleted.") % {"name": found.name})
        return redirect("web:club", club.slug)
    table = season_table(found, request.user)
    competitions = [{**c, "url": _url(c["kind"], c["id"])} for c in table["competitions"]]
    rows = [
        {
            **row,
            "cells": [
                {"rank": ordinal(r) if r is not None else "", "points": points_for(found.points, r)}
                for r in row["results"]
            ],
            "tie_break_text": (row.get("tie_break") or {}).get("text", ""),
        }
        for row in table["players"]
    ]
    context = {
        "club": club,
        "season": found,
        "competitions": competitions,
        "counted": sum(1 for c in competitions if c["finished"]),
        "rows": rows,
        "ties": [r for r in rows if r["tie_break_text"]],
        "points": ", ".join(str(p) for p in found.points),
        "can_organise": can_organise,
    }
    return render(request, "web/seasons/season.html", context)


def _finished_choices(club: Club) -> list[tuple[str, str]]:
    """``"kind:id"`` → "Name (game)" for every finished competition of the club (2 queries a
    game), newest first within each game."""
    choices: list[tuple[str, str]] = []
    for kind in Kind:
        model = get_kind(kind.value).competition_model
        rows = list(model.objects.filter(club=club).values_list("pk", "name"))
        done = finished_ids(kind.value, [pk for pk, _name in rows])
        choices += [
            (f"{kind.value}:{pk}", f"{name} ({GAMES[kind]})") for pk, name in rows if pk in done
        ]
    return choices


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_season(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if role_in(club.pk, request.user) != Role.ORGANISER:
        raise PermissionDenied
    choices = _finished_choices(club)
    form = SeasonForm(request.POST or None, choices=choices)
    if request.method == "POST" and form.is_valid():
        created = _create(request, club, form)
        if created is not None:
            return redirect("seasons:season", club.slug, created.pk)
    return render(
        request, "web/seasons/new.html", {"club": club, "form": form, "has_choices": bool(choices)}
    )


def _create(request: HttpRequest, club: Club, form: SeasonForm) -> Season | None:
    """Run the API's checks and service; their errors land on the form's fields."""
    body = SeasonInputSerializer(data=form.api_body())
    errors: Any = None
    if body.is_valid():
        try:
            return services.create_season(club=club, by=request.user, **body.validated_data)
        except InvalidInput as exc:
            errors = exc.detail
    else:
        errors = body.errors
    for field, problems in dict(errors).items():
        for problem in _messages(problems):
            form.add_error(field if field in form.fields else None, problem)
    return None


def _messages(problems: Any) -> list[str]:
    """The plain messages of a DRF error tree (a list, or per item a dict of lists)."""
    found: list[str] = []
    if isinstance(problems, dict):
        for value in problems.values():
            found += _messages(value)
    elif isinstance(problems, list):
        for value in problems:
            found += _messages(value)
    else:
        found.append(str(problems))
    return found


__all__ = ["new_season", "season"]
