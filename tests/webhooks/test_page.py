"""``/clubs/<slug>/webhooks/``: organisers list, add, test and delete webhooks, read deliveries."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tournament.webhooks.models import Attempt, Delivery, Webhook

pytestmark = pytest.mark.django_db

PAGE = "/clubs/velo-lisboa/webhooks/"


def _session(users, name):
    client = Client()
    if name != "anonymous":
        client.force_login(users[name])
    return client


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 302), ("outsider", 403), ("scorekeeper", 403), ("organiser", 200)],
)
def test_the_page_per_role(users, role, expected):
    assert _session(users, role).get(PAGE).status_code == expected


def test_add_show_deliveries_test_and_delete(users, settings, django_capture_on_commit_callbacks):
    settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = False
    client = _session(users, "organiser")
    club_page = client.get("/clubs/velo-lisboa/").content.decode()
    assert f'href="{PAGE}"' in club_page
    refused = client.post(
        PAGE,
        {
            "action": "add",
            "url": "http://127.0.0.1/x",
            "secret": "s",
            "events": ["event.resolved"],
            "format": "json",
        },
    )
    assert refused.status_code == 400 and "private" in refused.content.decode()
    assert not Webhook.objects.exists()
    added = client.post(
        PAGE,
        {
            "action": "add",
            "url": "https://93.184.216.34/x",
            "secret": "s",
            "events": ["event.resolved", "competition.finished"],
            "format": "discord",
        },
    )
    assert added.status_code == 302
    hook = Webhook.objects.get()
    assert hook.events == ["event.resolved", "competition.finished"] and hook.format == "discord"
    delivery = Delivery.objects.create(
        webhook=hook, event="event.resolved", payload={"number": 2}, attempts=1, state="failed"
    )
    Attempt.objects.create(delivery=delivery, number=1, error="HTTP 500: boom", status_code=500)
    html = client.get(PAGE).content.decode()
    assert "https://93.184.216.34/x" in html and "HTTP 500: boom" in html and "1/5" in html
    assert "s3cret" not in html
    with translation.override("pt"):
        client.cookies["django_language"] = "pt"
        assert (
            "Enviar uma mensagem de teste"
            in client.get(PAGE, HTTP_ACCEPT_LANGUAGE="pt").content.decode()
        )
    # LocaleMiddleware leaves the request's language active in this thread: with the cookie
    # kept, the posts below would leave Portuguese on for the tests that follow.
    del client.cookies["django_language"]
    client.post(PAGE, {"action": "test", "webhook": hook.pk})
    assert Delivery.objects.filter(event="webhook.test").exists()  # queued (it fails: no network)
    client.post(PAGE, {"action": "delete", "webhook": hook.pk})
    assert not Webhook.objects.exists()
