"""League tests: the fixed cast (tests/conftest.py) and the real-worker fixtures."""

from __future__ import annotations

from tests.integration.conftest import celery_worker_process, real_worker

__all__ = ["celery_worker_process", "real_worker"]
