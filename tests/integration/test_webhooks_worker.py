"""Webhooks through a real Celery worker (Redis, PostgreSQL): a stage resolved by the worker is
delivered to a local receiver within seconds, signed, after one retry of a 500."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from tests.conftest import stage_rows, tour_payload
from tests.integration.conftest import (
    require_worker_services,
    service_env,
    start_worker,
    wait_for,
    wait_until_idle,
)
from tests.webhooks.receiver import receiver
from tournament.celery import app as celery_app
from tournament.clubs.models import Club, Membership, Role
from tournament.webhooks.models import Delivery

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def hooks_worker(django_db_blocker: Any) -> Iterator[str]:
    require_worker_services()
    with django_db_blocker.unblock():
        connection.close()
    queue = f"podium-hooks-{uuid.uuid4().hex[:8]}"
    env = service_env(
        queue, PODIUM_WEBHOOKS_ALLOW_PRIVATE="true", PODIUM_WEBHOOKS_BACKOFF_SECONDS="0.2"
    )
    worker = start_worker(queue, env)
    previous = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    celery_app.conf.task_always_eager = False
    try:
        yield queue
        wait_until_idle(queue)
    finally:
        celery_app.conf.task_always_eager = True
        celery_app.conf.task_default_queue = previous
        worker.stop()


def test_the_worker_delivers_within_seconds(hooks_worker: str, settings: Any) -> None:
    settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = True  # this process checks the URL when it is saved
    organiser = get_user_model().objects.create_user("org-hooks", password="x-correct-horse")
    club = Club.objects.create(name="Velo Club Lisboa", slug="velo-lisboa")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(organiser)
    tour = api.post("/api/tours/", tour_payload(), format="json").json()
    with receiver([500]) as got:
        body = {"url": got.url, "secret": "k", "events": ["event.resolved"]}
        assert api.post("/api/clubs/velo-lisboa/webhooks/", body, format="json").status_code == 201
        started = time.monotonic()
        rows = {"results": stage_rows(tour)}
        assert (
            api.post(f"/api/tours/{tour['id']}/stages/1/results/", rows, format="json").status_code
            == 202
        )
        wait_for(lambda: len(got.received) >= 2, timeout=10)
        elapsed = time.monotonic() - started
    first, second = got.received
    assert first.body == second.body
    signed = "sha256=" + hmac.new(b"k", second.body, hashlib.sha256).hexdigest()
    assert second.headers["X-Podium-Signature"] == signed
    assert json.loads(second.body)["number"] == 1
    delivery = wait_for(lambda: Delivery.objects.filter(state="delivered").first())
    assert delivery.attempts == 2
    assert list(delivery.attempt_log.values_list("status_code", flat=True)) == [500, 200]
    print(f"\nsubmission → delivered (after one retry, back-off 0.2 s): {elapsed:.2f} s")
    assert elapsed < 10
