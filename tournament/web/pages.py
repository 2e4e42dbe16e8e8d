"""Every game's pages from one declaration, reached through the GameKind registry.

A game declares its pages as ``PAGES = KindPages(...)`` in its app's ``views`` module (found by
that name, as Django finds ``admin`` modules): the words of its listing card, the views of its
competition, event and results pages and any page of its own. From the declaration and the
registered :class:`~tournament.competitions.kinds.GameKind` this module derives, for every game
alike, the page addresses (``/<collection>/<id>/``, ``/<collection>/<id>/<events>/<n>/`` and
``…/results/``, URL namespace ``<collection>``), the home and club cards, the ``after_*``
parameter, status labels and the snapshots a page reads. Adding a game's pages therefore touches
no shared module: ``tournament.web.urls`` and ``views`` iterate the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, path, reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from scoring.digits import parse_digits
from tournament.competitions import services
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import AnyKind, all_kinds, get_kind
from tournament.competitions.models import Status
from tournament.web.access import event_number
from tournament.web.components import CompetitionCard, competition_cards

View = Callable[..., HttpResponse]
Snapshots = dict[int, dict[str, Any]]


@dataclass(frozen=True)
class KindPages:
    """A game's pages, declared (``PAGES`` in the game app's ``views`` module)."""

    kind: str  # the GameKind label
    card_label: str | Promise  # "Grand Tour": the kind of competition on a listing card
    progress: str | Promise  # "%(done)s of %(total)s stages": a card's progress line
    competition: View  # /<collection>/<id>/ (URL name: the kind's label)
    event_name: str = ""  # URL name of one event's pages ("stage", "race")
    event: View | None = None  # /<collection>/<id>/<events>/<n>/ (URL name: event_name)
    results: View | None = None  # …/results/, the scorekeeper form ("<event_name>-results")
    #: The game's own pages, with paths relative to the site root, in its namespace.
    extra: Sequence[URLPattern | URLResolver] = ()
    #: Where a snapshot names the leader (a JSON path, ``general__0__name``): the winner shown
    #: on a finished competition's card.
    winner_path: str = ""
    #: More listing cards of the game (``cards(user, **filters)``): groupings that are not
    #: competitions of the registry, e.g. rally championships (one query).
    more_cards: Callable[..., list[CompetitionCard]] | None = None

    @property
    def game(self) -> AnyKind:
        return get_kind(self.kind)

    @property
    def namespace(self) -> str:
        return self.game.collection

    def urlpatterns(self) -> list[URLPattern | URLResolver]:
        """The shared addresses of the game's pages, then its own."""
        collection, events = self.game.collection, self.game.event_word
        patterns: list[URLPattern | URLResolver] = [
            path(f"{collection}/<int:pk>/", self.competition, name=self.kind)
        ]
        if self.event is not None:
            patterns.append(
                path(
                    f"{collection}/<int:pk>/{events}/<int:number>/",
                    self.event,
                    name=self.event_name,
                )
            )
        if self.results is not None:
            patterns.append(
                path(
                    f"{collection}/<int:pk>/{events}/<int:number>/results/",
                    self.results,
                    name=f"{self.event_name}-results",
                )
            )
        return [*patterns, *self.extra]

    def url(self, name: str, *args: Any) -> str:
        """The address of page ``name`` of this game (``url("race", pk, 2)``)."""
        return reverse(f"{self.namespace}:{name}", args=args)

    def competition_url(self, pk: int) -> str:
        return self.url(self.kind, pk)

    def event_url(self, pk: int, number: int) -> str:
        return self.url(self.event_name, pk, number)

    def results_url(self, pk: int, number: int) -> str:
        return self.url(f"{self.event_name}-results", pk, number)

    def cards(self, queryset: Any) -> list[CompetitionCard]:
        """Listing cards of the competitions of ``queryset`` (already visible): one query."""
        events = self.game.event_model._meta.get_field("competition").remote_field.related_name
        return competition_cards(
            queryset,
            events=str(events),
            kind_label=self.card_label,
            url_name=f"{self.namespace}:{self.kind}",
            progress=lambda done, total: self.progress % {"done": done, "total": total},
            snapshots=self.game.snapshot_model,
            winner_path=self.winner_path,
        )


@cache
def pages_of(label: str) -> KindPages | None:
    """The declared pages of kind ``label`` (its app's ``views.PAGES``), or None without pages."""
    kind = get_kind(label)
    app = kind.competition_model._meta.app_config
    try:
        module = import_module(f"{app.name}.views")
    except ModuleNotFoundError as exc:
        if exc.name != f"{app.name}.views":
            raise  # a broken import inside the module is a bug, not a game without pages
        return None
    pages = getattr(module, "PAGES", None)
    if pages is None:
        return None
    if not isinstance(pages, KindPages) or pages.kind != label:
        raise TypeError(f"{app.name}.views.PAGES must be KindPages(kind={label!r}, ...)")
    return pages


def all_pages() -> list[KindPages]:
    """The pages of every registered game that has some, in registry order."""
    return [pages for kind in all_kinds() if (pages := pages_of(kind.label)) is not None]


