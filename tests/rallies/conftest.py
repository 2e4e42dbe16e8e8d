"""Rally tests: a fast password hasher, and the real-worker fixtures for ``test_worker.py``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.conftest import celery_worker_process, real_worker

__all__ = ["celery_worker_process", "real_worker"]


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Any) -> None:
    # The cast's users are made for every test; these tests check who may do what, not hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
