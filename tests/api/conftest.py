"""API-test settings: a fast password hasher (the cast's five users are made for every test)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Any) -> None:
    # PBKDF2's deliberate slowness costs seconds per test on two shared cores; the API tests
    # check who may do what, not how passwords are stored.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
