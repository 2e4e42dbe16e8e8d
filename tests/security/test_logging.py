"""Every server log line is written once (issue #13, item 12).

Django configures its own default logging before ``settings.LOGGING``: that gave the ``django``
logger a console handler of its own, beside the root one every logger propagates to, so each
``django.*`` line (a request refused, a 404, a server error) came out twice under ``DEBUG``.
Each case runs in a fresh interpreter, as the web server and the worker start, and counts the
lines on standard error.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGGERS = ("django.request", "django.security.csrf", "django", "tournament.competitions.tasks")

WEB = """
import logging, os
os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
import django
django.setup()
"""
# What ``celery -A tournament worker`` does: load the app (Django is set up by its fixup), then
# install Celery's logging (worker_hijack_root_logger) before any task logs.
WORKER = """
import logging, os
os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
from tournament.celery import app
import django
django.setup()
app.log.setup(loglevel="INFO", redirect_stdouts=False, hostname="probe@test")
"""
EMIT = """
for name in {loggers!r}:
    logging.getLogger(name).warning("probe-line %s", name)
"""


@pytest.mark.parametrize("debug", ["0", "1"], ids=["production", "debug"])
@pytest.mark.parametrize("process", ["web", "worker"])
def test_each_log_line_is_written_once(process, debug):
    code = (WEB if process == "web" else WORKER) + EMIT.format(loggers=LOGGERS)
    env = {**os.environ, "DEBUG": debug, "PODIUM_TESTING": "1", "LOG_LEVEL": "INFO"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    lines = (result.stderr + result.stdout).splitlines()
    counts = {name: sum(line.endswith(f"probe-line {name}") for line in lines) for name in LOGGERS}
    assert counts == dict.fromkeys(LOGGERS, 1), result.stderr
