"""Security tests: the fixed cast with a fast password hasher, and a private client address.

Each test gets its own loopback address (``REMOTE_ADDR`` of the test client, no traffic leaves
the process) so that throttle counters, which may live in a shared Redis, never leak between
tests or runs.
"""

from __future__ import annotations

import random

import pytest


@pytest.fixture
def client_ip() -> str:
    """A loopback address of this test's own, as the client address the server sees."""
    return f"127.{random.randint(1, 254)}.{random.randint(0, 254)}.{random.randint(1, 254)}"
