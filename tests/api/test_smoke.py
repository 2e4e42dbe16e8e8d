"""A first pass through the whole tour workflow (details in the other API tests)."""

from __future__ import annotations

from tests.conftest import stage_rows


def test_submit_resolve_and_read_standings(clients, tour):
    url = f"/api/tours/{tour['id']}"
    response = clients["scorekeeper"].post(
        f"{url}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    assert response.status_code == 202, response.content
    assert response.json()["version"] == 1
    stage = clients["anonymous"].get(f"{url}/stages/1/").json()
    assert stage["status"] == "resolved"
    standings = clients["anonymous"].get(f"{url}/standings/").json()
    assert standings["after_stage"] == 1
    assert [row["rank"] for row in standings["general"]] == [1, 2, 3, 4, 5, 6]
