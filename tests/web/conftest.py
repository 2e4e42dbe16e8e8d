"""Web fixtures: one browser-like client per role, and tours with resolved stages.

Django's test client (not the API client): the pages use the session. On-commit callbacks do
not run inside a test transaction unless a test captures them, so a form submission leaves its
stage ``submitted`` — exactly what the live-status tests need.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.conftest import stage_rows, tour_payload

ROLES = ("organiser", "scorekeeper", "outsider", "bystander", "superuser", "anonymous")
MEMBERS = ("organiser", "scorekeeper", "superuser")  # may read a private tour of velo-lisboa
WRITERS = ("organiser", "scorekeeper", "superuser")  # may submit results


@pytest.fixture
def web(users: dict[str, Any]) -> dict[str, Client]:
    """A logged-in page client per role; ``anonymous`` has no session."""
    made = {}
    for role in ROLES:
        client = Client()
        if role != "anonymous":
            client.force_login(users[role])
        made[role] = client
    return made


@pytest.fixture
def resolved_tour(clients: dict[str, Any], tour: dict[str, Any]) -> dict[str, Any]:
    """The shared 3-stage public tour with stages 1 and 2 resolved (through the API)."""
    for number, order in ((1, [0, 1, 2, 3, 4, 5]), (2, [5, 4, 3, 2, 1, 0])):
        response = clients["scorekeeper"].post(
            f"/api/tours/{tour['id']}/stages/{number}/results/",
            {"results": stage_rows(tour, order=order)},
            format="json",
        )
        assert response.status_code == 202, response.content
    return clients["anonymous"].get(f"/api/tours/{tour['id']}/").json()


@pytest.fixture
def private_tour(clients: dict[str, Any]) -> dict[str, Any]:
    """A private tour of velo-lisboa with stage 1 resolved."""
    response = clients["organiser"].post(
        "/api/tours/", tour_payload(name="Secret Tour", public=False), format="json"
    )
    assert response.status_code == 201, response.content
    detail = response.json()
    response = clients["scorekeeper"].post(
        f"/api/tours/{detail['id']}/stages/1/results/",
        {"results": stage_rows(detail)},
        format="json",
    )
    assert response.status_code == 202, response.content
    return detail
