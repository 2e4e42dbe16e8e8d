"""Password guessing is throttled on the token endpoint and on both sign-in pages.

``X-Forwarded-For`` is not trusted (``NUM_PROXIES`` 0 by default), so a client cannot pick a fresh
identity per request; and a cache outage never turns a sign-in into a 500.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TOKEN_URL = "/api/auth/token/"
# A Redis nobody listens on: port 9 (discard) on loopback refuses at once.
UNREACHABLE_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def _token_limit() -> int:
    allowed, _period = ScopedRateThrottle().parse_rate(ScopedRateThrottle.THROTTLE_RATES["auth"])
    assert allowed is not None and allowed <= 100
    return int(allowed)


def test_token_guesses_are_throttled_whatever_x_forwarded_for_says(users, client_ip):
    assert api_settings.NUM_PROXIES == 0
    limit = _token_limit()
    client = APIClient(REMOTE_ADDR=client_ip)
    codes = [
        client.post(
            TOKEN_URL,
            {"username": "organiser", "password": f"guess-{n}"},
            format="json",
            # A fresh forged address on every request: it must not reset the count.
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n % 250 + 1}",
        ).status_code
        for n in range(limit + 1)
    ]
    assert codes == [400] * limit + [429]
    right = client.post(TOKEN_URL, {"username": "organiser", "password": PASSWORD}, format="json")
    assert right.status_code == 429
    assert "Retry-After" in right.headers
    # Another client address is not affected.
    other = APIClient(REMOTE_ADDR=client_ip.rsplit(".", 1)[0] + ".255")
    fresh = other.post(TOKEN_URL, {"username": "organiser", "password": PASSWORD}, format="json")
    assert fresh.status_code == 200


def test_num_proxies_comes_from_the_environment():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='tournament.settings'; "
        "django.setup(); from django.conf import settings as s; "
        "print(s.REST_FRAMEWORK['NUM_PROXIES'])"
    )
    env = {**os.environ, "NUM_PROXIES": "1", "PODIUM_TESTING": "1"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"


def _login(client: Client, username: str, password: str, **extra: Any) -> Any:
    return client.post("/login/", {"username": username, "password": password}, **extra)


def test_failed_web_logins_are_throttled_per_address_and_username(users, client_ip):
    limit = settings.PODIUM_LOGIN_MAX_FAILURES
    client = Client(REMOTE_ADDR=client_ip)
    codes = [
        _login(client, "organiser", f"guess-{n}", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(limit)
    ]
    assert codes == [200] * limit  # the form again, with "enter a correct username and password"
    refused = _login(client, "organiser", PASSWORD)
    assert refused.status_code == 429
    assert "Too many failed sign-ins" in refused.content.decode()
    assert "_auth_user_id" not in client.session  # the right password did not sign in
    # Case and spaces do not give a fresh counter.
    assert _login(client, " Organiser ", PASSWORD).status_code == 429
    # Another user from the same address, and the same user from elsewhere, may still sign in.
    assert _login(Client(REMOTE_ADDR=client_ip), "scorekeeper", PASSWORD).status_code == 302
    elsewhere = Client(REMOTE_ADDR=client_ip.rsplit(".", 1)[0] + ".255")
    assert _login(elsewhere, "organiser", PASSWORD).status_code == 302


def test_a_successful_login_resets_the_count(users, client_ip):
    limit = settings.PODIUM_LOGIN_MAX_FAILURES
    client = Client(REMOTE_ADDR=client_ip)
    for n in range(limit - 1):
        assert _login(client, "scorekeeper", f"guess-{n}").status_code == 200
    assert _login(client, "scorekeeper", PASSWORD).status_code == 302
    client.post("/logout/")
    for n in range(limit - 1):
        assert _login(client, "scorekeeper", f"again-{n}").status_code == 200
    assert _login(client, "scorekeeper", PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too(users, client_ip):
    users["organiser"].is_staff = True
    users["organiser"].save(update_fields=["is_staff"])
    client = Client(REMOTE_ADDR=client_ip)
    codes = [
        client.post(
            "/admin/login/", {"username": "organiser", "password": f"guess-{n}"}
        ).status_code
        for n in range(settings.PODIUM_LOGIN_MAX_FAILURES)
    ]
    assert codes == [200] * settings.PODIUM_LOGIN_MAX_FAILURES
    answer = client.post("/admin/login/", {"username": "organiser", "password": PASSWORD})
    # The same answer as /login/ and the API give (it was a 200 with the message).
    assert answer.status_code == 429
    assert "Too many failed sign-ins" in answer.content.decode()
    assert "_auth_user_id" not in client.session
    # The admin's own sign-in page still works: another address signs in and is sent on.
    elsewhere = Client(REMOTE_ADDR=client_ip.rsplit(".", 1)[0] + ".255")
    page = elsewhere.get("/admin/login/")
    assert page.status_code == 200 and 'name="password"' in page.content.decode()
    signed_in = elsewhere.post(
        "/admin/login/?next=/admin/", {"username": "organiser", "password": PASSWORD}
    )
    assert signed_in.status_code == 302 and signed_in["Location"] == "/admin/"


@override_settings(CACHES=UNREACHABLE_CACHE)
def test_a_cache_outage_does_not_fail_sign_ins(users, client_ip):
    api = APIClient(REMOTE_ADDR=client_ip)
    token = api.post(TOKEN_URL, {"username": "organiser", "password": PASSWORD}, format="json")
    assert token.status_code == 200
    web = Client(REMOTE_ADDR=client_ip)
    assert _login(web, "organiser", "wrong").status_code == 200
    assert _login(web, "organiser", PASSWORD).status_code == 302
