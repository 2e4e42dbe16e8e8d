"""Admin scoping: organisers (``is_staff``) see and edit only their clubs' objects; and the one
set-up check of every game run over a competition's admin page (:class:`SetupAdmin`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from scoring import clock
from tournament.clubs.models import Club, Membership, Role


def is_organiser(request: HttpRequest) -> bool:
    user = request.user
    if not user.is_active or not user.is_staff:
        return False
    if user.is_superuser:
        return True
    cache = getattr(request, "_podium_is_organiser", None)
    if cache is None:
        cache = Membership.objects.filter(user_id=user.pk, role=Role.ORGANISER).exists()
        request._podium_is_organiser = cache  # type: ignore[attr-defined]
    return bool(cache)


class ClubScopedAdmin(admin.ModelAdmin):
    """Limits the queryset and club choices to the clubs the user organises.

    ``club_path`` is the lookup from the model to its club (``club``, ``tour__club``, …).
    Organisers need no Django model permissions: their role in a club is the permission.
    """

    club_path = "club"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        clubs = Club.objects.organised_by(request.user)
        return queryset.filter(**{f"{self.club_path}__in": clubs}).distinct()

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.related_model is Club and not request.user.is_superuser:
            kwargs["queryset"] = Club.objects.organised_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_organiser(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_organiser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # There is no DELETE in the API either; only superusers remove things.
        return bool(request.user.is_superuser)


class ScopedInline:
    """Inline permissions follow the parent's club scoping."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_organiser(request)


