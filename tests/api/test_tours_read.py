"""GET /api/tours/ and every tour URL: who sees what; private tours are 404 to strangers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.helpers import create, payload, rows_in_order, submit
from tests.conftest import Client
from tournament.tours.models import Stage, StageResultVersion, Tour


@pytest.fixture
def private(clients: dict[str, Client]) -> dict[str, Any]:
    return create(clients["organiser"], payload(name="Secret Tour", public=False))


@pytest.fixture
def tours(clients: dict[str, Client], private: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """velo-lisboa: one public, one private tour; porto: one private tour."""
    public = create(clients["organiser"], payload(name="Open Tour"))
    porto = create(clients["outsider"], payload(club="porto", name="Porto Secret", public=False))
    return {"public": public, "private": private, "porto": porto}


@pytest.mark.parametrize(
    ("role", "visible"),
    [
        ("anonymous", {"public"}),
        ("outsider", {"public", "porto"}),
        ("organiser", {"public", "private"}),
        ("scorekeeper", {"public", "private"}),
        ("superuser", {"public", "private", "porto"}),
    ],
)
def test_list_shows_what_the_caller_may_see(clients, tours, role, visible):
    response = clients[role].get("/api/tours/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    expected = {tours[key]["id"] for key in visible}
    assert {t["id"] for t in body["results"]} == expected
    assert body["count"] == len(expected)


def test_list_is_paginated_by_50(clients):
    data = payload(stages=1, team_count=2)
    for n in range(52):
        data["name"] = f"Tour {n}"
        create(clients["organiser"], data)
    first = clients["anonymous"].get("/api/tours/").json()
    assert first["count"] == 52 and len(first["results"]) == 50
    assert first["previous"] is None and first["next"]
    second = clients["anonymous"].get(first["next"]).json()
    assert len(second["results"]) == 2 and second["next"] is None and second["previous"]
    ids = [t["id"] for t in first["results"] + second["results"]]
    assert sorted(ids) == sorted(Tour.objects.values_list("pk", flat=True))


def test_list_queries_do_not_grow_with_the_tours(clients):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert clients["anonymous"].get("/api/tours/").status_code == 200
        return len(ctx.captured_queries)

    create(clients["organiser"], payload(stages=1, team_count=2))
    one = count()
    for _ in range(4):
        create(clients["organiser"], payload(stages=5, team_count=4))
    assert count() == one


def tour_urls(tour_id: int) -> list[tuple[str, str, dict[str, Any] | None]]:
    base = f"/api/tours/{tour_id}"
    return [
        ("get", f"{base}/", None),
        ("get", f"{base}/stages/1/", None),
        ("get", f"{base}/standings/", None),
        ("get", f"{base}/standings/?after_stage=1", None),
        ("patch", f"{base}/", {"name": "Renamed"}),
        ("patch", f"{base}/", {"public": True}),
        ("post", f"{base}/stages/1/results/", {"results": []}),
        ("post", f"{base}/stages/2/results/", {"results": []}),
        ("get", f"{base}/stages/99/", None),
        ("get", f"{base}/stages/1/replay/", None),
        ("post", f"{base}/stages/1/simulate/", {}),
    ]


@pytest.mark.parametrize("role", ["anonymous", "outsider"])
def test_private_tour_is_a_404_on_every_url_and_method(clients, private, role):
    for method, url, body in tour_urls(private["id"]):
        response = getattr(clients[role], method)(url, body, format="json")
        assert response.status_code == 404, (method, url, response.status_code)
        assert response.json() == {"detail": "Not found."}
    tour = Tour.objects.get(pk=private["id"])
    assert (tour.name, tour.public) == ("Secret Tour", False)


@pytest.mark.parametrize("role", ["organiser", "scorekeeper", "superuser"])
def test_private_tour_is_visible_to_members_and_superuser(clients, private, role):
    url = f"/api/tours/{private['id']}"
    detail = clients[role].get(f"{url}/")
    assert detail.status_code == 200
    assert detail.json()["public"] is False
    assert clients[role].get(f"{url}/stages/1/").status_code == 200
    assert clients[role].get(f"{url}/standings/").status_code == 200
    response = submit(clients[role], private["id"], 1, rows_in_order(private))
    assert response.status_code == 202, response.content


@pytest.mark.parametrize("role", ["anonymous", "outsider", "scorekeeper", "organiser"])
def test_public_tour_is_readable_by_everyone(clients, tour, role):
    url = f"/api/tours/{tour['id']}"
    assert clients[role].get(f"{url}/").json() == tour
    stage = clients[role].get(f"{url}/stages/1/").json()
    assert stage["status"] == "planned" and stage["version"] == 0 and stage["results"] == []
    assert clients[role].get(f"{url}/standings/").status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/api/tours/999999/",
        "/api/tours/abc/",
        "/api/tours/999999/standings/",
        "/api/tours/999999/stages/1/",
        "/api/tours/99999999999999999999999/",
    ],
)
def test_unknown_tour_is_a_404(clients, url):
    assert clients["organiser"].get(url).status_code == 404


@pytest.mark.parametrize("number", ["0", "4", "99999", "abc"])
def test_unknown_stage_is_a_404(clients, tour, number):
    response = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/{number}/")
    assert response.status_code == 404


def test_stage_detail_shape(clients, tour):
    stage = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/2/").json()
    required = {
        "number",
        "name",
        "course",
        "finish",
        "stacks",
        "status",
        "source",
        "error",
        "version",
        "results",
    }
    assert required <= set(stage)
    assert (stage["number"], stage["name"], stage["finish"]) == (2, "La Haute Montagne", "ascent")
    assert stage["stacks"] == [{"id": "m1", "type": "major", "side": "mountain", "square": 43}]


def test_delete_is_not_allowed(clients, tour):
    response = clients["organiser"].delete(f"/api/tours/{tour['id']}/")
    assert response.status_code == 405
    assert Tour.objects.filter(pk=tour["id"]).exists()
    assert Stage.objects.filter(competition_id=tour["id"]).count() == 3
    assert not StageResultVersion.objects.exists()
