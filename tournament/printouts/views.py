"""``/<collection>/{id}/sheet.pdf`` and ``/<collection>/{id}/<events>/{n}/card.png``.

Both follow the page's visibility (a private competition is a 404 to whoever may not read it)
and the request's language (``?lang=`` first, so that a card shared in Portuguese unfolds in
Portuguese for a chat's crawler, which sends no cookie).

The sheet is made by a worker (WeasyPrint takes about a second or two for a long tour) and kept
per standings version and language. The first request for a version queues it and waits up to
``PODIUM_SHEET_WAIT_SECONDS`` (8 s) for it: a club's organiser clicking "Print sheet" nearly
always gets the PDF straight away. When the workers are busy it answers ``202`` with a short
"being prepared" page that reloads itself (``Retry-After`` and a refresh) until the PDF is
kept. Without a broker (eager tasks) the sheet is made in-process, in the request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils import translation
from django.views.decorators.http import require_safe

from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.printouts import cards, store
from tournament.printouts.sheets import COLLECTIONS
from tournament.printouts.tasks import make_sheet_task
from tournament.web import pages
from tournament.web.access import event_number, visible_or_404

POLL_SECONDS: Final = 0.2
RETRY_SECONDS: Final = 5


def language_of(request: HttpRequest) -> str:
    codes = {code for code, _name in settings.LANGUAGES}
    asked = request.GET.get("lang", "")
    if asked in codes:
        return asked
    current = (translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return current if current in codes else settings.LANGUAGE_CODE


def _pdf(pdf: bytes, name: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-") or "sheet"
    response["Content-Disposition"] = f'inline; filename="{safe}.pdf"'
    return response


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def _wait_for(key: str) -> bytes | None:
    deadline = time.monotonic() + store.wait_seconds()
    while time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        made = cache.get(key)
        if made is not None:
            return bytes(made)
    return None


def sheet_view(label: str) -> Callable[..., HttpResponse]:
    @require_safe
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        kind = get_kind(label)
        competition = visible_or_404(
            kind.competition_model.objects.select_related("club"), pk, request.user
        )
        language = language_of(request)
        version = int(competition.standings_version)
        key = store.sheet_key(label, competition.pk, version, language)
        made = cache.get(key)
        if made is None and _eager():
            with translation.override(language):
                store.make_sheet(label, competition.pk, language)
            made = cache.get(key)
        elif made is None:
            pending = store.pending_key(label, competition.pk, version, language)
            if cache.add(pending, 1, store.PENDING_SECONDS):
                make_sheet_task.delay(label, competition.pk, language)
            made = _wait_for(key)
        if made is not None:
            return _pdf(bytes(made), competition.name)
        with translation.override(language):
            response = render(
                request,
                "print/preparing.html",
                {"competition": competition, "retry": RETRY_SECONDS},
                status=202,
            )
        response["Retry-After"] = str(RETRY_SECONDS)
        response["Cache-Control"] = "no-store"
        return response

    return view


def _card_queryset(label: str) -> Any:
    from django.db.models import Prefetch

    if label == "tour":
        from tournament.tours.pages import tour_queryset

        return tour_queryset()
    if label == "rally":
        from tournament.rallies.pages import rally_queryset

        return rally_queryset()
    kind = get_kind(label)
    queryset = kind.competition_model.objects.select_related("club")
    if label == "league":
        return queryset.prefetch_related(*kind.detail_prefetch)
    from tournament.championships.models import Driver, Race

    return queryset.prefetch_related(
        Prefetch("drivers", queryset=Driver.objects.order_by("order")),
        Prefetch("races", queryset=Race.objects.order_by("number").defer("results")),
    )


def card_view(label: str) -> Callable[..., HttpResponse]:
    @require_safe
    def view(request: HttpRequest, pk: int, number: int) -> HttpResponse:
        kind = get_kind(label)
        competition = visible_or_404(_card_queryset(label), pk, request.user)
        event = (
            kind.event_model.objects.filter(competition=competition, number=event_number(number))
            .order_by()
            .first()
        )
        if event is None or event.status != Status.RESOLVED:
            raise Http404
        language = language_of(request)
        # The event's own version (a correction) and the competition's (a correction of an
        # earlier event changes the leaders after this one).
        version = f"{event.version}.{competition.standings_version}"
        key = store.card_key(label, competition.pk, event.number, version, language)
        png = cache.get(key)
        if png is None:
            snapshot = pages.event_snapshot(kind, competition, event)
            if snapshot is None:
                raise Http404
            with translation.override(language):
                png = cards.draw_card(cards.BUILDERS[label](competition, event, snapshot))
            cache.set(key, png, store.KEEP_SECONDS)
        response = HttpResponse(bytes(png), content_type="image/png")
        response["Cache-Control"] = "public, max-age=300"
        return response

    return view


def urlpatterns() -> list[URLPattern]:
    patterns = []
    for label, collection in COLLECTIONS.items():
        events = get_kind(label).event_word
        patterns += [
            path(f"{collection}/<int:pk>/sheet.pdf", sheet_view(label), name=f"{label}-sheet"),
            path(
                f"{collection}/<int:pk>/{events}/<int:number>/card.png",
                card_view(label),
                name=f"{label}-card",
            ),
        ]
    return patterns