class EventAdminMixin:
    """What every game's stages or races share in the admin: entering results (with the same
    form and checks as the scorekeeper page) and resolving them again.

    A game supplies ``results_formset(event, data=None)`` and its ``results_form`` (a
    :class:`~tournament.competitions.forms.ResultsForm`: how the rows are stored, errors back on
    the boxes); each row is shown with its entrant's name from the kind's ``entrant_keys``
    (names, for the driver games) unless the game's ``results_rows`` says otherwise.
    """

    results_form: Any = None

    entrant_label: Any = _("entrant")
    actions: Any = ["resolve_again"]
    club_path = "competition__club"
    list_filter: Any = ["status", "source"]

    @staticmethod
    def event_fields(*own: str) -> tuple[str, ...]:
        """The fields of an event's page: its number, the game's ``own``, then its state."""
        state = ("status", "source", "error", "version", "results", "submitted_at", "resolved_at")
        return ("competition", "number", *own, *state)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # events are added on their competition's page

    def get_urls(self) -> list[Any]:
        if type(self).results_formset is EventAdminMixin.results_formset:
            return super().get_urls()  # type: ignore[misc]  # no admin entry form
        opts = self.model._meta  # type: ignore[attr-defined]
        custom = [
            path(
                "<int:event_id>/results/",
                self.admin_site.admin_view(self.results_view),  # type: ignore[attr-defined]
                name=f"{opts.app_label}_{opts.model_name}_results",
            ),
        ]
        return custom + super().get_urls()  # type: ignore[misc]

    def results_view(self, request: HttpRequest, event_id: int) -> HttpResponse:

        queryset = self.get_queryset(request)  # type: ignore[attr-defined]
        event = get_object_or_404(queryset.select_related("competition"), pk=event_id)
        if not self.has_change_permission(request, event):  # type: ignore[attr-defined]
            raise Http404
        competition = event.competition
        competition_opts = competition._meta
        competition_url = reverse(
            f"admin:{competition_opts.app_label}_{competition_opts.model_name}_change",
            args=[competition.pk],
        )
        if request.method == "POST":
            formset = self.results_formset(event, request.POST)
            if self.store_results(formset, event, request.user):
                self.message_user(  # type: ignore[attr-defined]
                    request, _("Results stored; they are being resolved."), messages.SUCCESS
                )
                return HttpResponseRedirect(competition_url)
        else:
            formset = self.results_formset(event)
        label = kind_of(self.model).event_label(event.number)  # type: ignore[attr-defined]
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "title": _("Results of %(event)s") % {"event": label},
            "event": event,
            "competition": competition,
            "competition_url": competition_url,
            "entrant_label": self.entrant_label,
            "formset": formset,
            "rows": self.results_rows(event, formset),
            "opts": self.model._meta,  # type: ignore[attr-defined]
        }
        return TemplateResponse(request, "admin/competitions/event_results.html", context)

    def results_formset(self, event: Any, data: Any = None) -> Any:
        raise NotImplementedError

    def store_results(self, formset: Any, event: Any, user: Any) -> Any:
        """The stored event, or None with the service's errors on the formset."""
        return self.results_form.submit(formset, event=event, user=user, version=event.version)

    def results_rows(self, event: Any, formset: Any) -> list[tuple[Any, str]]:
        from tournament.competitions.forms import named_rows

        names = kind_of(self.model).entrant_keys(event.competition)  # type: ignore[attr-defined]
        return named_rows(formset, names)

    @admin.action(
        description=_("Resolve the selected ones again (failed, or stuck in “submitted”)")
    )
    def resolve_again(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        from tournament.competitions.services import requeue_events

        count = requeue_events(
            kind=kind_of(self.model),  # type: ignore[attr-defined]
            event_ids=queryset.values_list("pk", flat=True),
        )
        self.message_user(  # type: ignore[attr-defined]
            request, _("%(n)s queued for resolution.") % {"n": count}, messages.SUCCESS
        )


class ReadOnlyAdmin(ClubScopedAdmin):
    """Result versions and standings snapshots: records, never edited by hand."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ResultVersionAdmin(ReadOnlyAdmin):
    club_path = "event__competition__club"
    list_display = ["event", "number", "source", "created_by", "created_at"]
    readonly_fields = ["event", "number", "source", "rows", "created_by", "created_at"]
    exclude = ["replay"]


#: snapshot keys holding seconds (tours: general/team ``time``; rallies: ``overall`` rows,
#: stage times): shown as the pages write them, never as raw seconds (issue #16).
TIME_KEYS = frozenset({"time", "stage_time", "net_time", "penalty_time", "total_time"})
GAP_KEYS = frozenset({"gap", "stage_gap"})


def readable_times(value: Any) -> Any:
    """``value`` (snapshot JSON) with every time and gap written ``m:ss`` / ``+m:ss`` / ``—``."""
    if isinstance(value, list):
        return [readable_times(item) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        is_seconds = isinstance(item, int) and not isinstance(item, bool)
        if is_seconds and key in TIME_KEYS:
            out[key] = clock.clock(item)
        elif is_seconds and key in GAP_KEYS:
            out[key] = clock.gap(item)
        else:
            out[key] = readable_times(item)
    return out


class SnapshotAdmin(ReadOnlyAdmin):
    club_path = "competition__club"
    list_display = ["competition", "number", "computed_at"]
    readonly_fields = ["competition", "event", "number", "standings", "computed_at"]
    exclude = ["data"]

    @admin.display(description=_("Standings"))
    def standings(self, obj: Any) -> str:
        """The snapshot's JSON, times written as on the pages."""
        text = json.dumps(readable_times(obj.data), ensure_ascii=False, indent=1)
        return format_html('<pre class="snapshot-data">{}</pre>', text)


# --- one set-up check for the admin and the API ---------------------------------------------
#
# A competition's admin page edits its set-up in pieces: the competition's form (rules, points)
# and one inline per set-up list (stages, teams, drivers, races). Before anything is saved, the
# pieces are put together in the shape of the API's create request and checked by the game's
# own set-up serializer (``GameKind.setup_serializer``: the checks of tournament/<game>/setup.py,
# the same as the API's); its errors go back onto the fields they name, and nothing is stored
# (issue #13, item 8: the admin accepted a tour whose teams had no riders, and its first stage
# then failed for good).
#
# How the pieces meet: Django builds the page's form, then its inline formsets (all bound to the
# form's unsaved instance), then validates the form, then the formsets. ``SetupAdmin`` hands each
# set-up formset the instance's list of set-up formsets (``get_formset_kwargs``); the form's
# ``clean`` validates those formsets first and runs the check over everything. Errors added to a
# formset's forms there make Django's own ``all_valid(formsets)`` fail a moment later.


def kind_of(model: Any) -> Any:
    """The registered game whose competition (or event) model is ``model``."""
    from tournament.competitions.kinds import all_kinds

    return next(k for k in all_kinds() if model in (k.competition_model, k.event_model))


def setup_locked(competition: Any) -> bool:
    """Whether results exist: the set-up is then read-only, as the API answers 409."""
    from tournament.competitions.services import results_stored

    if competition is None or competition.pk is None:
        return False
    return results_stored(kind_of(type(competition)).event_model, competition)


class SetupInline(ScopedInline):
    """An inline whose rows are one list of the set-up (``setup_key``: "stages", "teams", …).

    ``setup_row(form)`` is one row in the create request's shape; ``number_field`` (if any) is
    the column that numbers the rows 1..n (the API numbers them by their place in the list).
    Once results exist its rows are read-only and none is added or removed.
    """

    formset: Any = None  # SetupFormSet (set once that class exists, below)
    setup_key: ClassVar[str]
    number_field: ClassVar[str | None] = None

    def setup_row(self, form: Any) -> dict[str, Any]:
        raise NotImplementedError

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)  # type: ignore[misc]
        formset.setup_inline = self
        return formset

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if setup_locked(obj):
            return self.get_fields(request, obj)  # type: ignore[attr-defined]
        return super().get_readonly_fields(request, obj)  # type: ignore[misc]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_add_permission(request, obj) and not setup_locked(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and not setup_locked(obj)