def urlpatterns() -> list[URLPattern | URLResolver]:
    """Every game's pages, each under its own namespace (``tours:tour``, ``rallies:rally``)."""
    from django.urls import include

    return [
        path("", include((pages.urlpatterns(), pages.namespace), namespace=pages.namespace))
        for pages in all_pages()
    ]


def cards_for(user: Any, **filters: Any) -> list[CompetitionCard]:
    """Cards of every competition of every game ``user`` may see (one query per game)."""
    cards: list[CompetitionCard] = []
    for pages in all_pages():
        queryset = pages.game.competition_model.objects.visible_to(user).filter(**filters)
        cards += pages.cards(queryset)
        if pages.more_cards is not None:
            cards += pages.more_cards(user, **filters)
    return cards


# --- what every game's pages read --------------------------------------------------------------


def status_label(status: str) -> str | Promise:
    """An event status as a reader sees it (``resolved`` → "resolved", translated)."""
    return Status(status).label if status in Status.values else status


def after_param(request: HttpRequest, kind: AnyKind, name: str | None = None) -> int | None:
    """The ``after_*`` query parameter (the kind's own by default); None when absent.

    Anything but a whole number is a 400, as in the API.
    """
    name = name or kind.after_param
    raw = request.GET.get(name, "")
    if raw == "":
        return None
    try:
        return parse_digits(raw)  # the digits 0-9 only: int() also took "٣" and " 3"
    except ValueError:
        raise BadRequest(_("%(name)s must be a whole number.") % {"name": name}) from None


def load_snapshots(kind: AnyKind, competition: Any) -> Snapshots:
    """Every stored snapshot of ``competition`` up to its standings, in one query."""
    if competition.standings_through is None:
        return {}
    snapshots: Any = kind.snapshot_model._default_manager  # concrete models add ``competition``
    rows = snapshots.filter(
        competition=competition, number__lte=competition.standings_through
    ).values_list("number", "data")
    return dict(rows)


def standings(
    kind: AnyKind, competition: Any, after: int | None, snapshots: Snapshots | None = None
) -> dict[str, Any]:
    """The standings JSON after event ``after`` (None: the latest), from ``snapshots`` if loaded.

    Before any event is resolved the service builds the initial standings; ``after`` outside
    1..through is a 400, as in the API.
    """
    through = competition.standings_through
    if snapshots is not None:
        if after is None and through in snapshots:
            return snapshots[through]
        if after is not None and after in snapshots and after <= (through or 0):
            return snapshots[after]
    try:
        data: dict[str, Any] = services.standings(kind=kind, competition=competition, after=after)
    except InvalidInput as exc:
        raise BadRequest(str(exc.detail)) from None
    return data


def event_snapshot(kind: AnyKind, competition: Any, event: Any) -> dict[str, Any] | None:
    """The standings stored after ``event`` once it is resolved, else None (one query)."""
    if event.status != Status.RESOLVED:
        return None
    snapshots: Any = kind.snapshot_model._default_manager  # concrete models add ``competition``
    data: dict[str, Any] | None = (
        snapshots.filter(competition=competition, number=event.number)
        .values_list("data", flat=True)
        .first()
    )
    return data


def event_or_404(kind: AnyKind, competition: Any, number: Any, *, defer: Sequence[str] = ()) -> Any:
    """Event ``number`` of ``competition`` (Http404 for an unknown or absurd number)."""
    event = (
        kind.event_model._default_manager.filter(
            competition=competition, number=event_number(number)
        )
        .defer(*defer)
        .first()
    )
    if event is None:
        raise Http404
    event.competition = competition  # already loaded: no second query
    return event


def form_version(request: HttpRequest, current: int) -> int:
    """The version a results form was read at (its hidden box), or ``current`` when unreadable."""
    try:
        return parse_digits(request.POST.get("version", ""))
    except ValueError:
        return current


def results_stored(request: HttpRequest, event: Any, pending: str) -> None:
    """The banner after a scorekeeper stored results (issue #16).

    ``pending`` ("… the stage is being resolved") is shown only while the event is not resolved
    yet, tagged ``resolving`` so that podium.js removes it once the live status reports the end;
    a resolution already done (an eager worker) gets the plain "stored" banner instead, never
    "being resolved" beside a "resolved" badge.
    """
    from django.contrib import messages

    event.refresh_from_db(fields=["status"])
    if event.status == Status.RESOLVED:
        messages.success(request, _("Results stored; the standings are up to date."))
    else:
        messages.success(request, pending, extra_tags="resolving")


def settle_banners(request: HttpRequest, *events: Any) -> None:
    """Drop a pending "… being resolved" banner when no event of the page is pending any more.

    The worker may finish before the redirected page is drawn: then the banner would stand
    beside a "resolved" badge (issue #16). Messages are read here, as the template would.
    """
    from django.contrib import messages

    if any(event.status == Status.SUBMITTED for event in events):
        return
    storage: Any = messages.get_messages(request)
    kept = [message for message in storage if "resolving" not in message.tags]
    storage._loaded_messages[:] = kept  # the page draws these; all are consumed as usual
