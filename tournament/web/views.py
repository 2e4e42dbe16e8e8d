"""Site-wide pages: home (clubs and their competitions, running first) and club pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from tournament.clubs.models import Club, Membership, Role
from tournament.web.components import CompetitionCard, sort_cards
from tournament.web.pages import cards_for


def _cards(user: Any, **filters: Any) -> list[CompetitionCard]:
    """Every competition ``user`` may see, of every registered game, running first."""
    return sort_cards(cards_for(user, **filters))


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The clubs with their visible competitions; running competitions first in each club."""
    cards = _cards(request.user)
    by_club: dict[int, list[CompetitionCard]] = {}
    for card in cards:
        by_club.setdefault(card.extra["club_id"], []).append(card)
    clubs = list(Club.objects.order_by("name"))
    running = [card for card in cards if card.state == "running"]
    context = {
        "running": running,
        "clubs": [(club, by_club.get(club.pk, [])) for club in clubs],
    }
    return render(request, "web/home.html", context)


@require_safe
def club(request: HttpRequest, slug: str) -> HttpResponse:
    """A club: its competitions, and for its members the member list and their role."""
    club = get_object_or_404(Club, slug=slug)
    cards = _cards(request.user, club=club)
    members: list[Membership] = []
    role = None
    if request.user.is_authenticated:
        members = list(
            Membership.objects.filter(club=club).select_related("user").order_by("user__username")
        )
        role = next((m.role for m in members if m.user_id == request.user.pk), None)
        if request.user.is_superuser and role is None:
            role = "organiser"
    context = {
        "club": club,
        "cards": cards,
        "members": members if role is not None else [],
        "role": role,
        "role_label": Role(role).label if role in Role.values else "",
    }
    return render(request, "web/club.html", context)
