"""An organiser runs a tour from the admin, seeing only the clubs they organise."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.conftest import PASSWORD, riders_of, stage_rows
from tournament.tours.models import Stage

pytestmark = pytest.mark.django_db


def _login(users: dict[str, Any], name: str) -> Client:
    user = users[name]
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_organiser_sees_only_own_clubs_tours(users, tour, clients):
    other = clients["outsider"].post("/api/tours/", {**_other_tour(tour)}, format="json")
    assert other.status_code == 201, other.content
    client = _login(users, "organiser")
    page = client.get("/admin/tours/tour/")
    assert page.status_code == 200
    assert tour["name"] in page.content.decode()
    assert "Porto Tour" not in page.content.decode()
    assert client.get(f"/admin/tours/tour/{other.json()['id']}/change/").status_code in (302, 404)
    assert client.get(f"/admin/tours/tour/{tour['id']}/change/").status_code == 200


def test_scorekeeper_without_staff_cannot_use_admin(users):
    client = Client()
    assert client.login(username="scorekeeper", password=PASSWORD)
    assert client.get("/admin/tours/tour/").status_code == 302  # to the admin login


def test_results_entered_in_admin_resolve_the_stage(
    users, tour, django_capture_on_commit_callbacks
):
    client = _login(users, "organiser")
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    url = f"/admin/tours/stage/{stage.pk}/results/"
    assert client.get(url).status_code == 200
    rows = stage_rows(tour)
    data = _formset(rows)
    data["form-0-seconds"] = "7"  # not on the Timing tile: the service's GT-11.3 message
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Timing tile" in response.content.decode() or "timing" in response.content.decode()
    stage.refresh_from_db()
    assert stage.version == 0
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, _formset(rows))
    assert response.status_code == 302
    stage.refresh_from_db()
    assert (stage.version, stage.status) == (1, "resolved")
    assert len(riders_of(tour)) == len(stage.results)


def test_resolve_again_action_requeues_failed_stage(
    users, tour, clients, django_capture_on_commit_callbacks
):
    clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    Stage.objects.filter(pk=stage.pk).update(status="failed", error="database unavailable")
    client = _login(users, "organiser")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/tours/stage/", {"action": "resolve_again", "_selected_action": [stage.pk]}
        )
    assert response.status_code == 302
    stage.refresh_from_db()
    assert (stage.status, stage.error) == ("resolved", "")


def _formset(rows: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": str(len(rows)),
        "form-INITIAL_FORMS": str(len(rows)),
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{i}-{key}"] = "" if value is None else str(value)
    return data


def _other_tour(tour: dict[str, Any]) -> dict[str, Any]:
    from tests.conftest import tour_payload

    return tour_payload(club="porto", name="Porto Tour")
