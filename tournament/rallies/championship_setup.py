"""The organisers' rally championship pages: ``/clubs/<slug>/rally-championships/new/`` and
``/rally-championships/<id>/edit/`` (issue #15, items 3 and 4).

A rally championship picks the club's rallies in order and scores them with a points table of
RM-47 (a preset or the club's own list), an optional power stage (RM-48) and drop-worst (RM-50).
The new page runs ``POST /api/rally-championships/``'s own serializer and service; the edit page
runs :class:`~tournament.rallies.serializers.RallyChampionshipPatchSerializer` and
``services.update_championship``: once a rally of it holds results, the settings and the rallies
already in it stay, and rallies can still be added at the end (as the API's ``rallies/``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.rally import PRESETS
from tournament.clubs.models import Club, Role, role_in
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.rallies import services
from tournament.rallies.models import Rally, RallyChampionship
from tournament.rallies.serializers import (
    RallyChampionshipCreateSerializer,
    RallyChampionshipPatchSerializer,
)
from tournament.web.setup import entries
from tournament.web.setup.boxes import ErrorMap, Values, box, numbers_or_text, ticked, whole_or_text
from tournament.web.setup.flow import Lock, organised_club
from tournament.web.setup.views import posted

TEMPLATE = "web/setup/rally_championship.html"


def _initial() -> Values:
    return {
        "name": "",
        "public": "on",
        "power_stage": "",
        "power_stage_points": "5, 4, 3, 2, 1",
        "drop_worst": "0",
        **entries.points_values(None, "wrc-2010"),
    }


def _current(championship: RallyChampionship) -> Values:
    points = championship.points
    values: Values = {
        "name": championship.name,
        "public": "on" if championship.public else "",
        "power_stage": "on" if championship.power_stage else "",
        "power_stage_points": ", ".join(str(p) for p in championship.power_stage_points),
        "drop_worst": str(championship.drop_worst),
        **entries.points_values(points, points if isinstance(points, str) else None),
    }
    for order, entry in enumerate(championship.entries.order_by("order"), start=1):
        values[f"pick-{entry.rally_id}"] = "on"
        values[f"order-{entry.rally_id}"] = str(order)
    return values


def picked_rallies(values: Values, rallies: list[Rally]) -> list[int]:
    """The ticked rallies in the order typed beside them (blank: after the numbered ones)."""
    picked = []
    for place, rally in enumerate(rallies):
        if ticked(values, f"pick-{rally.pk}"):
            order = whole_or_text(values.get(f"order-{rally.pk}"))
            key = order if isinstance(order, int) else len(rallies) + place
            picked.append((key, place, rally.pk))
    return [pk for _key, _place, pk in sorted(picked)]


def _settings(values: Values) -> dict[str, Any]:
    drop = whole_or_text(values.get("drop_worst"))
    return {
        "points": entries.points_payload(values) or "wrc-2010",
        "power_stage": ticked(values, "power_stage"),
        "power_stage_points": numbers_or_text(values.get("power_stage_points")),
        "drop_worst": 0 if drop is None else drop,
    }


def _render(
    request: HttpRequest,
    values: Values,
    errors: ErrorMap,
    *,
    club: Club,
    championship: RallyChampionship | None = None,
    lock: Lock | None = None,
) -> HttpResponse:
    lock = lock or Lock(locked=False)
    had_errors = bool(errors)
    rallies = list(Rally.objects.filter(club=club).order_by("created_at", "pk"))
    locked_ids = set(lock.events)
    rows = [
        {
            "rally": rally,
            "pick": box(values, errors, f"pick-{rally.pk}", rally.name, kind="check"),
            "order": box(values, errors, f"order-{rally.pk}", _("Order"), kind="number"),
            "fixed": rally.pk in locked_ids,
        }
        for rally in rallies
    ]
    settings = [
        box(
            values,
            errors,
            "power_stage",
            _("Power stage"),
            kind="check",
            help=_("The last stage of each rally is its power stage (RM-48)."),
        ),
        box(
            values,
            errors,
            "power_stage_points",
            _("Power stage points"),
            kind="list",
            help=_("Points of the power stage's fastest finishers, from 1st down (RM-48)."),
            default="5, 4, 3, 2, 1",
        ),
        box(
            values,
            errors,
            "drop_worst",
            _("Drop worst results"),
            kind="number",
            unit=_("rallies"),
            help=_("Each driver's lowest rally scores discarded, absences included (RM-50)."),
            default="0",
        ),
    ]
    context = {
        "club": club,
        "competition": championship,
        "general": [
            box(values, errors, "name", _("Name"), required=True),
            box(values, errors, "public", _("Public: anyone can read the standings"), kind="check"),
        ],
        "points": entries.points_boxes(values, errors, PRESETS),
        "settings": settings,
        "rally_rows": rows,
        "rallies_errors": errors.take_under("rallies"),
        "lock": lock,
        "lock_events": ", ".join(r.name for r in rallies if r.pk in locked_ids),
        "lock_more": [_("add more of the club's rallies at the end of the championship.")],
        "had_errors": had_errors,
        "top_errors": errors.rest(),
        "detail_url": reverse("rallies:championship", args=[championship.pk])
        if championship
        else "",
        "presets": [],
    }
    return render(request, TEMPLATE, context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new(request: HttpRequest, slug: str) -> HttpResponse:
    """A new rally championship of the club's rallies (organisers of the club)."""
    club = organised_club(request, slug)
    if request.method != "POST":
        return _render(request, _initial(), ErrorMap(), club=club)
    values, action = posted(request)
    rallies = list(Rally.objects.filter(club=club).order_by("created_at", "pk"))
    payload = {
        "club": club.slug,
        "name": values.get("name", ""),
        "public": ticked(values, "public"),
        **_settings(values),
        "rallies": picked_rallies(values, rallies),
    }
    body = RallyChampionshipCreateSerializer(data=payload)
    if action or not body.is_valid():
        errors = ErrorMap(None if action else body.errors)
        return _render(request, values, errors, club=club)
    data = body.validated_data
    order = {pk: i for i, pk in enumerate(data["rallies"])}
    chosen = sorted(Rally.objects.filter(pk__in=data["rallies"]), key=lambda r: order[r.pk])
    championship = services.create_championship(
        club=club,
        name=data["name"],
        public=data["public"],
        settings=data["settings"],
        rallies=chosen,
        by=request.user,
    )
    messages.success(
        request, _("Rally championship %(name)s is set up.") % {"name": championship.name}
    )
    return HttpResponseRedirect(reverse("rallies:championship", args=[championship.pk]))


