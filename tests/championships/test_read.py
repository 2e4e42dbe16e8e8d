"""Lists, details and visibility: a private championship is a 404 to outsiders for every method."""

from __future__ import annotations

import pytest

from tests.championships.helpers import create, race_rows, submit

pytestmark = pytest.mark.django_db


def test_list_shows_what_the_caller_may_see(clients):
    public = create(clients["organiser"], name="Open Cup")
    private = create(clients["organiser"], name="Club Cup", public=False)
    for role in ("organiser", "scorekeeper", "superuser"):
        body = clients[role].get("/api/championships/").json()
        assert body["count"] == 2 and {c["id"] for c in body["results"]} == {
            public["id"],
            private["id"],
        }
    for role in ("outsider", "anonymous"):
        body = clients[role].get("/api/championships/").json()
        assert [c["id"] for c in body["results"]] == [public["id"]]
        assert set(body) == {"count", "next", "previous", "results"}


def _requests(champ_id: int) -> list[tuple[str, str, dict]]:
    base = f"/api/championships/{champ_id}"
    return [
        ("get", f"{base}/", {}),
        ("patch", f"{base}/", {"name": "x"}),
        ("get", f"{base}/races/1/", {}),
        ("post", f"{base}/races/1/results/", {"results": []}),
        ("post", f"{base}/races/2/simulate/", {}),
        ("get", f"{base}/races/1/replay/", {}),
        ("get", f"{base}/standings/", {}),
        ("get", f"{base}/standings/?after_race=1", {}),
        ("get", f"{base}/history/", {}),
    ]


@pytest.mark.parametrize("role", ["outsider", "anonymous"])
def test_a_private_championship_is_a_404_to_every_method(clients, role):
    champ = create(clients["organiser"], public=False)
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    for method, url, body in _requests(champ["id"]):
        response = getattr(clients[role], method)(url, body, format="json")
        assert response.status_code == 404, (method, url, response.status_code)
    # Members read it.
    assert clients["scorekeeper"].get(f"/api/championships/{champ['id']}/").status_code == 200
    assert (
        clients["scorekeeper"]
        .get(f"/api/championships/{champ['id']}/standings/")
        .json()["after_race"]
        == 1
    )


def test_public_reads_need_no_authentication(clients):
    champ = create(clients["organiser"])
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    anonymous = clients["anonymous"]
    base = f"/api/championships/{champ['id']}"
    assert anonymous.get(f"{base}/").status_code == 200
    race = anonymous.get(f"{base}/races/1/").json()
    assert set(race) >= {
        "number",
        "circuit",
        "laps",
        "drivers",
        "status",
        "source",
        "error",
        "version",
        "results",
    }
    assert race["status"] == "resolved"
    planned = anonymous.get(f"{base}/races/2/").json()
    assert (planned["status"], planned["version"], planned["results"], planned["source"]) == (
        "planned",
        0,
        [],
        "",
    )
    # A submitted (not simulated) race has no replay.
    assert anonymous.get(f"{base}/races/1/replay/").status_code == 404
    assert anonymous.get(f"{base}/races/9/").status_code == 404
    assert anonymous.get("/api/championships/999999/").status_code == 404
    assert anonymous.get("/api/championships/abc/").status_code == 404


def test_the_schema_describes_the_championship_endpoints(clients):
    schema = clients["anonymous"].get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path in (
        "/api/championships/",
        "/api/championships/{id}/",
        "/api/championships/{id}/races/{number}/",
        "/api/championships/{id}/races/{number}/results/",
        "/api/championships/{id}/races/{number}/simulate/",
        "/api/championships/{id}/races/{number}/replay/",
        "/api/championships/{id}/standings/",
        "/api/championships/{id}/history/",
    ):
        assert path in paths, path
