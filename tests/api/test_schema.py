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
    # No DELETE anywhere but a club's webhook (API.md "Webhooks": DELETE …/webhooks/{id}/).
    webhook = "/api/clubs/{slug}/webhooks/{id}/"
    assert not [p for p, ops in paths.items() if "delete" in ops and p != webhook]


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


def _operations(schema):
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            yield path, method, op


def test_every_operation_lists_every_answer(schema):
    """Issue #13 item 11: the errors come from shared machinery, so every operation has them."""
    for path, method, op in _operations(schema):
        codes = set(op["responses"])
        assert "401" in codes, (method, path)
        if "requestBody" in op:
            assert {"400", "415"} <= codes, (method, path, codes)
        if "{" in path:
            assert "404" in codes, (method, path, codes)
        for code, answer in op["responses"].items():
            if code.startswith(("4", "5")):
                assert answer["description"], (method, path, code)
                assert "application/json" in answer["content"], (method, path, code)
    results = schema["paths"]["/api/tours/{id}/stages/{number}/results/"]["post"]["responses"]
    assert set(results) == {"202", "400", "401", "403", "404", "409", "415"}
    token = schema["paths"]["/api/auth/token/"]["post"]["responses"]
    assert "429" in token
    export = schema["paths"]["/api/tours/{id}/export/"]["get"]["responses"]
    assert "403" in export  # organisers only, though a GET


def test_bodies_are_json_only(schema):
    for path, method, op in _operations(schema):
        if "requestBody" in op:
            assert list(op["requestBody"]["content"]) == ["application/json"], (method, path)


def test_descriptions_are_written_for_api_users(schema):
    """No docstring reaches the schema: they speak of classes, API.md and reST markup."""
    texts = [op.get("description", "") for _p, _m, op in _operations(schema)]
    texts += [c.get("description", "") for c in schema["components"]["schemas"].values()]
    for text in texts:
        assert "``" not in text and "API.md" not in text and ":class:" not in text, text
    for path, method, op in _operations(schema):
        assert op.get("summary"), (method, path)


def test_numbers_in_the_url_and_query_are_bounded(schema):
    standings = schema["paths"]["/api/tours/{id}/standings/"]["get"]
    params = {p["name"]: p for p in standings["parameters"]}
    assert params["after_stage"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 9999}
    assert params["number" if "number" in params else "id"]["schema"]["minimum"] == 1
    listing = {p["name"]: p for p in schema["paths"]["/api/tours/"]["get"]["parameters"]}
    assert listing["page"]["schema"]["minimum"] == 1
    event = schema["paths"]["/api/tours/{id}/stages/{number}/"]["get"]
    number = next(p for p in event["parameters"] if p["name"] == "number")
    assert number["schema"] == {"type": "integer", "minimum": 1, "maximum": 9999}


def test_request_bodies_that_refuse_unknown_keys_say_so(schema):
    components = schema["components"]["schemas"]
    assert components["TourCreateRequest"]["additionalProperties"] is False
    assert components["PatchedTourPatchRequest"]["additionalProperties"] is False
    assert components["ImportRequest"]["properties"]["document"]["type"] == "object"
    assert components["StageResultsInputRequest"]["properties"]["results"]["minItems"] == 1


@pytest.mark.parametrize("page", ["abc", "0", "-1", "٣", "", "1.5"])
def test_a_page_that_is_not_a_positive_number_is_a_400(clients, page):
    response = clients["anonymous"].get("/api/tours/", {"page": page})
    assert response.status_code == 400, response.content
    assert "page" in response.json()


def test_a_page_past_the_last_is_a_404(clients):
    assert clients["anonymous"].get("/api/tours/", {"page": "1"}).status_code == 200
    assert clients["anonymous"].get("/api/tours/", {"page": "7"}).status_code == 404


def test_an_empty_after_parameter_is_a_400(clients):
    from tests.conftest import tour_payload

    tour = clients["organiser"].post("/api/tours/", tour_payload(), format="json").json()
    response = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/?after_stage=")
    assert response.status_code == 400
    assert "after_stage" in response.json()


@pytest.mark.parametrize("body_format", ["multipart", None])
def test_a_body_that_is_not_json_is_a_415(clients, body_format):
    from tests.conftest import tour_payload

    payload = {"club": "velo-lisboa", "name": "Form tour"}
    if body_format is None:
        response = clients["organiser"].generic(
            "POST", "/api/tours/", "club=velo-lisboa", "application/x-www-form-urlencoded"
        )
    else:
        response = clients["organiser"].post("/api/tours/", payload, format=body_format)
    assert response.status_code == 415, response.content
    assert "detail" in response.json()
    assert (
        clients["organiser"].post("/api/tours/", tour_payload(), format="json").status_code == 201
    )


@pytest.mark.parametrize(
    "change", [{"name": 0}, {"public": 0}, {"public": "yes"}, {"club": 0}, {"name": ["x"]}]
)
def test_json_types_are_the_documented_ones(clients, change):
    """A number is not a string, 0 is not false (DRF coerced both; the schema says no)."""
    from tests.conftest import tour_payload

    response = clients["organiser"].post("/api/tours/", tour_payload(**change), format="json")
    assert response.status_code == 400, response.content
    assert set(change) <= set(response.json())
