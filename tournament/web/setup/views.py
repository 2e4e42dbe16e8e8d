"""The base of every set-up page: ``new`` (``/clubs/<slug>/<collection>/new/``) and ``edit``
(``/<collection>/<id>/edit/``), login required, organisers of the club only.

A game subclasses :class:`SetupPage` and supplies: its form's first values (``initial``,
``current``), the API request built from the posted values (``payload``), the page's boxes
(``context``) and, optionally, its own buttons (``act``: add a row, remove one…). The base does
the rest: access, presets, the run through the kind's serializer and services
(:mod:`~tournament.web.setup.flow`), errors onto the boxes, the locked set-up, the redirect.

A POST with ``action`` (a button such as "Add a stage" or a preset) redraws the form with the
change and stores nothing, so every step works without JavaScript; a POST without ``action``
submits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournament.competitions.kinds import AnyKind, get_kind
from tournament.web.setup import flow
from tournament.web.setup.boxes import ErrorMap, Values
from tournament.web.setup.rules import RuleSet

View = Callable[..., HttpResponse]


class SetupPage:
    """One game's set-up form. Class attributes:

    - ``kind_label``: the GameKind (``"tour"``); ``template``: the page's template, which
      extends ``web/setup/form.html``;
    - ``rules``: the game's :class:`RuleSet` (None if its rules are not on this page);
    - ``error_aliases``: request keys without a box of their own → the box or section that
      shows their errors (``{"rest_days_after": "stages"}``);
    - ``detail_route``: the URL name of the competition's page (``"tours:tour"``), where a
      submit goes; ``created_text``: the message then (``%(name)s``: the competition's name);
    - ``new_title``, ``create_label``: the new page's title and its submit button's words (the
      edit page says "Edit <name>" and "Save changes", ``web/setup/form.html``).
    """

    kind_label: ClassVar[str]
    template: ClassVar[str]
    rules: ClassVar[RuleSet | None] = None
    error_aliases: ClassVar[Mapping[str, str]] = {}
    detail_route: ClassVar[str]
    created_text: ClassVar[str | Promise] = gettext_lazy("%(name)s is set up.")
    new_title: ClassVar[str | Promise]
    create_label: ClassVar[str | Promise]

    @property
    def kind(self) -> AnyKind:
        return get_kind(self.kind_label)

    # --- what a game supplies ------------------------------------------------------------------

    def initial(self, club: Any) -> Values:
        """The new form's values (rules at their defaults, a few blank rows)."""
        return self.rules.values() if self.rules else {}

    def current(self, competition: Any) -> Values:
        """The edit form's values: the competition as it is stored."""
        raise NotImplementedError

    def payload(
        self, values: Values, *, club: Any = None, competition: Any = None, locked: bool = False
    ) -> dict[str, Any]:
        """The API request: the create body (with ``club``) for a new competition, the PATCH
        body for an edit (without the set-up keys when ``locked``)."""
        raise NotImplementedError

    def context(
        self, values: Values, errors: ErrorMap, *, club: Any, competition: Any, lock: flow.Lock
    ) -> dict[str, Any]:
        """The page's boxes: take each box's errors from ``errors`` (leftovers go on top)."""
        raise NotImplementedError

    def normalise(self, values: Values) -> Values:
        """The posted values made ready to submit (blank rows dropped, rows renumbered), so the
        request's list indices are the boxes' and the errors land on the right row."""
        return values

    def act(self, values: Values, action: str) -> Values:
        """A button that changes the form without storing: the base knows ``preset:<slug>``."""
        if action.startswith("preset:") and self.rules is not None:
            preset = self.rules.preset(action.removeprefix("preset:"))
            if preset is not None:
                return self.rules.apply(values, preset)
        return values

    def detail_url(self, competition: Any) -> str:
        return reverse(self.detail_route, args=[competition.pk])

    def check_more(self, values: Values, competition: Any, lock: flow.Lock) -> Any:
        """Errors (DRF's shape) of what an edit changes besides the PATCH (event dates, which
        are no set-up and change any time), or None; checked before anything is stored."""
        return None

    def apply_more(self, values: Values, competition: Any, lock: flow.Lock, by: Any) -> None:
        """Store what :meth:`check_more` checked, after the PATCH succeeded."""

    # --- the two views -------------------------------------------------------------------------

    def new_view(self) -> View:
        @login_required
        @require_http_methods(["GET", "HEAD", "POST"])
        def new(request: HttpRequest, slug: str) -> HttpResponse:
            club = flow.organised_club(request, slug)
            if request.method != "POST":
                return self.render(request, self.initial(club), ErrorMap(), club=club)
            values, action = posted(request)
            if action:
                return self.render(request, self.act(values, action), ErrorMap(), club=club)
            values = self.normalise(values)
            outcome = flow.create(
                kind=self.kind, payload=self.payload(values, club=club), by=request.user
            )
            if outcome.ok:
                messages.success(request, self.created_message(outcome.competition))
                return HttpResponseRedirect(self.detail_url(outcome.competition))
            errors = ErrorMap(outcome.errors, self.error_aliases)
            return self.render(request, values, errors, club=club)

        return new

    def edit_view(self) -> View:
        @login_required
        @require_http_methods(["GET", "HEAD", "POST"])
        def edit(request: HttpRequest, pk: int) -> HttpResponse:
            competition = flow.organised_competition(request, self.kind, pk)
            lock = flow.lock_state(self.kind, competition)
            club = competition.club
            if request.method != "POST":
                return self.render(
                    request, self.current(competition), ErrorMap(), club=club,
                    competition=competition, lock=lock,
                )  # fmt: skip
            values, action = posted(request)
            if action:
                values = self.act(values, action)
                return self.render(
                    request, values, ErrorMap(), club=club, competition=competition, lock=lock
                )
            if not lock.locked:  # a locked set-up sends no rows: they keep their numbers
                values = self.normalise(values)
            more = self.check_more(values, competition, lock)
            if more:
                errors = ErrorMap(more, self.error_aliases)
                return self.render(
                    request, values, errors, club=club, competition=competition, lock=lock
                )
            body = self.payload(values, competition=competition, locked=lock.locked)
            outcome = flow.update(
                kind=self.kind, competition=competition, payload=body, by=request.user
            )
            if outcome.ok:
                self.apply_more(values, outcome.competition, lock, request.user)
                messages.success(request, _("Changes saved."))
                return HttpResponseRedirect(self.detail_url(outcome.competition))
            errors = ErrorMap(outcome.errors, self.error_aliases)
            if outcome.conflict:
                errors.message("", outcome.conflict)
                lock = flow.lock_state(self.kind, competition)
            return self.render(
                request, values, errors, club=club, competition=competition, lock=lock
            )

        return edit

    def created_message(self, competition: Any) -> str:
        return str(self.created_text) % {"name": competition.name}

    def render(
        self,
        request: HttpRequest,
        values: Values,
        errors: ErrorMap,
        *,
        club: Any,
        competition: Any = None,
        lock: flow.Lock | None = None,
    ) -> HttpResponse:
        lock = lock or flow.Lock(locked=False)
        had_errors = bool(errors)
        context = self.context(values, errors, club=club, competition=competition, lock=lock)
        context.update(
            {
                "club": club,
                "competition": competition,
                "lock": lock,
                "had_errors": had_errors,
                "top_errors": errors.rest(),  # after the boxes took theirs
                "lock_events": ", ".join(str(self.kind.event_label(n)) for n in lock.events),
                "detail_url": self.detail_url(competition) if competition is not None else "",
                "presets": self.rules.preset_data() if self.rules and not lock.locked else [],
                "new_title": self.new_title,
                "create_label": self.create_label,
            }
        )
        return render(request, self.template, context)


def posted(request: HttpRequest) -> tuple[Values, str]:
    """The posted values (one per name, the CSRF token left out) and the button's ``action``."""
    values = {
        k: str(v) for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "action")
    }
    return values, request.POST.get("action", "")
