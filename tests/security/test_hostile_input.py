"""Hostile values are client errors, never a 500: found by the schema fuzzer.

PostgreSQL rejects text with a NUL byte (``DataError``); before the fix a NUL in a slug from the
body (``club``) or the URL (``/api/clubs/{slug}/``) was a 500. SQLite stores it, so there these
are plain 400/404 answers: the test holds on both.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.championships.helpers import payload as championship_payload
from tests.championships.helpers import race_rows
from tests.conftest import tour_payload

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("post", "/api/tours/", tour_payload(club="velo\x00lisboa")),
        ("get", "/api/clubs/velo%00lisboa/", None),
        ("post", "/api/clubs/velo%00lisboa/members/", {"username": "x", "role": "scorekeeper"}),
        ("post", "/api/clubs/velo-lisboa/members/", {"username": "a\x00", "role": "scorekeeper"}),
        ("post", "/api/tours/import/", {"club": "velo\x00", "document": {}}),
        ("post", "/api/auth/token/", {"username": "organiser\x00", "password": "x"}),
    ],
    ids=["tour-club", "club-url", "members-url", "member-username", "import-club", "token"],
)
def test_nul_bytes_are_a_client_error(users, method, url, body):
    client = APIClient()
    client.force_authenticate(users["organiser"])
    response = getattr(client, method)(url, body, format="json") if body else client.get(url)
    assert response.status_code in (400, 404), response.content


@pytest.mark.parametrize("field", ["driver", "position", "laps"])
def test_a_null_in_a_required_race_result_field_is_a_400(users, field):
    """Found by the schema fuzzer: ``"laps": null`` reached the FD-79 laps check (500)."""
    client = APIClient()
    client.force_authenticate(users["organiser"])
    detail = client.post("/api/championships/", championship_payload(), format="json").json()
    rows = race_rows(detail, 1, ["Ana", "Rui", "Eva"])
    rows[0][field] = None
    url = f"/api/championships/{detail['id']}/races/1/results/"
    response = client.post(url, {"results": rows}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["results"][0][field]
