"""A real Celery worker computes the forecast after a resolution, in chunk tasks merged by the
last one, equal to the single run (issue #17; docs/forecasts.md)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from scoring.forecast import simulate
from tests.integration.conftest import (
    require_worker_services,
    service_env,
    start_worker,
    wait_for,
    wait_until_idle,
)
from tests.leagues import helpers as lg
from tournament.celery import app as celery_app
from tournament.clubs.models import Club, Membership, Role
from tournament.forecasts.loaders import load
from tournament.forecasts.models import Forecast

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def forecast_worker(django_db_blocker: Any) -> Iterator[str]:
    """A worker of its own with forecasts on: 400 simulations in chunks of 100."""
    require_worker_services()
    with django_db_blocker.unblock():
        connection.close()
    queue = f"podium-forecast-{uuid.uuid4().hex[:8]}"
    env = service_env(
        queue,
        PODIUM_FORECASTS="1",
        PODIUM_FORECAST_SIMULATIONS="400",
        PODIUM_FORECAST_CHUNK="100",
    )
    worker = start_worker(queue, env)
    celery_app.conf.task_default_queue = queue
    celery_app.conf.task_always_eager = False
    try:
        yield queue
    finally:
        celery_app.conf.task_always_eager = True
        try:
            wait_until_idle(queue)
        finally:
            worker.stop()
            celery_app.conf.task_default_queue = settings.CELERY_TASK_DEFAULT_QUEUE


def test_a_worker_forecasts_in_chunks_like_the_single_run(forecast_worker: str) -> None:
    user = get_user_model().objects.create_user("org-fc", password="x-correct-horse")
    club = Club.objects.create(name="Velo Club Lisboa", slug="velo-lisboa")
    Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(user)
    detail = lg.create(api, bonus_points=False)  # type: ignore[arg-type]
    response = lg.submit(api, detail, 1, lg.rows(detail, ["Eva", "Ana", "Rui"]))  # type: ignore[arg-type]
    assert response.status_code == 202
    row = wait_for(
        lambda: Forecast.objects.filter(
            kind="league", competition_id=detail["id"], after=1, status="ready"
        ).first(),
        timeout=60,
    )
    assert (row.simulations, row.chunks, row.parts.count()) == (400, 4, 0)
    body = api.get(f"/api/leagues/{detail['id']}/forecast/").json()
    assert body["status"] == "ready" and body["simulations"] == 400
    # the chunks merged on the worker equal one run of all 400 simulations here
    problem = load("league", detail["id"], 1)
    single = simulate(
        problem.spec, problem.scorer, seed=problem.seed, simulations=400, statuses=problem.statuses
    )
    odds = {e["driver"]: e["probability"] for e in body["titles"]["drivers"]}
    assert odds == {d: round(p, 6) for d, p, _ in single.titles["drivers"].ranked()}