class EventSetupInline(SetupInline):
    """A set-up inline of a competition's events: each saved row links to its results form.

    List ``"results_link"`` in ``fields`` and ``readonly_fields``; the link is the event
    admin's ``<app>_<model>_results`` page (``EventAdminMixin``).
    """

    @admin.display(description=_("results"))
    def results_link(self, event: Any) -> str:
        if not event.pk:
            return ""
        meta = event._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_results", args=[event.pk])
        return format_html('<a href="{}">{}</a>', url, _("enter results"))


class SetupFormSet(BaseInlineFormSet):
    """The formset of a :class:`SetupInline`: joins its page's set-up check."""

    setup_inline: SetupInline

    def __init__(self, *args: Any, setup_formsets: list[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if setup_formsets is not None:
            setup_formsets.append(self)

    def setup_forms(self) -> list[Any]:
        """The forms that are rows of the set-up: not deleted, not blank extras; in order."""
        rows = [
            form
            for form in self.forms
            if not (self.can_delete and self._should_delete_form(form))  # type: ignore[attr-defined]
            and (form.instance.pk is not None or form.has_changed())
        ]
        key = self.setup_inline.number_field
        if key is not None:
            rows.sort(key=lambda form: form.cleaned_data.get(key) or 0)
        return rows


SetupInline.formset = SetupFormSet


class SetupForm(forms.ModelForm):
    """A competition's admin form: runs the game's set-up check over the form and its inlines."""

    setup_admin: ClassVar[SetupAdmin]
    checked_setup: dict[str, Any] | None = None

    def clean(self) -> dict[str, Any]:
        super().clean()
        formsets = getattr(self.instance, "_podium_setup_formsets", None)
        if formsets is not None and not setup_locked(self.instance):
            self.checked_setup = run_setup_check(self, formsets)
        return self.cleaned_data


def run_setup_check(form: SetupForm, formsets: list[SetupFormSet]) -> dict[str, Any] | None:
    """The checked set-up of ``form`` and ``formsets``, or None with the errors on their fields.

    Shape errors of a box (a number that is not one) are the forms' own; until they are fixed
    the set-up is not checked, so each message is shown once.
    """
    valid = [formset.is_valid() for formset in formsets]  # every formset, for its errors
    if not all(valid) or form.errors:
        return None
    rows: dict[str, list[dict[str, Any]]] = {}
    forms_of: dict[str, list[Any]] = {}
    for formset in formsets:
        inline = formset.setup_inline
        forms_of[inline.setup_key] = formset.setup_forms()
        rows[inline.setup_key] = [inline.setup_row(f) for f in forms_of[inline.setup_key]]
        if inline.number_field is not None:
            numbers = [f.cleaned_data.get(inline.number_field) for f in forms_of[inline.setup_key]]
            if numbers != list(range(1, len(numbers) + 1)):
                set_non_form_errors(
                    formset, [_("Number them 1 to %(n)s, one each.") % {"n": len(numbers)}]
                )
                return None
    admin_page = form.setup_admin
    serializer = admin_page.setup_check(form, admin_page.setup_data(form.cleaned_data, rows))
    if serializer.is_valid():
        checked: dict[str, Any] = serializer.validated_data
        return checked
    by_key = {formset.setup_inline.setup_key: formset for formset in formsets}
    for key, detail in serializer.errors.items():
        if key in by_key:
            place_list_errors(by_key[key], forms_of[key], detail)
        elif key in admin_page.error_lists:
            set_non_form_errors(by_key[admin_page.error_lists[key]], error_messages(detail))
        elif key in form.fields:
            form.add_error(key, error_messages(detail))
        else:
            form.add_error(None, error_messages(detail))
    return None


def place_list_errors(formset: SetupFormSet, rows: list[Any], detail: Any) -> None:
    """Errors of one set-up list: per row or of the whole list.

    Row errors come as ``[{field: [msg]}, {}]`` (the game's checks) or ``{index: {field: [msg]}}``
    (DRF's nested serializers); anything else is about the list as a whole.
    """
    if isinstance(detail, dict) and all(isinstance(key, int) for key in detail):
        per_row = dict(detail)
    elif isinstance(detail, list) and any(isinstance(item, dict) for item in detail):
        per_row = dict(enumerate(detail))
    else:
        set_non_form_errors(formset, error_messages(detail))
        return
    for index, item in per_row.items():
        if not 0 <= index < len(rows) or not isinstance(item, dict):
            set_non_form_errors(formset, error_messages(item))
            continue
        form = rows[index]
        for field, found in item.items():
            form.add_error(field if field in form.fields else None, error_messages(found))


def set_non_form_errors(formset: Any, messages: list[str]) -> None:
    """Errors of the formset as a whole (shown above its rows); the formset is then invalid."""
    formset._non_form_errors = formset.error_class(messages)


def error_messages(detail: Any, prefix: str = "") -> list[str]:
    """A DRF error detail at any depth as flat messages; a dict's keys prefix their messages."""
    if isinstance(detail, dict):
        return [m for key, value in detail.items() for m in error_messages(value, f"{key}: ")]
    if isinstance(detail, list | tuple):
        return [m for item in detail for m in error_messages(item, prefix)]
    return [f"{prefix}{detail}"]


class SetupAdmin(ClubScopedAdmin):
    """A competition's admin page whose set-up is checked by its game, as the API checks it.

    A game declares its set-up inlines (:class:`SetupInline`) and ``setup_data(cleaned, rows)``:
    the create request's set-up
    from the form's cleaned data and each inline's rows. ``error_lists`` names the inline that
    shows a set-up key's errors when no field of the page holds that key (``rest_days_after``).
    """

    form = SetupForm
    error_lists: ClassVar[Mapping[str, str]] = {}
    #: The competition's own set-up fields, read-only once results exist (as the API's 409).
    locked_fields: ClassVar[tuple[str, ...]] = ("club", "seed", "rules")
    #: The standings summary on the competition's page: column headings and, from the latest
    #: standings JSON, one row of cells per entrant (``standings_rows``).
    standings_headings: ClassVar[tuple[Any, ...]] = ()
    standings_caption: ClassVar[Any] = "%(n)s"  # a game's own words: _("After stage %(n)s")

    def standings_rows(self, data: dict[str, Any]) -> Iterable[tuple[Any, ...]]:
        return ()

    @admin.display(description=_("standings"))
    def standings_table(self, competition: Any) -> str:
        """The latest stored standings as a small table ("—" before any event is resolved)."""
        through = competition.standings_through
        snapshots: Any = self.kind().snapshot_model._default_manager
        data = (
            snapshots.filter(competition=competition, number=through)
            .values_list("data", flat=True)
            .first()
            if through is not None
            else None
        )
        if data is None:
            return "—"
        cells = "".join("<td>{}</td>" for _heading in self.standings_headings)
        return format_html(
            "<p>{}</p><table><tr>{}</tr>{}</table>",
            self.standings_caption % {"n": through},
            format_html_join("", "<th>{}</th>", ((h,) for h in self.standings_headings)),
            format_html_join("", f"<tr>{cells}</tr>", self.standings_rows(data)),
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if setup_locked(obj):
            return [*self.readonly_fields, *self.locked_fields]
        return self.readonly_fields

    def kind(self) -> Any:
        return kind_of(self.model)

    def setup_data(
        self, cleaned: dict[str, Any], rows: dict[str, list[dict[str, Any]]]
    ) -> dict[str, Any]:
        raise NotImplementedError

    #: Check the page with the game's whole create request (``kind.create_serializer``: club,
    #: name, visibility and seed too, as ``POST /api/<collection>/``), not the set-up alone.
    check_whole_request: ClassVar[bool] = False

    def setup_check(self, form: Any, setup: dict[str, Any]) -> Any:
        """The serializer that checks the page: the set-up serializer, or the create request's
        (``check_whole_request``) with the competition's own fields from the form."""
        kind = self.kind()
        if not self.check_whole_request:
            return kind.setup_serializer(data=setup)
        cleaned = form.cleaned_data
        club = cleaned.get("club") or getattr(form.instance, "club", None)
        body: dict[str, Any] = {
            **setup,
            "club": getattr(club, "slug", None),
            "name": cleaned.get("name", form.instance.name),
            "public": cleaned.get("public", form.instance.public),
        }
        if "seed" in kind.create_serializer().fields and cleaned.get("seed") is not None:
            body["seed"] = cleaned["seed"]
        return kind.create_serializer(data=body)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        form.setup_admin = self  # type: ignore[attr-defined]  # a class made for this page
        return form

    def get_formset_kwargs(
        self, request: HttpRequest, obj: Any, inline: Any, prefix: str
    ) -> dict[str, Any]:
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, SetupInline):
            # One list per page: the form and every set-up formset share the unsaved instance.
            kwargs["setup_formsets"] = obj.__dict__.setdefault("_podium_setup_formsets", [])
        return kwargs

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if getattr(form, "checked_setup", None) is not None:
            # The effective values the check computed (rules with their defaults), as the API.
            self.kind().apply_setup(obj, form.checked_setup)
        super().save_model(request, obj, form, change)


class PointsStandings:
    """The standings summary of a points championship (Formula D championships, leagues)."""

    standings_caption = _("After race %(n)s")
    standings_headings = ("#", _("driver"), _("team"), _("points"))

    def standings_rows(self, data: dict[str, Any]) -> list[tuple[Any, ...]]:
        drivers = data.get("drivers", [])
        return [(r["rank"], r["name"], r["team"] or "", r["points"]) for r in drivers]


def register_kind_admins(site: admin.AdminSite | None = None) -> None:
    """Register the records every game shares (result versions, standings snapshots) for each
    game of the registry; a game's own admin module declares only what is its own.

    Called once every game's kind is registered (``tournament.web``'s ``ready``, the last app).
    """
    from tournament.competitions.kinds import all_kinds

    site = site or admin.site
    for kind in all_kinds():
        for model, model_admin in (
            (kind.version_model, ResultVersionAdmin),
            (kind.snapshot_model, SnapshotAdmin),
        ):
            if not site.is_registered(model):
                site.register(model, model_admin)
