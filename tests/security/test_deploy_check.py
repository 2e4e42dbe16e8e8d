"""``manage.py check --deploy`` is clean with the environment docker/compose.yaml gives the web.

The web service's environment is read from the compose file (variables interpolated as compose
does, with a strong SECRET_KEY supplied as an operator would); when ``docker-compose`` is
installed its own rendering must agree.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yaml"
# Everything that could leak from the test environment into the "production" process.
SCRUB = {"DATABASE_URL", "REDIS_URL", "PODIUM_TESTING", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}
SCRUB |= {k for k in os.environ if k.startswith(("SECURE_", "SESSION_", "CSRF_", "PODIUM_"))}
VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def _interpolate(value: str, env: dict[str, str]) -> str:
    def replace(match: re.Match[str]) -> str:
        name, operator, argument = match.group(1), match.group(2), match.group(3) or ""
        present = name in env and (env[name] != "" or not (operator or "").startswith(":"))
        if operator in (":?", "?") and not present:
            raise KeyError(f"{name}: {argument}")
        if operator in (":-", "-") and not present:
            return argument
        return env.get(name, "")

    return VARIABLE.sub(replace, value)


def compose_environment(service: str, env: dict[str, str]) -> dict[str, str]:
    document = yaml.safe_load(COMPOSE.read_text())  # merge keys (<<: *podium) included
    raw = document["services"][service]["environment"]
    return {key: _interpolate(str(value), env) for key, value in raw.items()}


def _operator_env() -> dict[str, str]:
    return {"SECRET_KEY": secrets.token_urlsafe(50)}


def _check_deploy(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in SCRUB}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**base, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _issues(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The ids of the issues ``check`` reported (``security.W004``, ``drf_spectacular.W001``)."""
    return re.findall(r"^\S*: \(([\w.]+)\)", result.stdout + result.stderr, flags=re.M)


def test_check_deploy_is_clean_with_the_compose_environment():
    environment = compose_environment("web", _operator_env())
    assert environment["DEBUG"] == "false"
    result = _check_deploy(environment)
    output = result.stdout + result.stderr
    # drf-spectacular's own check (schema naming collisions, drf_spectacular.W001) included.
    assert _issues(result) == [], output
    assert result.returncode == 0, output
    assert "System check identified no issues" in output


def test_check_deploy_catches_a_weak_secret_key():
    environment = compose_environment("web", {"SECRET_KEY": "change-me"})
    result = _check_deploy(environment)
    assert result.returncode != 0
    assert "security.W009" in _issues(result)


def test_compose_requires_a_secret_key():
    with pytest.raises(KeyError, match="SECRET_KEY"):
        compose_environment("web", {})


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose not installed")
def test_docker_compose_renders_the_same_environment():
    env = _operator_env()
    base = {k: v for k, v in os.environ.items() if k not in SCRUB}
    rendered = subprocess.run(
        ["docker-compose", "-f", str(COMPOSE), "config"],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert rendered.returncode == 0, rendered.stderr
    services: dict[str, Any] = yaml.safe_load(rendered.stdout)["services"]
    web = {k: str(v) for k, v in services["web"]["environment"].items()}
    assert web == compose_environment("web", env)
    # Only the TLS proxy on the host reaches gunicorn (X-Forwarded-* cannot come from outside).
    assert str(services["web"]["ports"][0]).startswith("127.0.0.1:8000:8000")
    missing = subprocess.run(
        ["docker-compose", "-f", str(COMPOSE), "config", "-q"],
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode != 0 and "SECRET_KEY" in missing.stderr


def test_plain_http_env_file_turns_off_only_what_needs_tls():
    overrides = dict(
        line.split("=", 1)
        for line in (ROOT / "docker" / "plain-http.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert overrides["SECURE_SSL_REDIRECT"] == "false"
    assert overrides["BEHIND_TLS_PROXY"] == "false"
    assert overrides["SECURE_HSTS_SECONDS"] == "0"
    environment = compose_environment("web", {**_operator_env(), **overrides})
    assert environment["DEBUG"] == "false"
