"""Championship tests: the fixed cast (tests/conftest.py) and the real-worker fixtures."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.conftest import celery_worker_process, real_worker

__all__ = ["celery_worker_process", "real_worker"]


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Any) -> None:
    # As in tests/api: the cast's users are made for every test; hashing speed is not under test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
