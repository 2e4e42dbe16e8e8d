"""Settings come from the environment and fail fast in production."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _settings(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "PODIUM_TESTING", "DATABASE_URL", "REDIS_URL"}
    }
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='tournament.settings'; "
        "django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.CELERY_TASK_ALWAYS_EAGER, s.DATABASES['default']['ENGINE'], "
        "s.CACHES['default']['BACKEND'])"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_secret_key():
    result = _settings({"PODIUM_TESTING": "0"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_embedded_default_is_sqlite_with_eager_tasks():
    result = _settings({"PODIUM_TESTING": "0", "SECRET_KEY": "k", "DEBUG": "1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True",
        "True",
        "django.db.backends.sqlite3",
        "django.core.cache.backends.locmem.LocMemCache",
    ]


def test_redis_and_postgres_from_the_environment():
    result = _settings(
        {
            "PODIUM_TESTING": "0",
            "SECRET_KEY": "k",
            "DATABASE_URL": "postgres://u:p@db.invalid:5432/podium",
            "REDIS_URL": "redis://cache.invalid:6379/0",
        }
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "False",
        "False",
        "django.db.backends.postgresql",
        "django.core.cache.backends.redis.RedisCache",
    ]
