"""Club pages: start a club, manage its members, invitation links (issue #15, item 1).

Thin: each POST runs one workflow of tournament/clubs/services.py; a refused input comes back
on its form field and stores nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import PermissionDenied
from django.forms import BaseForm, Form
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament.clubs import services
from tournament.clubs.forms import (
    AddMemberForm,
    ChangeRoleForm,
    ClubForm,
    InviteForm,
    RemoveMemberForm,
)
from tournament.clubs.models import Club, ClubInvitation, Membership, Role, role_in
from tournament.competitions.errors import InvalidInput


def _put_errors(form: BaseForm, exc: InvalidInput) -> None:
    """A service's 400 onto the form: each message on its field (else above the form)."""
    detail = exc.detail if isinstance(exc.detail, dict) else {None: [exc.detail]}
    for field, problems in detail.items():
        target = field if field in form.fields else None
        for problem in problems if isinstance(problems, list) else [problems]:
            form.add_error(target, str(problem))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_club(request: HttpRequest) -> HttpResponse:
    """Start a club: whoever starts it is its first organiser (as ``POST /api/clubs/``)."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.found_club(
                name=form.cleaned_data["name"],
                slug=form.cleaned_data["slug"],
                by=request.user,  # type: ignore[arg-type]
            )
        except InvalidInput as exc:
            _put_errors(form, exc)
        else:
            messages.success(request, _("Club started: you are its organiser."))
            return redirect("web:club", slug=club.slug)
    return render(request, "web/clubs/new.html", {"form": form})


def _organised_club(request: HttpRequest, slug: str) -> Club:
    """The club, for its organisers (and superusers); 404 for an unknown slug, else 403."""
    club = get_object_or_404(Club, slug=slug)
    if role_in(club.pk, request.user) != Role.ORGANISER:
        raise PermissionDenied
    return club


# The members page's forms, by the name of the submit button's ``action``.
_ACTIONS: dict[str, type[Form]] = {
    "add": AddMemberForm,
    "role": ChangeRoleForm,
    "remove": RemoveMemberForm,
    "invite": InviteForm,
}


def _run(action: str, form: Form, club: Club, request: HttpRequest) -> str:
    """One members-page workflow; returns the message shown after the redirect."""
    by: Any = request.user
    data = form.cleaned_data
    if action == "add":
        member = services.add_member(club=club, user=data["username"], role=data["role"], by=by)
        return _("%(user)s joined the club as %(role)s.") % {
            "user": member.user.get_username(),
            "role": member.get_role_display(),
        }
    if action == "role":
        member = services.change_role(
            club=club, username=data["username"], role=data["role"], by=by
        )
        return _("%(user)s is now %(role)s.") % {
            "user": data["username"],
            "role": member.get_role_display(),
        }
    if action == "remove":
        services.remove_member(club=club, username=data["username"], by=by)
        return _("%(user)s is no longer a member.") % {"user": data["username"]}
    invitation = services.invite(club=club, role=data["role"], by=by)
    return _("Invitation link made (role: %(role)s): send it to the person you invite.") % {
        "role": invitation.get_role_display()
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def members(request: HttpRequest, slug: str) -> HttpResponse:
    """Organisers: list, add, re-role and remove members; make invitation links."""
    club = _organised_club(request, slug)
    forms: dict[str, Form] = {}
    failed: tuple[str, str] | None = None  # (action, username) of the form that was refused
    if request.method == "POST":
        action = request.POST.get("action", "")
        form_class = _ACTIONS.get(action)
        if form_class is not None:
            form = form_class(request.POST, prefix=None)
            if form.is_valid():
                try:
                    note = _run(action, form, club, request)
                except InvalidInput as exc:
                    _put_errors(form, exc)
                else:
                    messages.success(request, note)
                    return redirect("clubs:members", slug=club.slug)
            forms[action] = form
            failed = (action, str(request.POST.get("username", "")))
    return render(request, "web/clubs/members.html", _members_context(request, club, forms, failed))


def _members_context(
    request: HttpRequest, club: Club, forms: dict[str, Form], failed: tuple[str, str] | None
) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for member in Membership.objects.filter(club=club).select_related("user"):
        username = member.user.get_username()
        refused = failed is not None and failed[1] == username and failed[0] in {"role", "remove"}
        rows.append(
            {
                "member": member,
                "username": username,
                "role_form": forms["role"]
                if refused and failed and failed[0] == "role"
                else ChangeRoleForm(initial={"username": username, "role": member.role}),
                "remove_form": forms["remove"]
                if refused and failed and failed[0] == "remove"
                else RemoveMemberForm(initial={"username": username}),
            }
        )
    # A row form naming nobody in the list (a stale page): its message goes above the list.
    stray: list[str] = []
    if (
        failed
        and failed[0] in {"role", "remove"}
        and all(row["username"] != failed[1] for row in rows)
    ):
        stray = [str(m) for problems in forms[failed[0]].errors.values() for m in problems]
    now = timezone.now()
    invitations = [
        {
            "invitation": invitation,
            "url": request.build_absolute_uri(reverse("clubs:invitation", args=[invitation.token])),
        }
        for invitation in ClubInvitation.objects.filter(
            club=club, used_at__isnull=True, expires_at__gt=now
        )
    ]
    return {
        "club": club,
        "rows": rows,
        "stray_errors": stray,
        "add_form": forms.get("add") or AddMemberForm(),
        "invite_form": forms.get("invite") or InviteForm(),
        "invitations": invitations,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Open an invitation: sign up (new person) or join (signed in); 404 once used or expired."""
    found = services.open_invitation(token=token)
    if found is None:
        return render(request, "web/clubs/invitation_closed.html", status=404)
    context: dict[str, Any] = {"invitation": found, "club": found.club}
    if request.user.is_authenticated:
        if request.method == "POST":
            try:
                services.accept_invitation(token=token, user=request.user)
            except InvalidInput as exc:
                context["errors"] = [str(m) for ms in exc.detail.values() for m in ms]
            else:
                return _joined(request, found)
        context["already"] = role_in(found.club_id, request.user) is not None
        return render(request, "web/clubs/invitation.html", context)
    form: UserCreationForm[Any] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            member = services.sign_up_with_invitation(token=token, form=form)
        except InvalidInput as exc:
            _put_errors(form, exc)
        else:
            login(request, member.user, backend="django.contrib.auth.backends.ModelBackend")
            return _joined(request, found)
    context["form"] = form
    return render(request, "web/clubs/invitation.html", context)


def _joined(request: HttpRequest, invitation: ClubInvitation) -> HttpResponseRedirect:
    messages.success(
        request,
        _("Welcome to %(club)s: your role is %(role)s.")
        % {"club": invitation.club.name, "role": invitation.get_role_display()},
    )
    return redirect("web:club", slug=invitation.club.slug)
