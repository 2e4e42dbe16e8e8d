"""Shared fixtures: the fixed cast (organiser, scorekeeper, outsider, anonymous) and API clients.

Tasks run eagerly in-process for the API tests; the integration tests (``-m integration``) start
a real Celery worker instead. On-commit callbacks (which queue the resolve task) run as each
request returns, as they would outside a test transaction.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from rest_framework.test import APIClient

from tournament.celery import app as celery_app
from tournament.clubs.models import Club, Membership, Role

PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Any) -> None:
    # PBKDF2's deliberate slowness (a million iterations) costs about 0.6 s a user on two shared
    # cores, and a cast has five users; the tests check who may do what, not how passwords are
    # stored (production keeps Django's default hashers).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


TOUR_PAYLOAD: dict[str, Any] = {
    "club": "velo-lisboa",
    "name": "Tour de Lisboa 2026",
    "public": True,
    "seed": 42,
    "stages": [
        {"name": "Avenue Corso Paseo", "course": "abcdefghijklmnopqrstu"},
        {
            "name": "La Haute Montagne",
            "course": "abcfimetKGLHJsdopRQNU",
            "stacks": [{"id": "m1", "type": "major", "side": "mountain", "square": 43}],
        },
        {"name": "Stage three"},
    ],
    "rest_days_after": [1],
    "teams": [
        {
            "name": "Red",
            "player": "Ana",
            "riders": [
                {"name": "Ana R", "role": "rouleur", "specialist": "grimpeur"},
                {"name": "Ana S", "role": "sprinteur"},
            ],
        },
        {
            "name": "Blue",
            "player": "Rui",
            "riders": [
                {"name": "Rui R", "role": "rouleur"},
                {"name": "Rui S", "role": "sprinteur"},
            ],
        },
        {
            "name": "Green",
            "player": "Gil",
            "riders": [
                {"name": "Gil R", "role": "rouleur"},
                {"name": "Gil S", "role": "sprinteur"},
            ],
        },
    ],
    "rules": {"podium_tp": [3, 2, 1]},
}


# Tests that run Celery workers, beat or web servers on the shared Redis. Under pytest-xdist
# (``dev.py test`` runs two processes) they all run in one process, one after another, so no two
# of them share the broker's keys (queues, unacknowledged tasks) or wait on each other's
# processes; every other test may run beside them (each process has its own test database and
# cache keys).
SERVICES = ("tests/faults/", "tests/integration/")
SERVICE_FIXTURES = {"real_worker", "celery_worker_process", "workers", "services_ready"}


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.as_posix()
        fixtures = set(getattr(item, "fixturenames", ()))
        if any(part in path for part in SERVICES) or fixtures & SERVICE_FIXTURES:
            item.add_marker(pytest.mark.xdist_group("services"))


@pytest.fixture(autouse=True)
def _no_language_left_active() -> Iterator[None]:
    # A request through the locale middleware (or a test's translation.activate) leaves its
    # language active in the thread; the next test would then read French where it expects the
    # default. Each test starts from the default language.
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _eager_tasks() -> Iterator[None]:
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


class Client(APIClient):
    """An API client that runs on-commit callbacks (the queued resolution) after each request."""

    capture: Any = None

    def generic(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if self.capture is None:
            return super().generic(*args, **kwargs)
        with self.capture(execute=True):
            return super().generic(*args, **kwargs)


def make_client(capture: Any, user: Any = None) -> Client:
    client = Client()
    client.capture = capture
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def users(db: Any) -> dict[str, Any]:
    """organiser and scorekeeper of velo-lisboa; outsider organises another club."""
    User = get_user_model()
    made = {
        name: User.objects.create_user(name, password=PASSWORD)
        for name in ("organiser", "scorekeeper", "outsider", "bystander")
    }
    made["superuser"] = User.objects.create_superuser("root", password=PASSWORD)
    club = Club.objects.create(name="Velo Club Lisboa", slug="velo-lisboa")
    other = Club.objects.create(name="Porto Cycling", slug="porto")
    Membership.objects.create(club=club, user=made["organiser"], role=Role.ORGANISER)
    Membership.objects.create(club=club, user=made["scorekeeper"], role=Role.SCOREKEEPER)
    Membership.objects.create(club=other, user=made["outsider"], role=Role.ORGANISER)
    return made


@pytest.fixture
def clients(users: dict[str, Any], django_capture_on_commit_callbacks: Any) -> dict[str, Client]:
    """One API client per role: organiser, scorekeeper, outsider, anonymous, superuser."""
    cap = django_capture_on_commit_callbacks
    return {
        "organiser": make_client(cap, users["organiser"]),
        "scorekeeper": make_client(cap, users["scorekeeper"]),
        "outsider": make_client(cap, users["outsider"]),
        "anonymous": make_client(cap),
        "superuser": make_client(cap, users["superuser"]),
    }


def tour_payload(**changes: Any) -> dict[str, Any]:
    payload = copy.deepcopy(TOUR_PAYLOAD)
    payload.update(changes)
    return payload


@pytest.fixture
def tour(clients: dict[str, Client]) -> dict[str, Any]:
    """A 3-stage, 3-team public tour created through the API; returns its detail."""
    response = clients["organiser"].post("/api/tours/", tour_payload(), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def riders_of(detail: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for team in detail["teams"] for r in team["riders"]]


def stage_rows(
    detail: dict[str, Any],
    order: list[int] | None = None,
    times: list[tuple[int, int]] | None = None,
    **extra: Any,
) -> list[dict[str, Any]]:
    """Valid results: riders in ``order`` (indexes into the entry list), times on the tile."""
    riders = riders_of(detail)
    order = order if order is not None else list(range(len(riders)))
    times = times or [(0, 0)] * 2 + [(0, 20)] + [(1, 10)] * 2 + [(2, 30)] * (len(riders) - 5)
    rows = []
    for position, index in enumerate(order, start=1):
        minutes, seconds = times[position - 1]
        rows.append(
            {
                "rider": riders[index]["id"],
                "position": position,
                "minutes": minutes,
                "seconds": seconds,
                "sprint_points": 0,
                "mountain_points": 0,
                "exhaustion": 2,
                **extra,
            }
        )
    return rows
