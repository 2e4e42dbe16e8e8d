"""The audit log (``history/``) and ``Idempotency-Key`` on result submissions."""

from __future__ import annotations

import pytest

from tests.conftest import stage_rows
from tournament.competitions.models import AuditEntry, IdempotencyKey
from tournament.tours.models import Stage, StageResultVersion

pytestmark = pytest.mark.django_db


def test_history_records_every_write_for_organisers(clients, tour):
    url = f"/api/tours/{tour['id']}"
    clients["scorekeeper"].post(
        f"{url}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    corrected = stage_rows(tour, order=[1, 0, 2, 3, 4, 5])
    clients["scorekeeper"].post(f"{url}/stages/1/results/", {"results": corrected}, format="json")
    clients["organiser"].patch(f"{url}/", {"name": "Volta 2026"}, format="json")
    response = clients["organiser"].get(f"{url}/history/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 4
    actions = [e["action"] for e in body["results"]]
    assert actions == ["setup_changed", "results_corrected", "results_submitted", "created"]
    correction = body["results"][1]
    assert correction["user"] == "scorekeeper" and correction["event"] == 1
    # Positions 1 and 2 swapped: two riders changed, and only their positions.
    assert sorted(c["position"] for c in correction["changes"]["changed"]) == [[1, 2], [2, 1]]
    assert body["results"][0]["changes"]["name"] == ["Tour de Lisboa 2026", "Volta 2026"]


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("scorekeeper", 403),
        ("organiser", 200),
        ("superuser", 200),
    ],
)
def test_history_roles(clients, tour, role, expected):
    assert clients[role].get(f"/api/tours/{tour['id']}/history/").status_code == expected


def test_history_of_a_private_tour_is_404_to_outsiders(clients):
    from tests.conftest import tour_payload

    tour = (
        clients["organiser"].post("/api/tours/", tour_payload(public=False), format="json").json()
    )
    assert clients["outsider"].get(f"/api/tours/{tour['id']}/history/").status_code == 404
    assert clients["anonymous"].get(f"/api/tours/{tour['id']}/history/").status_code == 404


def test_member_added_is_audited(clients, users):
    clients["organiser"].post(
        "/api/clubs/velo-lisboa/members/",
        {"username": "bystander", "role": "scorekeeper"},
        format="json",
    )
    entry = AuditEntry.objects.get(action="member_added", club__slug="velo-lisboa")
    assert entry.changes == {"username": "bystander", "role": "scorekeeper"}


def test_repeated_key_returns_the_first_answer_and_stores_nothing(clients, tour):
    url = f"/api/tours/{tour['id']}/stages/1/results/"
    body = {"results": stage_rows(tour)}
    first = clients["scorekeeper"].post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = clients["scorekeeper"].post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 202
    assert again.json() == first.json()
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    assert stage.version == 1
    assert StageResultVersion.objects.filter(event=stage).count() == 1
    # Another key is another submission.
    third = clients["scorekeeper"].post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert third.json()["version"] == 2


def test_same_key_with_another_body_is_409(clients, tour):
    url = f"/api/tours/{tour['id']}/stages/1/results/"
    clients["scorekeeper"].post(
        url, {"results": stage_rows(tour)}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    other = {"results": stage_rows(tour, order=[1, 0, 2, 3, 4, 5])}
    response = clients["scorekeeper"].post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 409
    assert Stage.objects.get(competition_id=tour["id"], number=1).version == 1


def test_keys_are_scoped_to_user_and_a_rejected_request_is_not_remembered(clients, tour):
    url = f"/api/tours/{tour['id']}/stages/1/results/"
    bad = stage_rows(tour)
    bad[0]["seconds"] = 7
    rejected = clients["scorekeeper"].post(
        url, {"results": bad}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert rejected.status_code == 400
    assert not IdempotencyKey.objects.exists()
    ok = clients["scorekeeper"].post(
        url, {"results": stage_rows(tour)}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert ok.status_code == 202
    by_organiser = clients["organiser"].post(
        url, {"results": stage_rows(tour)}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert by_organiser.json()["version"] == 2
