#!/usr/bin/env python3
"""Set up and run Podium with nothing but Python 3.11: ``python3.11 dev.py run | test | lock``.

``run``  creates ``.venv``, installs Podium, migrates the embedded SQLite database, loads the demo
         data and serves http://127.0.0.1:8000 with DEBUG on and tasks run in-process.
``test`` creates ``.venv`` with the dev tools, then runs ruff, ``makemigrations --check``, mypy,
         the import contracts (lint-imports) and the whole pytest suite. It uses PostgreSQL and
         Redis on 127.0.0.1 when they answer (or ``DATABASE_URL`` / ``REDIS_URL`` when set) and
         otherwise SQLite with eager tasks.
``lock``  rewrites ``requirements/*.lock`` from the ranges in ``pyproject.toml`` (with uv, one of
         the dev tools), keeping every pin that still fits; ``lock --upgrade`` moves each pin to
         the newest release its range allows.

Both ``run`` and ``test`` install the exact versions of the lock files with pip alone, again
whenever a lock file or ``pyproject.toml`` changes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
TEST_REDIS_URL = "redis://127.0.0.1:6379/15"
LOCKS = ROOT / "requirements"
# One lock per set of extras; base.lock is resolved within dev.lock, so both pin the same versions.
LOCK_FILES = {"": LOCKS / "base.lock", "dev": LOCKS / "dev.lock"}


def sh(*args: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=True)


def ensure_venv(extras: str) -> None:
    """Create .venv and install the locked versions, then the project itself (editable).

    Reinstalls only when pyproject.toml or the lock file changes. The lock already holds every
    dependency, so the project goes in with ``--no-deps``: pip resolves nothing by itself.
    """
    if sys.version_info[:2] != (3, 11):
        sys.exit(f"Podium needs Python 3.11 (this is {sys.version.split()[0]}).")
    if not PY.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    lock = LOCK_FILES[extras]
    digest = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + lock.read_bytes() + extras.encode()
    ).hexdigest()
    stamp = VENV / f".installed-{extras or 'base'}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    pip: list[str | Path] = [PY, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    sh(*pip, "-r", lock)
    sh(*pip, "--no-deps", "-e", ".")
    stamp.write_text(digest)


def lock(args: list[str]) -> None:
    """Re-resolve the lock files with uv (from the dev tools) after a range changed."""
    ensure_venv("dev")
    unknown = [a for a in args if a != "--upgrade"]
    if unknown:
        sys.exit(f"dev.py lock takes only --upgrade, not {' '.join(unknown)}")
    compile_: list[str | Path] = [
        BIN / "uv",
        "pip",
        "compile",
        "pyproject.toml",
        "--universal",
        "--python-version",
        "3.11",
        "--quiet",
        "--custom-compile-command",
        "python3.11 dev.py lock",
        *args,
    ]
    # dev first, then base constrained by it: the two locks never disagree on a version.
    sh(*compile_, "--extra", "dev", "-o", LOCK_FILES["dev"])
    sh(*compile_, "-c", LOCK_FILES["dev"], "-o", LOCK_FILES[""])


def answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def run() -> None:
    ensure_venv("")
    env = {**os.environ, "DEBUG": os.environ.get("DEBUG", "1")}
    sh(PY, "manage.py", "migrate", "--noinput", env=env)
    sh(PY, "manage.py", "demo", env=env)
    print("\nPodium: http://127.0.0.1:8000  (admin: /admin/, API docs: /api/docs/)\n", flush=True)
    os.execve(str(PY), [str(PY), "manage.py", "runserver", "127.0.0.1:8000"], env)


def ensure_axe() -> None:
    """``npm ci`` (axe-core, for the browser tests' accessibility checks) when npm exists and
    node_modules is older than package-lock.json; without npm those checks skip, saying why."""
    lock_file, installed = ROOT / "package-lock.json", ROOT / "node_modules" / ".package-lock.json"
    if not lock_file.exists() or shutil.which("npm") is None:
        return
    if installed.exists() and installed.stat().st_mtime >= lock_file.stat().st_mtime:
        return
    try:
        sh("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
    except subprocess.CalledProcessError:
        print("npm ci failed: the axe-core checks of the browser tests will be skipped")


def test(pytest_args: list[str]) -> None:
    ensure_venv("dev")
    ensure_axe()
    env = {**os.environ, "PODIUM_TESTING": "1"}
    if "DATABASE_URL" not in env and answers("127.0.0.1", 5432):
        env["DATABASE_URL"] = TEST_DATABASE_URL
    if "REDIS_URL" not in env and answers("127.0.0.1", 6379):
        env["REDIS_URL"] = TEST_REDIS_URL
    print(
        f"database: {env.get('DATABASE_URL', 'SQLite (embedded)')}; "
        f"redis: {env.get('REDIS_URL', 'none (eager tasks; worker tests skipped)')}",
        flush=True,
    )
    sh(BIN / "ruff", "check", ".", env=env)
    sh(BIN / "ruff", "format", "--check", ".", env=env)
    sh(PY, "manage.py", "makemigrations", "--check", "--dry-run", env=env)
    sh(BIN / "mypy", env=env)
    sh(BIN / "lint-imports", env=env)
    chosen = any(a.startswith(("-n", "--numprocesses", "--dist")) for a in pytest_args)
    if (os.cpu_count() or 1) > 1 and not chosen and "no:xdist" not in pytest_args:
        # Two processes (pytest-xdist), each with its own test database: the service tests
        # (workers, beat, web servers; one process, in order: tests/conftest.py) spend much of
        # their time waiting, and the other tests run beside them.
        pytest_args = ["-n", "2", "--dist", "loadgroup", *pytest_args]
    sh(PY, "-m", "pytest", *pytest_args, env=env)


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        if command == "run":
            run()
        elif command == "test":
            test(sys.argv[2:])
        elif command == "lock":
            lock(sys.argv[2:])
        else:
            sys.exit(__doc__)
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)


if __name__ == "__main__":
    main()
