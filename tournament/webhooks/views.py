"""``/clubs/<slug>/webhooks/``: the club's webhooks for its organisers (list, add, test, delete,
and each one's latest deliveries with every attempt). A POST runs the API's own checks
(``WebhookSerializer``), so the page refuses exactly what the API refuses."""

from __future__ import annotations

from typing import Any, Final

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournament.clubs.models import Club, Role, role_in
from tournament.webhooks import payloads, tasks
from tournament.webhooks.api import WebhookSerializer
from tournament.webhooks.models import (
    CORRECTED,
    FINISHED,
    RESOLVED,
    TEST,
    Delivery,
    Format,
    Webhook,
)

#: Deliveries shown per webhook (the API lists them all).
SHOWN: Final = 10
EVENT_NAMES: Final = {
    RESOLVED: gettext_lazy("A stage or race is resolved (event.resolved)"),
    CORRECTED: gettext_lazy("Results are corrected (results.corrected)"),
    FINISHED: gettext_lazy("A competition is finished (competition.finished)"),
}


class WebhookForm(forms.Form):
    url = forms.CharField(label=gettext_lazy("URL"), max_length=500)
    secret = forms.CharField(
        label=gettext_lazy("Secret"),
        max_length=200,
        strip=False,
        widget=forms.PasswordInput(render_value=True),
        help_text=gettext_lazy("Signs every delivery (X-Podium-Signature); it is not shown again."),
    )
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"),
        choices=list(EVENT_NAMES.items()),
        widget=forms.CheckboxSelectMultiple,
        initial=[RESOLVED],
    )
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=[(Format.JSON, "JSON"), (Format.DISCORD, "Discord")],
        initial=Format.JSON,
    )


def _organised_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if role_in(club.pk, request.user) != Role.ORGANISER:
        raise PermissionDenied
    return club


def _add(request: HttpRequest, club: Club, form: WebhookForm) -> bool:
    if not form.is_valid():
        return False
    body = WebhookSerializer(data=form.cleaned_data)
    if not body.is_valid():
        for field, problems in body.errors.items():
            for problem in problems:
                form.add_error(field if field in form.fields else None, str(problem))
        return False
    body.save(club=club, created_by=request.user)
    messages.success(request, _("Webhook added."))
    return True


def _act(request: HttpRequest, club: Club, action: str) -> None:
    hook = Webhook.objects.filter(club=club, pk=_whole(request.POST.get("webhook"))).first()
    if hook is None:
        messages.error(request, _("That webhook no longer exists."))
    elif action == "delete":
        hook.delete()
        messages.success(request, _("Webhook removed."))
    elif action == "test":
        at = timezone.now().isoformat()
        delivery = Delivery.objects.create(
            webhook=hook, event=TEST, payload=payloads.test_payload(club=club.slug, at=at)
        )
        tasks.queue(delivery.pk)
        messages.success(request, _("Test message queued: see its delivery below."))


def _whole(raw: Any) -> int:
    text = str(raw or "")
    return int(text) if text.isascii() and text.isdigit() else 0


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    club = _organised_club(request, slug)
    form = WebhookForm()
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "add":
            form = WebhookForm(request.POST)
            if _add(request, club, form):
                return redirect("webhooks:page", slug=club.slug)
        elif action in ("delete", "test"):
            _act(request, club, action)
            return redirect("webhooks:page", slug=club.slug)
    # One query per webhook for its latest deliveries (a club has a handful of webhooks).
    latest = Delivery.objects.order_by("-created_at", "-id").prefetch_related("attempt_log")
    rows = [
        {
            "hook": h,
            "events": [str(EVENT_NAMES.get(e, e)) for e in h.events],
            "deliveries": list(latest.filter(webhook=h)[:SHOWN]),
        }
        for h in Webhook.objects.filter(club=club).order_by("created_at", "id")
    ]
    context = {"club": club, "rows": rows, "form": form}
    return render(request, "web/webhooks/page.html", context, status=400 if form.errors else 200)
