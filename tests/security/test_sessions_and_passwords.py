"""Passwords are validated; sessions, CSRF and security headers work as Django intends."""

from __future__ import annotations

import pytest
from django.contrib.auth.forms import AdminUserCreationForm
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from tests.api.helpers import payload
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "password",
    ["short1", "password123", "12345678901", "organiser-x"],
    ids=["too-short", "common", "numeric", "like-the-username"],
)
def test_weak_passwords_are_refused(users, password):
    with pytest.raises(ValidationError):
        validate_password(password, user=users["organiser"])
    form = AdminUserCreationForm(
        data={
            "username": "organiser-x",
            "password1": password,
            "password2": password,
            "usable_password": "true",
        }
    )
    assert not form.is_valid()


def test_a_strong_password_is_accepted(users):
    validate_password("velo-Lisboa-2026-pedal", user=users["organiser"])


def test_login_form_needs_the_csrf_token(users):
    client = Client(enforce_csrf_checks=True)
    refused = client.post("/login/", {"username": "organiser", "password": PASSWORD})
    assert refused.status_code == 403
    page = client.get("/login/")
    token = page.cookies["csrftoken"].value
    accepted = client.post(
        "/login/", {"username": "organiser", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert accepted.status_code == 302


def test_login_rotates_the_session_and_logout_needs_a_post(users):
    client = Client()
    session = client.session
    session["language_seen"] = "pt"
    session.save()
    before = session.session_key
    assert (
        client.post("/login/", {"username": "organiser", "password": PASSWORD}).status_code == 302
    )
    after = client.cookies["sessionid"]
    assert after.value != before  # no session fixation
    assert after["httponly"] and after["samesite"] == "Lax"
    assert client.get("/logout/").status_code == 405  # a link cannot sign anyone out
    assert client.post("/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_api_writes_with_the_session_need_csrf_but_tokens_do_not(users):
    session_client = APIClient(enforce_csrf_checks=True)
    assert session_client.login(username="organiser", password=PASSWORD)
    refused = session_client.post("/api/tours/", payload(), format="json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]

    token = APIClient().post(
        "/api/auth/token/", {"username": "organiser", "password": PASSWORD}, format="json"
    )
    token_client = APIClient(enforce_csrf_checks=True)
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert token_client.post("/api/tours/", payload(), format="json").status_code == 201


def test_security_headers(users):
    response = Client().get("/")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
