"""A real Celery worker, over Redis, resolves league races and recomputes after a correction."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.points import Entrant, Race, Scale, compute_standings, parse_finishes
from tests.integration.conftest import club_api, wait_for
from tests.leagues.helpers import payload, rows
from tournament.leagues.models import Race as RaceRow

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def api() -> dict[str, APIClient]:
    return club_api("lg")


def _race(league_id: int, number: int) -> RaceRow:
    return RaceRow.objects.get(competition_id=league_id, number=number)


def test_worker_resolves_and_recomputes(real_worker: dict[str, Any], api: dict[str, APIClient]):
    league = api["organiser"].post("/api/leagues/", payload(drop_worst=1), format="json").json()
    base = f"/api/leagues/{league['id']}"
    first = rows(league, ["Ana", "Rui", "Eva"], dnf=("Eva",), Rui=2)
    answer = api["scorekeeper"].post(f"{base}/races/1/results/", {"results": first}, format="json")
    assert answer.status_code == 202
    assert answer.json()["status"] == "submitted"  # queued, not resolved in-process
    wait_for(lambda: _race(league["id"], 1).status == "resolved")
    second = rows(league, ["Eva", "Ana"])
    api["scorekeeper"].post(f"{base}/races/2/results/", {"results": second}, format="json")
    wait_for(lambda: _race(league["id"], 2).status == "resolved")
    assert api["anonymous"].get(f"{base}/standings/").json()["after_race"] == 2

    # A correction of race 1: the worker resolves it and race 2 after it again.
    corrected = rows(league, ["Eva", "Rui", "Ana"], Ana=1)
    api["scorekeeper"].post(f"{base}/races/1/results/", {"results": corrected}, format="json")
    wait_for(
        lambda: (
            _race(league["id"], 1).version == 2
            and _race(league["id"], 1).status == "resolved"
            and _race(league["id"], 2).status == "resolved"
        )
    )
    body = api["anonymous"].get(f"{base}/standings/").json()
    assert body["after_race"] == 2
    fresh = compute_standings(
        [Entrant(d["id"], d["name"], d["team"]) for d in league["drivers"]],
        [Race(1, parse_finishes(corrected)), Race(2, parse_finishes(second))],
        Scale(tuple(league["points"]), league["points_finishers_only"], league["drop_worst"]),
    ).to_json()
    assert [(d["driver"], d["points"]) for d in body["drivers"]] == [
        (d["driver"], d["points"]) for d in fresh["drivers"]
    ]
    assert body["teams"] == fresh["teams"]
    # The simulator answers 400 without queueing anything for the worker.
    assert api["scorekeeper"].post(f"{base}/races/3/simulate/").status_code == 400
    assert _race(league["id"], 3).version == 0
