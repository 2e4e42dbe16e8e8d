"""The webhooks API: organisers only, checked input, private addresses refused."""

from __future__ import annotations

import pytest

from tournament.webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db

HOOKS = "/api/clubs/velo-lisboa/webhooks/"
PUBLIC_URL = "https://93.184.216.34/hook"  # an address literal: no DNS in the tests


def _body(**changes):
    return {"url": PUBLIC_URL, "secret": "s3cret", "events": ["event.resolved"], **changes}


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("scorekeeper", 403),
        ("organiser", 201),
        ("superuser", 201),
    ],
)
def test_only_organisers_add_webhooks(clients, role, expected):
    response = clients[role].post(HOOKS, _body(), format="json")
    assert response.status_code == expected, response.content
    assert Webhook.objects.count() == (1 if expected == 201 else 0)


def test_create_list_deliveries_delete(clients):
    made = clients["organiser"].post(HOOKS, _body(format="discord"), format="json").json()
    assert made["url"] == PUBLIC_URL and made["format"] == "discord" and made["active"] is True
    assert "secret" not in made
    hook = Webhook.objects.get()
    assert hook.secret == "s3cret" and hook.created_by.username == "organiser"
    listed = clients["organiser"].get(HOOKS).json()
    assert listed["count"] == 1 and listed["results"] == [made]
    for role, code in (("anonymous", 401), ("outsider", 403), ("scorekeeper", 403)):
        assert clients[role].get(HOOKS).status_code == code
        assert clients[role].get(f"{HOOKS}{hook.pk}/deliveries/").status_code == code
        assert clients[role].delete(f"{HOOKS}{hook.pk}/").status_code == code
    Delivery.objects.create(webhook=hook, event="event.resolved", payload={"number": 1})
    deliveries = clients["organiser"].get(f"{HOOKS}{hook.pk}/deliveries/").json()
    assert deliveries["count"] == 1
    assert set(deliveries["results"][0]) >= {
        "event",
        "status_code",
        "attempts",
        "last_error",
        "time",
    }
    # another club's organiser cannot reach it through their own club either
    assert clients["outsider"].delete(f"/api/clubs/porto/webhooks/{hook.pk}/").status_code == 404
    assert clients["organiser"].delete(f"{HOOKS}{hook.pk}/").status_code == 204
    assert clients["organiser"].delete(f"{HOOKS}{hook.pk}/").status_code == 404
    assert not Webhook.objects.exists() and not Delivery.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"url": "http://127.0.0.1:8000/hook"}, "url"),
        ({"url": "http://localhost/hook"}, "url"),
        ({"url": "http://10.1.2.3/hook"}, "url"),
        ({"url": "http://192.168.0.10/hook"}, "url"),
        ({"url": "http://169.254.169.254/latest/meta-data/"}, "url"),
        ({"url": "http://[::1]/hook"}, "url"),
        ({"url": "http://[::ffff:127.0.0.1]/hook"}, "url"),
        ({"url": "http://224.0.0.1/hook"}, "url"),
        ({"url": "http://0.0.0.0/hook"}, "url"),
        ({"url": "ftp://93.184.216.34/hook"}, "url"),
        ({"url": "not a url"}, "url"),
        ({"events": []}, "events"),
        ({"events": ["stage.done"]}, "events"),
        ({"events": ["event.resolved", "event.resolved"]}, "events"),
        ({"format": "xml"}, "format"),
        ({"secret": ""}, "secret"),
    ],
)
def test_bad_input_is_a_400_with_field_errors(clients, changes, field):
    response = clients["organiser"].post(HOOKS, _body(**changes), format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Webhook.objects.exists()


def test_private_addresses_are_accepted_with_the_setting(clients, settings):
    settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = True
    response = clients["organiser"].post(
        HOOKS, _body(url="http://127.0.0.1:8000/hook"), format="json"
    )
    assert response.status_code == 201


def test_an_unknown_club_is_a_404(clients):
    assert clients["organiser"].get("/api/clubs/nope/webhooks/").status_code == 404
