"""Rally tests: a fast password hasher, and the real-worker fixtures for ``test_worker.py``."""

from __future__ import annotations

from tests.integration.conftest import celery_worker_process, real_worker

__all__ = ["celery_worker_process", "real_worker"]
