"""Run a competition from its pages (issue #15 item 5): simulate an event, simulate a tour's
remaining stages, resolve a failed event again.

Every action goes through the services the API and the admin use — ``simulation`` (the API's
``simulate/``: its checks, its stored request, the worker), ``services.requeue_events`` (the
admin's "resolve again") — so a page can never do what the API refuses. Each event page shows
the panel (``{% run_actions %}``, ``tournament.web.templatetags.podium_run``) to scorekeepers and
organisers of the club: the buttons the event's state allows, or the reason it cannot be
simulated now. The actions are POST forms (CSRF), answered with a redirect and a banner.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.competitions import services, simulation
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.competitions.forms import flatten
from tournament.competitions.kinds import AnyKind, GameKind, all_kinds, get_kind
from tournament.competitions.models import Competition, Event, Status
from tournament.web import pages
from tournament.web.access import may_write, require_write_role, visible_or_404

log = logging.getLogger(__name__)


def has_simulator(kind: AnyKind) -> bool:
    """Whether the game plays its events with an engine (leagues have none: API.md)."""
    return type(kind).simulate is not GameKind.simulate


@dataclass(frozen=True)
class EventRun:
    """What the event page offers a scorekeeper: each action's address, or why not."""

    simulate_url: str = ""
    again: bool = False  # the event has results: simulating replaces them (a new version)
    reason: str = ""  # why it cannot be simulated now
    pending: bool = False  # a simulation was asked for and is not played yet
    resolve_url: str = ""
    engine: bool = True  # the game has a simulator at all


@dataclass(frozen=True)
class RemainingRun:
    """The competition page's "simulate the remaining stages": how many, from which, or why not."""

    url: str = ""
    first: int = 0
    count: int = 0
    reason: str = ""
    pending: bool = False


def _reason(exc: InvalidInput | Conflict) -> str:
    """The refusal's messages as a reader reads them (without the API's field names)."""
    return " ".join(flatten(exc.detail))


def _stuck(event: Event) -> bool:
    """Submitted for longer than the sweeper waits: its resolution may have been lost."""
    if event.status != Status.SUBMITTED or event.submitted_at is None:
        return False
    return bool(event.submitted_at < timezone.now() - settings.PODIUM_SWEEP_AFTER)


def event_run(kind: AnyKind, competition: Competition, event: Event, user: Any) -> EventRun | None:
    """The run panel of ``event`` for ``user``; None for readers who may not run it."""
    if not may_write(user, competition):
        return None
    resolve = ""
    if (event.status == Status.FAILED and event.has_results) or _stuck(event):
        resolve = url_of(kind, "resolve", competition.pk, event.number)
    if not has_simulator(kind):
        return EventRun(resolve_url=resolve, engine=False)
    if event.simulation_requested_at is not None:
        return EventRun(pending=True, resolve_url=resolve)
    if event.status == Status.SUBMITTED:
        reason = _("The results are being resolved; a simulation can start once that is done.")
        return EventRun(reason=reason, resolve_url=resolve)
    try:
        simulation.check_simulation(kind=kind, competition=competition, event=event)
    except (InvalidInput, Conflict) as exc:
        return EventRun(reason=_reason(exc), resolve_url=resolve)
    return EventRun(
        simulate_url=url_of(kind, "simulate", competition.pk, event.number),
        again=event.has_results,
        resolve_url=resolve,
    )


def remaining_run(kind: AnyKind, competition: Competition, user: Any) -> RemainingRun | None:
    """The "simulate the remaining stages" offer of ``competition``; None when there is nothing
    to offer (a reader, a game without a simulator, every event with results)."""
    if not has_simulator(kind) or not may_write(user, competition):
        return None
    events = list(kind.event_model.objects.filter(competition=competition).order_by("number"))
    remaining = [e for e in events if not e.has_results]
    if not remaining:
        return None
    first = remaining[0]
    if any(e.simulation_requested_at is not None for e in events):
        return RemainingRun(first=first.number, count=len(remaining), pending=True)
    try:
        simulation.check_simulation(kind=kind, competition=competition, event=first)
    except (InvalidInput, Conflict) as exc:
        return RemainingRun(
            first=first.number,
            count=len(remaining),
            reason=_("%(event)s: %(reason)s")
            % {"event": kind.event_label(first.number), "reason": _reason(exc)},
        )
    return RemainingRun(
        url=url_of(kind, "simulate-remaining", competition.pk),
        first=first.number,
        count=len(remaining),
    )


# --- the services behind the buttons -----------------------------------------------------------


def request_remaining(*, kind: AnyKind, competition: Competition, by: Any) -> Event:
    """Queue the simulation of every event without results, in order (checked now: 400/409).

    The first one's request is stored like the API's ``simulate/`` (the sweeper plays it even if
    the message is lost); the worker's :func:`play_remaining` plays it, resolves it, then the
    next, each with the same checks, so an event always starts from the standings before it.
    """
    from tournament.web.tasks import simulate_remaining_task

    first = (
        kind.event_model.objects.filter(competition=competition, version=0)
        .order_by("number")
        .first()
    )
    if first is None:
        raise Conflict(_("Every event already has results."))
    simulation.check_simulation(kind=kind, competition=competition, event=first)
    user_id = by.pk if getattr(by, "is_authenticated", False) else None
    with transaction.atomic():
        first.request_simulation(by=by, now=timezone.now())
        transaction.on_commit(
            lambda: simulate_remaining_task.delay(kind.label, competition.pk, user_id),
            robust=True,
        )
    return first


