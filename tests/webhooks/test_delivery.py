"""Deliveries reach a local receiver signed; failures are retried and given up after the 5th."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from tests.conftest import stage_rows
from tests.webhooks.receiver import receiver
from tournament.webhooks.models import Announcement, Delivery

pytestmark = pytest.mark.django_db

HOOKS = "/api/clubs/velo-lisboa/webhooks/"
ALL = ["event.resolved", "results.corrected", "competition.finished"]


@pytest.fixture(autouse=True)
def _local(settings):
    settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = True
    settings.PODIUM_WEBHOOKS_BACKOFF_SECONDS = 0
    settings.PODIUM_WEBHOOKS_TIMEOUT_SECONDS = 2
    settings.PODIUM_SITE_URL = "https://podium.example"


def _hook(clients, url, events=None, fmt="json"):
    body = {"url": url, "secret": "s3cret", "events": events or ALL, "format": fmt}
    response = clients["organiser"].post(HOOKS, body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _submit(clients, tour, number, **kwargs):
    url = f"/api/tours/{tour['id']}/stages/{number}/results/"
    response = clients["scorekeeper"].post(
        url, {"results": stage_rows(tour, **kwargs)}, format="json"
    )
    assert response.status_code == 202, response.content


def test_a_resolution_reaches_the_receiver_signed(clients, tour):
    with receiver() as got:
        hook = _hook(clients, got.url)
        assert set(hook) == {"id", "url", "events", "format", "active"}
        _submit(clients, tour, 1)
    assert len(got.received) == 1
    request = got.received[0]
    expected = "sha256=" + hmac.new(b"s3cret", request.body, hashlib.sha256).hexdigest()
    assert request.headers["X-Podium-Signature"] == expected
    assert request.headers["Content-Type"] == "application/json"
    body = json.loads(request.body)
    assert set(body) == {"event", "competition", "number", "url", "at"}
    assert body["event"] == "event.resolved" and body["number"] == 1
    assert body["competition"] == {"kind": "tour", "id": tour["id"], "name": tour["name"]}
    assert body["url"] == f"https://podium.example/tours/{tour['id']}/"
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.status_code, delivery.attempts) == ("delivered", 200, 1)


def test_correction_and_finish_are_announced_once_each(clients, tour):
    with receiver() as got:
        _hook(clients, got.url)
        _submit(clients, tour, 1)
        _submit(clients, tour, 1, order=[1, 0, 2, 3, 4, 5])  # a correction of stage 1
        _submit(clients, tour, 2)
        _submit(clients, tour, 3)
        _submit(clients, tour, 2, order=[1, 0, 2, 3, 4, 5])  # stage 3 re-resolved: told once
    told = [(b["event"], b["number"]) for b in (json.loads(r.body) for r in got.received)]
    assert told == [
        ("event.resolved", 1),
        ("results.corrected", 1),
        ("event.resolved", 2),
        ("event.resolved", 3),
        ("competition.finished", 3),
        ("results.corrected", 2),
    ]
    assert Announcement.objects.count() == 6


def test_a_failing_receiver_is_retried_then_given_up(clients, tour):
    with receiver([500, 502]) as got:
        _hook(clients, got.url, ["event.resolved"])
        _submit(clients, tour, 1)
        assert len(got.received) == 3  # 500, 502, then 200
        assert len({r.body for r in got.received}) == 1  # the same body and signature each time
        delivery = Delivery.objects.get()
        assert (delivery.state, delivery.attempts, delivery.status_code) == ("delivered", 3, 200)
        log = list(delivery.attempt_log.values_list("number", "status_code"))
        assert log == [(1, 500), (2, 502), (3, 200)]

        Delivery.objects.all().delete()
        got.received.clear()
        got.statuses[:] = [500] * 9
        _submit(clients, tour, 2)
    assert len(got.received) == 5  # at most 5 attempts
    delivery = Delivery.objects.get(event="event.resolved")
    assert (delivery.state, delivery.attempts, delivery.status_code) == ("failed", 5, 500)
    assert delivery.last_error.startswith("HTTP 500")
    assert delivery.attempt_log.count() == 5


def test_a_dead_receiver_is_logged_as_an_error(clients, tour, settings):
    with receiver() as got:
        url = got.url
        _hook(clients, url, ["event.resolved"])
    _submit(clients, tour, 1)  # the server is gone: connection refused, 5 times
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.status_code) == ("failed", 5, None)
    assert delivery.last_error
    response = clients["organiser"].get(f"{HOOKS}{delivery.webhook_id}/deliveries/")
    assert response.status_code == 200
    page = response.json()
    assert page["count"] == 1 and page["next"] is None
    row = page["results"][0]
    assert row["event"] == "event.resolved" and row["attempts"] == 5
    assert row["status_code"] is None and row["last_error"] and row["time"]


def test_the_guard_runs_again_at_delivery_time(clients, tour, settings):
    with receiver() as got:
        _hook(clients, got.url, ["event.resolved"])
        settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = False  # as if the name now resolved inside
        _submit(clients, tour, 1)
    assert got.received == []
    delivery = Delivery.objects.get()
    assert delivery.state == "failed" and "private" in delivery.last_error


def test_discord_body_has_the_podium_and_a_link(clients, tour):
    with receiver() as got:
        _hook(clients, got.url, ["event.resolved"], fmt="discord")
        _submit(clients, tour, 1)
    body = json.loads(got.received[0].body)
    assert set(body) == {"content", "embeds"}
    assert tour["name"] in body["content"] and f"/tours/{tour['id']}/" in body["content"]
    embed = body["embeds"][0]
    assert embed["url"] == f"https://podium.example/tours/{tour['id']}/"
    podium = embed["fields"][0]["value"].splitlines()
    assert len(podium) == 3 and podium[0].startswith("🥇")
    riders = [r["name"] for team in tour["teams"] for r in team["riders"]]
    assert riders[0] in podium[0] and riders[1] in podium[1]  # the order of stage_rows
    assert ":" in podium[0]  # the rider's time (clock)


def test_an_unsubscribed_club_pays_nothing(clients, tour):
    _submit(clients, tour, 1)
    assert Announcement.objects.count() == 0 and Delivery.objects.count() == 0


def test_a_redirect_is_not_followed(clients, tour):
    with receiver([302, 302, 302, 302, 302]) as got:
        _hook(clients, got.url, ["event.resolved"])
        _submit(clients, tour, 1)
    assert {r.path for r in got.received} == {"/hook"}  # never another address or path
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts, delivery.status_code) == ("failed", 5, 302)
