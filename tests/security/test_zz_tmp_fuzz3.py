"""Fuzz the API from its own OpenAPI schema (schemathesis): no 5xx, answers match the schema.

The schema is loaded from ``/api/schema/`` through the WSGI application, inside the test's
database transaction; path parameters point at a real club, tour, championship, rally and rally
championship so that requests reach the code behind the 404s. Requests carry an organiser's token,
so writes run too. The number of examples per operation is bounded (``FUZZ_EXAMPLES``, default 8)
to keep CI fast. Answers must conform to the schema: ``test_schema_generates_without_warnings``
keeps the schema itself sound (a warning there would make these failures about the warning).
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import signals
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from tests.championships.helpers import payload as championship_payload
from tests.conftest import tour_payload
from tests.rallies.helpers import rally_payload

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is a dev extra")

from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
)

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))


def schema_warnings() -> list[str]:
    """drf-spectacular's warnings while generating the schema (each one may make it wrong)."""
    out, err = io.StringIO(), io.StringIO()
    # --fail-on-warn raises once the warnings are printed (on sys.stderr, not the command's).
    with contextlib.suppress(CommandError), contextlib.redirect_stderr(err):
        call_command("spectacular", fail_on_warn=True, validate=True, file=os.devnull, stdout=out)
    return sorted({line for line in err.getvalue().splitlines() if "Warning" in line})


def test_schema_generates_without_warnings():
    """Two serializers with one component name make every response that uses it look wrong."""
    assert schema_warnings() == []


@contextlib.contextmanager
def _keep_the_test_connection() -> Iterator[None]:
    """Requests reach Django's WSGI handler directly, not through ``django.test.Client``, so do
    what that client does: keep ``close_old_connections`` from closing the connection that holds
    the test's transaction at the start and end of every request (PostgreSQL)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(users: dict[str, Any]) -> Iterator[Any]:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from tournament.wsgi import application

    organiser = APIClient()
    organiser.force_authenticate(users["organiser"])
    made = {}
    for collection, body in (
        ("tours", tour_payload()),
        ("championships", championship_payload()),
        ("rallies", rally_payload()),
    ):
        response = organiser.post(f"/api/{collection}/", body, format="json")
        assert response.status_code == 201, response.content
        made[collection] = response.json()["id"]
    response = organiser.post(
        "/api/rally-championships/",
        {"club": "velo-lisboa", "name": "Taça", "rallies": [made["rallies"]]},
        format="json",
    )
    assert response.status_code == 201, response.content
    made["rally-championships"] = response.json()["id"]
    token = Token.objects.create(user=users["organiser"]).key
    config = schemathesis.Config.from_dict(
        {
            "seed": 103,
            "headers": {"Authorization": f"Token {token}"},
            "parameters": {"path.id": made["tours"], "path.slug": "velo-lisboa", "path.number": 1},
            # Each collection's own object (ids differ between kinds).
            "operations": [
                {"include-path-regex": f"^/api/{collection}/", "parameters": {"path.id": pk}}
                for collection, pk in made.items()
            ],
            "generation": {"max-examples": EXAMPLES, "mode": "all"},
            "phases": {"coverage": {"enabled": True}, "stateful": {"enabled": False}},
        }
    )
    # After the test client's request above: it reconnects the signal when it is done.
    with _keep_the_test_connection():
        yield schemathesis.openapi.from_wsgi("/api/schema/", application, config=config)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_without_server_errors_and_as_documented(case: Any) -> None:
    r = case.call()
    open("/tmp/fuzzlog3.txt","a").write(f"{case.method} {case.formatted_path} {r.status_code}\n")
    case.call_and_validate(
        checks=[not_a_server_error, content_type_conformance, response_schema_conformance]
    )
