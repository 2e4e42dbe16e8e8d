"""POST /api/auth/token/: a token for good credentials, a 400 for bad ones."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from rest_framework.throttling import ScopedRateThrottle

from tests.api.helpers import payload
from tests.conftest import PASSWORD, make_client

URL = "/api/auth/token/"
# ScopedRateThrottle's cache key for the test client's address (the cache may be a shared Redis).
THROTTLE_KEY = "throttle_auth_127.0.0.1"


@pytest.fixture(autouse=True)
def _fresh_throttle() -> Iterator[None]:
    cache.delete(THROTTLE_KEY)
    yield
    cache.delete(THROTTLE_KEY)


def test_good_credentials_return_a_token_that_authenticates(users):
    client = make_client(None)
    response = client.post(URL, {"username": "organiser", "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    token = response.json()["token"]
    assert isinstance(token, str) and token

    # The token is the organiser: it may create a tour in the organiser's club.
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post("/api/tours/", payload(), format="json")
    assert created.status_code == 201, created.content
    # The same user gets the same token again.
    again = make_client(None).post(
        URL, {"username": "organiser", "password": PASSWORD}, format="json"
    )
    assert again.json()["token"] == token


@pytest.mark.parametrize(
    "body",
    [
        {"username": "organiser", "password": "wrong"},
        {"username": "nobody", "password": PASSWORD},
        {"username": "organiser"},
    ],
    ids=["wrong-password", "unknown-user", "no-password"],
)
def test_bad_credentials_are_a_400_without_token(users, body):
    response = make_client(None).post(URL, body, format="json")
    assert response.status_code == 400
    assert "token" not in response.json()


def test_a_bad_token_is_a_401(users):
    client = make_client(None)
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.post("/api/tours/", payload(), format="json")
    assert response.status_code == 401


def test_guessing_passwords_is_throttled(users):
    allowed, _period = ScopedRateThrottle().parse_rate(ScopedRateThrottle.THROTTLE_RATES["auth"])
    assert allowed is not None and allowed <= 100
    client = make_client(None)
    codes = [
        client.post(
            URL, {"username": "organiser", "password": f"guess-{n}"}, format="json"
        ).status_code
        for n in range(allowed + 1)
    ]
    assert codes[:allowed] == [400] * allowed
    assert codes[allowed] == 429
    # Even the right password waits.
    response = client.post(URL, {"username": "organiser", "password": PASSWORD}, format="json")
    assert response.status_code == 429
