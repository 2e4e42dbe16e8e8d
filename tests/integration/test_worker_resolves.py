"""A real Celery worker, over Redis, resolves what the API accepted (PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.grand_tour import compute_standings, standings_to_json
from tests.conftest import stage_rows, tour_payload
from tests.integration.conftest import club_api, wait_for
from tournament.tours.kind import load_setup
from tournament.tours.loading import gt_rules, stage_results
from tournament.tours.models import Stage, StageStandings, Tour

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def api() -> dict[str, APIClient]:
    return club_api("int")


def _status(tour_id: int, number: int) -> str:
    return Stage.objects.get(competition_id=tour_id, number=number).status


def test_worker_resolves_submitted_stages(real_worker: dict[str, Any], api: dict[str, APIClient]):
    tour = api["organiser"].post("/api/tours/", tour_payload(), format="json").json()
    url = f"/api/tours/{tour['id']}"
    answer = api["scorekeeper"].post(
        f"{url}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    assert answer.status_code == 202
    assert answer.json()["status"] == "submitted"  # not resolved in-process
    wait_for(lambda: _status(tour["id"], 1) == "resolved")
    standings = api["anonymous"].get(f"{url}/standings/").json()
    assert standings["after_stage"] == 1

    # A second stage and then a correction of the first: the worker recomputes both.
    api["scorekeeper"].post(
        f"{url}/stages/2/results/",
        {"results": stage_rows(tour, order=[5, 4, 3, 2, 1, 0])},
        format="json",
    )
    wait_for(lambda: _status(tour["id"], 2) == "resolved")
    api["scorekeeper"].post(
        f"{url}/stages/1/results/",
        {"results": stage_rows(tour, order=[2, 3, 4, 5, 0, 1])},
        format="json",
    )
    wait_for(
        lambda: (
            Stage.objects.filter(
                competition_id=tour["id"], status="resolved", version__gte=1
            ).count()
            == 2
            and Stage.objects.get(competition_id=tour["id"], number=1).version == 2
            and _status(tour["id"], 1) == "resolved"
        )
    )
    db_tour = Tour.objects.get(pk=tour["id"])
    stages = list(Stage.objects.filter(competition=db_tour, version__gt=0).order_by("number"))
    fresh = compute_standings(
        load_setup(db_tour),
        [stage_results(s.number, s.results) for s in stages],
        gt_rules(db_tour.rules),
    )
    stored = list(
        StageStandings.objects.filter(competition=db_tour)
        .order_by("number")
        .values_list("data", flat=True)
    )
    assert stored == [standings_to_json(s) for s in fresh]
    assert "succeeded" in real_worker["log"].read_text()


def test_worker_simulates_then_resolves(real_worker: dict[str, Any], api: dict[str, APIClient]):
    payload = tour_payload()
    payload["stages"] = [{"name": "Corso", "course": "abcdefghijklmnopqrstu"}]
    payload["rest_days_after"] = []
    tour = api["organiser"].post("/api/tours/", payload, format="json").json()
    url = f"/api/tours/{tour['id']}"
    assert api["scorekeeper"].post(f"{url}/stages/1/simulate/").status_code == 202
    wait_for(lambda: _status(tour["id"], 1) == "resolved")
    stage = api["anonymous"].get(f"{url}/stages/1/").json()
    assert (stage["source"], stage["version"]) == ("simulated", 1)
    assert api["anonymous"].get(f"{url}/stages/1/replay/").status_code == 200
    standings = api["anonymous"].get(f"{url}/standings/").json()
    assert standings["after_stage"] == 1 and standings["next_start_order"] is None