def play_remaining(*, kind: AnyKind, competition_id: int, by: Any) -> int:
    """Simulate and resolve, in order, every event without results; how many were played.

    Stops at the first event that cannot be simulated (the same checks as the API), that the
    engine could not play, or that did not resolve: a later one would start from standings
    that do not exist. Each event's simulation is the worker's own task body, run here.
    """
    from tournament.competitions.tasks import simulate_event_task

    played = 0
    events = kind.event_model.objects.filter(competition_id=competition_id)
    for number in list(
        events.filter(version=0).order_by("number").values_list("number", flat=True)
    ):
        event = events.get(number=number)
        competition = kind.competition_model.objects.get(pk=competition_id)
        try:
            simulation.check_simulation(kind=kind, competition=competition, event=event)
        except (InvalidInput, Conflict) as exc:
            log.info(
                "remaining run of %s %s stops at %s: %s", kind.label, competition_id, number, exc
            )
            break
        event.request_simulation(by=by, now=timezone.now())
        simulate_event_task.apply(args=(kind.label, event.pk))
        # Resolved here (idempotent if the queued resolution got there first): the next event
        # starts from the standings after this one.
        services.resolve_event(kind=kind, event_id=event.pk)
        event.refresh_from_db()
        if event.status != Status.RESOLVED:
            break
        played += 1
    return played


# --- views ---------------------------------------------------------------------------------------


def _load(request: HttpRequest, label: str, pk: int) -> tuple[AnyKind, Competition]:
    """The kind and the competition: visible (404), then the write role (403)."""
    kind = get_kind(label)
    competition: Competition = visible_or_404(
        kind.competition_model.objects.select_related("club"), pk, request.user
    )
    require_write_role(request.user, competition)
    return kind, competition


def _event_page(kind: AnyKind, pk: int, number: int) -> HttpResponseRedirect:
    page = pages.pages_of(kind.label)
    assert page is not None  # routed only for kinds with pages
    return HttpResponseRedirect(page.event_url(pk, number))


@login_required
@require_POST
def simulate(request: HttpRequest, label: str, pk: int, number: int) -> HttpResponse:
    """Simulate one event (the API's ``simulate/``); a refusal comes back as a banner."""
    kind, competition = _load(request, label, pk)
    event = pages.event_or_404(kind, competition, number)
    try:
        with transaction.atomic():
            simulation.request_simulation(
                kind=kind, competition=competition, event=event, by=request.user
            )
    except (InvalidInput, Conflict) as exc:
        messages.error(request, _reason(exc))
        return _event_page(kind, pk, event.number)
    event.refresh_from_db()
    if event.simulation_requested_at is None and event.status == Status.RESOLVED:
        messages.success(request, _("Simulated; the standings are up to date."))
    elif event.simulation_requested_at is None and event.status == Status.FAILED:
        messages.error(request, _("The simulation failed; the reason is shown below."))
    else:
        messages.success(
            request,
            _("Simulation queued: a worker plays it; the results appear on this page when done."),
        )
    return _event_page(kind, pk, event.number)


@login_required
@require_POST
def resolve_again(request: HttpRequest, label: str, pk: int, number: int) -> HttpResponse:
    """Queue a failed (or stuck) event's resolution again (the admin's "resolve again")."""
    kind, competition = _load(request, label, pk)
    event = pages.event_or_404(kind, competition, number)
    if not (event.status == Status.FAILED and event.has_results) and not _stuck(event):
        messages.error(request, _("Only a failed event with results can be resolved again."))
        return _event_page(kind, pk, event.number)
    services.requeue_events(kind=kind, event_ids=[event.pk])
    event.refresh_from_db()
    if event.status == Status.RESOLVED:
        messages.success(request, _("Resolved again; the standings are up to date."))
    elif event.status == Status.FAILED:
        messages.error(request, _("Resolved again, and it failed again; the reason is below."))
    else:
        messages.success(request, _("Queued again: the worker resolves it shortly."))
    return _event_page(kind, pk, event.number)


@login_required
@require_POST
def simulate_remaining(request: HttpRequest, label: str, pk: int) -> HttpResponse:
    """Simulate every event without results, in order (:func:`request_remaining`)."""
    kind, competition = _load(request, label, pk)
    page = pages.pages_of(kind.label)
    assert page is not None
    back = HttpResponseRedirect(page.competition_url(competition.pk))
    try:
        request_remaining(kind=kind, competition=competition, by=request.user)
    except (InvalidInput, Conflict) as exc:
        messages.error(request, _reason(exc))
        return back
    left = kind.event_model.objects.filter(competition=competition, version=0).count()
    if left == 0:
        messages.success(request, _("Every remaining event was simulated and resolved."))
    else:
        messages.success(
            request,
            _("The remaining events are queued; a worker plays them one after another."),
        )
    return back


def url_of(kind: AnyKind, action: str, *args: Any) -> str:
    from django.urls import reverse

    return reverse(f"web:{kind.label}-{action}", args=args)


def urlpatterns() -> list[URLPattern]:
    """The run actions of every game with pages (simulate only where the game has an engine)."""
    patterns: list[URLPattern] = []
    for kind in all_kinds():
        if pages.pages_of(kind.label) is None:
            continue
        base = f"{kind.collection}/<int:pk>/"
        event = f"{base}{kind.event_word}/<int:number>/"
        label = {"label": kind.label}
        patterns.append(
            path(f"{event}resolve/", resolve_again, label, name=f"{kind.label}-resolve")
        )
        if has_simulator(kind):
            patterns.append(
                path(f"{event}simulate/", simulate, label, name=f"{kind.label}-simulate")
            )
            patterns.append(
                path(
                    f"{base}simulate-remaining/",
                    simulate_remaining,
                    label,
                    name=f"{kind.label}-simulate-remaining",
                )
            )
    return patterns
