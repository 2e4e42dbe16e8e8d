"""Fuzz the API from its own OpenAPI schema (schemathesis, every check): the schema describes it.

The schema is loaded from ``/api/schema/`` through the WSGI application, inside the test's
database transaction; path parameters point at a real club, tour, championship, rally, league
and rally championship so that requests reach the code behind the 404s. Every operation is fuzzed
twice: as an organiser of the club (token), so writes run too, with the coverage phase (each
boundary and mutation of every parameter); and anonymously, fuzzing only (to stay within CI's
time: the refusals it checks do not depend on the body). Each case runs
**all** of schemathesis' checks (no 5xx; every status, content type, header and body as the
schema documents; schema-invalid requests rejected; schema-valid ones accepted; no auth ignored;
405s for the methods the schema leaves out), and any failure fails the test. The number of
examples per operation is bounded (``FUZZ_EXAMPLES``, default 8) to keep CI fast; the cases run
are counted in ``CASES`` (printed by ``-s``). ``test_schema_generates_without_warnings`` keeps
the schema itself sound (a warning there would make these failures about the warning).
"""

from __future__ import annotations

import collections
import contextlib
import io
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis  # a dev dependency: when missing, the suite fails (no silent skip)
from django.core import signals
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    ignored_auth,
    positive_data_acceptance,
)

from tests.championships.helpers import payload as championship_payload
from tests.conftest import tour_payload
from tests.leagues.helpers import payload as league_payload
from tests.rallies.helpers import rally_payload

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
#: Cases run per caller (CALLERS), to report the run's size.
CASES: collections.Counter[str] = collections.Counter()
#: The caller of the operations being fuzzed (the fixture's parameter).
CALLER = ["?"]


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


@pytest.fixture(scope="module", autouse=True)
def report_cases() -> Iterator[None]:
    """Print the run's size (``-s`` shows it): operations and cases per caller."""
    yield
    if CASES:
        print(f"\nschemathesis cases run: {dict(CASES)} ({sum(CASES.values())} in all)")


def make_objects(organiser: Any) -> dict[str, int]:
    """One object of every collection, in the organiser's club (``velo-lisboa``)."""
    made = {}
    for collection, body in (
        ("tours", tour_payload()),
        ("championships", championship_payload()),
        ("rallies", rally_payload()),
        ("leagues", league_payload()),
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
    return made


def fuzz_config(made: dict[str, int], headers: dict[str, str], *, coverage: bool) -> Any:
    """Coverage (every boundary and mutation of each parameter, once) and fuzzing phases; the
    stateful phase needs links the schema does not declare."""
    return schemathesis.Config.from_dict(
        {
            "seed": 20261130,
            "headers": headers,
            "parameters": {"path.id": made["tours"], "path.slug": "velo-lisboa", "path.number": 1},
            # Each collection's own object (ids differ between kinds).
            "operations": [
                {"include-path-regex": f"^/api/{collection}/", "parameters": {"path.id": pk}}
                for collection, pk in made.items()
            ],
            "generation": {"max-examples": EXAMPLES, "mode": "all"},
            "phases": {"coverage": {"enabled": coverage}, "stateful": {"enabled": False}},
        }
    )


CALLERS = ["organiser", "anonymous"]
#: The operations run as two tests, reads and writes, so that pytest-xdist can spread them over
#: its processes (the fuzz is the suite's longest test).
WRITES = ["POST", "PUT", "PATCH", "DELETE"]


@pytest.fixture(params=CALLERS)
def api_schema(request: pytest.FixtureRequest, users: dict[str, Any]) -> Iterator[Any]:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from tournament.wsgi import application

    organiser = APIClient()
    organiser.force_authenticate(users["organiser"])
    made = make_objects(organiser)
    headers = {}
    if request.param == "organiser":
        token = Token.objects.create(user=users["organiser"]).key
        headers["Authorization"] = f"Token {token}"
    # After the test client's requests above: it reconnects the signal when it is done.
    with _keep_the_test_connection():
        loaded = schemathesis.openapi.from_wsgi(
            "/api/schema/",
            application,
            config=fuzz_config(made, headers, coverage=request.param == "organiser"),
        )
        CALLER[0] = request.param
        yield loaded


schema = schemathesis.pytest.from_fixture("api_schema")


FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@schema.exclude(method=WRITES).parametrize()
@FUZZ_SETTINGS
def test_api_answers_reads_as_its_schema_documents(case: Any) -> None:
    """The reads (GET, HEAD, OPTIONS): see :func:`check_case`."""
    check_case(case)


@schema.include(method=WRITES).parametrize()
@FUZZ_SETTINGS
def test_api_answers_writes_as_its_schema_documents(case: Any) -> None:
    """The writes (POST, PUT, PATCH, DELETE): see :func:`check_case`."""
    check_case(case)


def check_case(case: Any) -> None:
    """Every check schemathesis has (the config enables them all), on every case.

    One exception, narrowed to what a schema cannot say: where a request is checked against
    stored state or a game's rules (a body naming a club or a rally that must exist, a set-up
    the game must accept, results an event must take; standings after an event that must be
    resolved; an event the engine must be able to simulate), a schema-valid request may get the
    documented 400 with field errors. Everywhere else (every other read, every query
    parameter's form, 415s) a schema-valid request must be accepted.
    """
    CASES[CALLER[0]] += 1
    keep_public()
    response = case.call()
    excluded = []
    if makes_private(case):
        # The probe without credentials then meets a private object: a 404 by design.
        excluded.append(ignored_auth)
        assert_anonymous_refused(case)
    if has_rules_beyond_the_schema(case):
        excluded.append(positive_data_acceptance)
        assert_field_errors_if_rejected(case, response)
    case.validate_response(response, excluded_checks=excluded)


def keep_public() -> None:
    """An earlier case may have made an object private (``PATCH {"public": false}``); a private
    competition is a 404 to outsiders by design (API.md: visibility first), which would make the
    unauthenticated probes of ``ignored_auth`` answer 404 instead of the 401 they test for."""
    from tournament.competitions.kinds import all_kinds
    from tournament.rallies.models import RallyChampionship

    for kind in all_kinds():
        kind.competition_model._default_manager.filter(public=False).update(public=True)
    RallyChampionship.objects.filter(public=False).update(public=True)


def makes_private(case: Any) -> bool:
    return (
        case.method == "PATCH" and isinstance(case.body, dict) and case.body.get("public") is False
    )


def assert_anonymous_refused(case: Any) -> None:
    """What ``ignored_auth`` would check, knowing the object may now be private (404)."""
    from rest_framework.test import APIClient

    path = case.formatted_path
    response = APIClient().patch(path, case.body, format="json")
    # The test client reconnects these when it is done: keep the test's connection open.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    assert response.status_code in (401, 404), (path, response.status_code, response.content)


def has_rules_beyond_the_schema(case: Any) -> bool:
    path = case.operation.path
    # standings/ and forecast/ take an after_* only up to the current event (a 400 beyond).
    return case.method in {"POST", "PATCH"} or path.endswith(("/standings/", "/forecast/"))


def assert_field_errors_if_rejected(case: Any, response: Any) -> None:
    """A schema-valid request refused by a rule: a 400 that names what is wrong, as a field
    error (or the event's own ``detail``), never a parse error or a wrong media type."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    if response.status_code != 400:
        return
    body = response.json()
    assert isinstance(body, dict) and body, body
    assert "JSON parse error" not in str(body.get("detail", "")), body
