"""Every error under /api/ is a JSON answer, never a 500 or an HTML page (issue #13, item 1).

Found by the attack run: 1,000 ``[`` then 1,000 ``]`` (2 KB) made Python's JSON decoder exhaust
the recursion limit, a 500 on every write endpoint even anonymously; a 10 MB body, a URL no
route matches and an uncaught exception answered Django's HTML pages. The write operations are
read from the API's own schema, so a new endpoint is covered without editing this file.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import override_settings
from django.urls import include, path
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.championships.helpers import payload as championship_payload
from tests.conftest import tour_payload
from tests.leagues.helpers import payload as league_payload
from tests.rallies.helpers import rally_payload
from tournament.parsers import MAX_DEPTH, depth_exceeds

pytestmark = pytest.mark.django_db

DEEP = "[" * 1000 + "]" * 1000
WRITES = ("post", "put", "patch")


def write_operations() -> list[tuple[str, str]]:
    """(method, path template) of every write the schema documents."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method, route)
        for route, operations in schema["paths"].items()
        for method in operations
        if method in WRITES
    )


@pytest.fixture
def objects(clients: dict[str, Any]) -> dict[str, int]:
    """One object of each collection (path ``{id}``), created by the organiser."""
    organiser = clients["organiser"]
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


def concrete(route: str, objects: dict[str, int]) -> str:
    collection = route.split("/")[2]
    return (
        route.replace("{id}", str(objects.get(collection, 0)))
        .replace("{number}", "1")
        .replace("{slug}", "velo-lisboa")
    )


def unfilled(route: str, objects: dict[str, int]) -> bool:
    """A route whose ``{id}`` names an object the fixture does not make (club players, webhooks)."""
    return "{id}" in route and route.split("/")[2] not in objects


def assert_json_error(response: Any, *codes: int) -> dict[str, Any]:
    assert response.status_code in codes, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body, dict) and body, body
    return body  # type: ignore[no-any-return]


def test_the_schema_lists_the_write_endpoints():
    operations = write_operations()
    assert ("post", "/api/auth/token/") in operations
    assert ("post", "/api/tours/{id}/stages/{number}/results/") in operations
    assert len(operations) >= 14


@pytest.mark.parametrize("role", ["organiser", "anonymous"])
def test_deeply_nested_json_is_a_400_on_every_write_endpoint(clients, objects, role):
    client = clients[role]
    answers = {}
    for method, route in write_operations():
        url = concrete(route, objects)
        response = getattr(client, method)(url, DEEP, content_type="application/json")
        # Anonymous writes may be refused before the body is read (401), and ``simulate/``
        # takes no body at all (202); never a 500.
        codes = (400,) if role == "organiser" else (400, 401)
        if route.endswith("/simulate/"):
            codes += (202,)
        if unfilled(route, objects):
            codes += (404,)  # no such player/webhook: found missing first
        body = assert_json_error(response, *codes)
        answers[(method, route)] = response.status_code
        # A league's simulate/ is refused without reading the body (no simulator, API.md).
        if response.status_code == 400 and route != "/api/leagues/{id}/races/{number}/simulate/":
            assert "nested" in body["detail"], body
    assert answers[("post", "/api/auth/token/")] == 400
    assert answers[("post", "/api/tours/")] in (400, 401)


def test_just_past_the_depth_limit_is_a_400_and_at_the_limit_is_parsed(clients):
    client = clients["organiser"]
    too_deep: Any = 1
    for _ in range(MAX_DEPTH):
        too_deep = [too_deep]
    # The token endpoint reads any object: one level for the body, MAX_DEPTH for the value.
    body = json.dumps({"username": too_deep, "password": "x"})
    response = client.post("/api/auth/token/", body, content_type="application/json")
    assert "nested" in assert_json_error(response, 400)["detail"]
    fits = json.dumps({"username": too_deep[0], "password": "x"})
    response = client.post("/api/auth/token/", fits, content_type="application/json")
    # Parsed, then refused by the serializer as any bad username would be.
    assert "nested" not in json.dumps(assert_json_error(response, 400))


def test_depth_check_counts_levels():
    # object, list, object, list: four levels
    assert not depth_exceeds({"a": [1, {"b": []}]}, 4)
    assert depth_exceeds({"a": [1, {"b": []}]}, 3)
    assert not depth_exceeds("[[[[", 1)
    nested: Any = []
    for _ in range(100_000):  # far past the recursion limit: the check itself does not recurse
        nested = [nested]
    assert depth_exceeds(nested, MAX_DEPTH)


def test_a_10_mb_body_is_a_json_400(clients):
    body = json.dumps({"username": "x" * 10_000_000, "password": "y"})
    response = clients["anonymous"].post("/api/auth/token/", body, content_type="application/json")
    assert "too large" in assert_json_error(response, 400)["detail"]


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_limit_is_a_json_400_on_every_write_endpoint(clients, objects):
    body = json.dumps({"name": "x" * 2000})
    for method, route in write_operations():
        if route.endswith("/simulate/"):
            continue  # reads no body
        url = concrete(route, objects)
        response = getattr(clients["organiser"], method)(url, body, content_type="application/json")
        if unfilled(route, objects):
            assert_json_error(response, 400, 404)  # no such player/webhook: found missing first
            continue
        assert "too large" in assert_json_error(response, 400)["detail"], route


def test_an_unknown_api_url_is_a_json_404(clients):
    for url in ("/api/nope/", "/api/tours/1/nope/", "/api/tours/999999/stages/1/results/x/"):
        body = assert_json_error(clients["anonymous"].get(url), 404)
        assert body == {"detail": "Not found."}
    # Pages keep their HTML 404.
    page = clients["anonymous"].get("/nope/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def _broken_view(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


# The project's URLs plus a view that fails, under /api/ and outside it.
urlpatterns = [
    path("api/broken/", _broken_view),
    path("broken/", _broken_view),
    path("", include("tournament.urls")),
]


@pytest.mark.urls(__name__)
def test_an_uncaught_exception_under_api_is_a_json_500(caplog):
    client = APIClient(raise_request_exception=False)
    response = client.get("/api/broken/")
    assert assert_json_error(response, 500) == {"detail": "A server error occurred."}
    # Still logged with its traceback, as Django does for every server error.
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)
    page = client.get("/broken/")
    assert page.status_code == 500 and not page["Content-Type"].startswith("application/json")