def _organised_championship(request: HttpRequest, pk: int) -> RallyChampionship:
    """404 when the user may not read it (visibility first), 403 unless they organise its club."""
    championship = (
        RallyChampionship.objects.visible_to(request.user)
        .select_related("club")
        .filter(pk=pk)
        .first()
    )
    if championship is None:
        raise Http404
    if role_in(championship.club_id, request.user) != Role.ORGANISER:
        raise PermissionDenied
    return championship


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Name and visibility always; settings and rallies until one of them holds results."""
    championship = _organised_championship(request, pk)
    club = championship.club
    lock = Lock(locked=False, events=[r.pk for r in services.championship_locked(championship)])
    lock.locked = bool(lock.events)
    if request.method != "POST":
        return _render(
            request,
            _current(championship),
            ErrorMap(),
            club=club,
            championship=championship,
            lock=lock,
        )
    values, action = posted(request)
    rallies = list(Rally.objects.filter(club=club).order_by("created_at", "pk"))
    payload: dict[str, Any] = {"name": values.get("name", ""), "public": ticked(values, "public")}
    payload["rallies"] = picked_rallies(values, rallies)
    if not lock.locked:
        payload |= _settings(values)
    body = RallyChampionshipPatchSerializer(data=payload, context={"championship": championship})
    errors = ErrorMap()
    if not action and body.is_valid():
        try:
            services.update_championship(
                championship_id=championship.pk, changes=body.validated_data, by=request.user
            )
        except (Conflict, InvalidInput) as exc:
            errors.add(exc.detail)
        else:
            messages.success(request, _("Changes saved."))
            return HttpResponseRedirect(reverse("rallies:championship", args=[championship.pk]))
    elif not action:
        errors.add(body.errors)
    return _render(request, values, errors, club=club, championship=championship, lock=lock)
