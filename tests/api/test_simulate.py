"""Simulated stages: POST …/simulate/, GET …/replay/ and ``manage.py simulate_tour``."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import riders_of, stage_rows, tour_payload
from tournament.tours.models import Stage, StageResultVersion

pytestmark = pytest.mark.django_db

COURSES = ["abcdefghijklmnopqrstu", "abcfimetKGLHJsdopRQNU", "AebQRNHPcgikDFsLojmtu"]


def _tour(clients: dict[str, Any], **changes: Any) -> dict[str, Any]:
    payload = tour_payload(**changes)
    payload["stages"] = [{"name": f"S{n}", "course": c} for n, c in enumerate(COURSES, start=1)]
    payload["stages"][1]["stacks"] = [
        {"id": "m1", "type": "major", "side": "mountain", "square": 43},
        {"id": "s1", "type": "minor", "side": "sprint", "square": 20},
    ]
    response = clients["organiser"].post("/api/tours/", payload, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _simulate(client: Any, tour: dict[str, Any], number: int) -> Any:
    return client.post(f"/api/tours/{tour['id']}/stages/{number}/simulate/")


def test_simulated_stage_is_stored_and_resolved_like_a_submission(clients):
    tour = _tour(clients)
    response = _simulate(clients["scorekeeper"], tour, 1)
    assert response.status_code == 202, response.content
    assert response.json()["number"] == 1
    stage = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/").json()
    assert (stage["status"], stage["source"], stage["version"]) == ("resolved", "simulated", 1)
    rows = stage["results"]
    assert sorted(r["rider"] for r in rows) == sorted(r["id"] for r in riders_of(tour))
    assert [r["position"] for r in rows] == list(range(1, 7))
    times = [r["time"] for r in rows]
    assert times == sorted(times)  # GT-2.5 holds for the engine's output
    standings = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()
    assert standings["after_stage"] == 1


def test_same_seed_same_result_and_a_new_version(clients):
    tour = _tour(clients)
    _simulate(clients["scorekeeper"], tour, 1)
    first = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/").json()
    _simulate(clients["organiser"], tour, 1)
    again = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/").json()
    assert again["version"] == 2
    assert again["results"] == first["results"]
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    assert StageResultVersion.objects.filter(event=stage).count() == 2


def test_stacks_and_published_start_order_feed_the_simulation(clients):
    tour = _tour(clients)
    _simulate(clients["scorekeeper"], tour, 1)
    published = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()
    assert _simulate(clients["scorekeeper"], tour, 2).status_code == 202
    replay = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/2/replay/").json()
    assert replay["header"]["placement_order"] == published["next_start_order"]
    rows = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/2/").json()["results"]
    # Every rider passes both stacks, so each stack empties (FR-54, default token values).
    assert sum(r["mountain_points"] for r in rows) == 4 + 3 + 2
    assert sum(r["sprint_points"] for r in rows) == 3 + 1
    assert {"header", "riders", "log"} <= set(replay)


def test_dummy_teams_are_simulated_but_not_stored(clients):
    tour = _tour(clients, rules={"dummy_teams": "peloton"})
    assert _simulate(clients["scorekeeper"], tour, 1).status_code == 202
    stage = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/").json()
    assert stage["status"] == "resolved", stage["error"]
    assert [r["position"] for r in stage["results"]] == list(range(1, 7))  # GT-1.5 renumbered
    replay = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/replay/").json()
    assert sum(1 for r in replay["riders"] if r["is_dummy"]) == 2


def test_stage_without_course_is_400(clients, tour):
    _submit_all_but_last(clients, tour)
    response = _simulate(clients["scorekeeper"], tour, 3)  # "Stage three" has no course
    assert response.status_code == 400
    assert "course" in response.json()
    assert Stage.objects.get(competition_id=tour["id"], number=3).version == 0


def test_earlier_stage_not_resolved_is_409(clients):
    tour = _tour(clients)
    assert _simulate(clients["scorekeeper"], tour, 2).status_code == 409
    assert Stage.objects.get(competition_id=tour["id"], number=2).version == 0


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("scorekeeper", 202),
        ("organiser", 202),
        ("superuser", 202),
    ],
)
def test_simulate_roles(clients, role, expected):
    tour = _tour(clients)
    assert _simulate(clients[role], tour, 1).status_code == expected


def test_private_tour_simulate_and_replay_are_404_to_outsiders(clients):
    tour = _tour(clients, public=False)
    _simulate(clients["scorekeeper"], tour, 1)
    for role in ("anonymous", "outsider"):
        assert _simulate(clients[role], tour, 1).status_code == 404
        assert clients[role].get(f"/api/tours/{tour['id']}/stages/1/replay/").status_code == 404
    assert (
        clients["scorekeeper"].get(f"/api/tours/{tour['id']}/stages/1/replay/").status_code == 200
    )


def test_replay_is_404_for_a_submitted_stage(clients, tour):
    clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    assert clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/replay/").status_code == 404
    assert clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/9/replay/").status_code == 404


def test_simulate_tour_command_plays_every_remaining_stage(
    clients, django_capture_on_commit_callbacks
):
    tour = _tour(clients)
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("simulate_tour", tour["id"], "--no-progress", stdout=out, stderr=StringIO())
    assert "Simulated 3 stage(s)" in out.getvalue()
    stages = Stage.objects.filter(competition_id=tour["id"]).order_by("number")
    assert [(s.status, s.source) for s in stages] == [("resolved", "simulated")] * 3


def test_simulate_tour_command_stops_at_a_stage_without_course(clients, tour):
    with pytest.raises(CommandError, match="course"):
        call_command(
            "simulate_tour", tour["id"], "--no-progress", stdout=StringIO(), stderr=StringIO()
        )
    assert Stage.objects.get(competition_id=tour["id"], number=2).status == "resolved"


def _submit_all_but_last(clients: dict[str, Any], tour: dict[str, Any]) -> None:
    for number in (1, 2):
        response = clients["scorekeeper"].post(
            f"/api/tours/{tour['id']}/stages/{number}/results/",
            {"results": stage_rows(tour)},
            format="json",
        )
        assert response.status_code == 202
