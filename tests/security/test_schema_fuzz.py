"""Fuzz the API from its own OpenAPI schema (schemathesis): no 5xx, answers match the schema.

The schema is loaded from ``/api/schema/`` through the WSGI application, inside the test's
database transaction; path parameters point at a real club and tour so that requests reach the
code behind the 404s. Requests carry an organiser's token, so writes run too. The number of
examples per operation is bounded (``FUZZ_EXAMPLES``, default 8) to keep CI fast.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.conftest import tour_payload

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is a dev extra")

from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
)

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
CHECKS = [not_a_server_error]


@pytest.fixture
def api_schema(users: dict[str, Any]) -> Any:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from tournament.wsgi import application

    organiser = APIClient()
    organiser.force_authenticate(users["organiser"])
    tour = organiser.post("/api/tours/", tour_payload(), format="json").json()
    token = Token.objects.create(user=users["organiser"]).key
    config = schemathesis.Config.from_dict(
        {
            "seed": 20261130,
            "headers": {"Authorization": f"Token {token}"},
            "parameters": {"path.id": tour["id"], "path.slug": "velo-lisboa", "path.number": 1},
            "generation": {"max-examples": EXAMPLES, "mode": "all"},
            "phases": {"coverage": {"enabled": True}, "stateful": {"enabled": False}},
        }
    )
    return schemathesis.openapi.from_wsgi("/api/schema/", application, config=config)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_without_server_errors_and_as_documented(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)
