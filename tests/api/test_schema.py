"""/api/schema/ and /api/docs/: served, and describing the API.md paths that exist."""

from __future__ import annotations

import pytest

# API.md paths served by this service so far, in the schema's spelling of parameters.
PATHS = {
    "/api/auth/token/": {"post"},
    "/api/clubs/": {"get", "post"},
    "/api/clubs/{slug}/": {"get"},
    "/api/clubs/{slug}/members/": {"post"},
    "/api/tours/": {"get", "post"},
    "/api/tours/{id}/": {"get", "patch"},
    "/api/tours/{id}/stages/{number}/": {"get"},
    "/api/tours/{id}/stages/{number}/results/": {"post"},
    "/api/tours/{id}/stages/{number}/simulate/": {"post"},
    "/api/tours/{id}/stages/{number}/replay/": {"get"},
    "/api/tours/{id}/standings/": {"get"},
}


@pytest.fixture
def schema(clients):
    response = clients["anonymous"].get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return response.json()


def test_schema_lists_the_api_paths(schema):
    paths = schema["paths"]
    for path, methods in PATHS.items():
        assert path in paths, sorted(paths)
        assert methods <= set(paths[path]), (path, sorted(paths[path]))
    # No DELETE anywhere (API.md: there is no DELETE).
    assert not [p for p, ops in paths.items() if "delete" in ops]


def test_schema_describes_the_contract_fields(schema):
    components = schema["components"]["schemas"]
    tour = components["Tour"]["properties"]
    assert {
        "id",
        "club",
        "name",
        "public",
        "seed",
        "rules",
        "rest_days_after",
        "specialist_order",
        "stages",
        "teams",
    } <= set(tour)
    results = schema["paths"]["/api/tours/{id}/stages/{number}/results/"]["post"]
    assert "202" in results["responses"]
    standings = schema["paths"]["/api/tours/{id}/standings/"]["get"]
    assert "after_stage" in {p["name"] for p in standings.get("parameters", [])}


def test_docs_page(clients):
    response = clients["anonymous"].get("/api/docs/")
    assert response.status_code == 200
    assert b"/api/schema/" in response.content
