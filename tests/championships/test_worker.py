"""A real Celery worker, over Redis, resolves and simulates championship races (PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.formula_d import (
    ChampionshipDriver,
    RaceResult,
    build_formula_d_rules,
    compute_standings,
    parse_race_results,
)
from tests.championships.helpers import payload, race_rows
from tests.integration.conftest import club_api, wait_for
from tournament.championships.models import Race

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def api() -> dict[str, APIClient]:
    return club_api("fd")


def _race(champ_id: int, number: int) -> Race:
    return Race.objects.get(competition_id=champ_id, number=number)


def test_worker_resolves_simulates_and_recomputes(
    real_worker: dict[str, Any], api: dict[str, APIClient]
) -> None:
    champ = api["organiser"].post("/api/championships/", payload(), format="json").json()
    base = f"/api/championships/{champ['id']}"
    answer = api["scorekeeper"].post(
        f"{base}/races/1/results/",
        {"results": race_rows(champ, 1, ["Ana", "Rui", "Eva"])},
        format="json",
    )
    assert answer.status_code == 202
    assert answer.json()["status"] == "submitted"  # queued, not resolved in-process
    wait_for(lambda: _race(champ["id"], 1).status == "resolved")

    # The worker plays race 2 and resolves it.
    assert api["scorekeeper"].post(f"{base}/races/2/simulate/").status_code == 202
    wait_for(lambda: _race(champ["id"], 2).status == "resolved", timeout=30)
    race2 = api["anonymous"].get(f"{base}/races/2/").json()
    assert race2["source"] == "simulated" and len(race2["results"]) == 2
    assert api["anonymous"].get(f"{base}/races/2/replay/").status_code == 200

    # A correction of race 1: the worker recomputes race 1 and the simulated race 2 after it.
    corrected = race_rows(champ, 1, ["Eva", "Ana", "Rui"], out=("Rui",))
    api["scorekeeper"].post(f"{base}/races/1/results/", {"results": corrected}, format="json")
    wait_for(
        lambda: (
            _race(champ["id"], 1).version == 2
            and _race(champ["id"], 1).status == "resolved"
            and _race(champ["id"], 2).status == "resolved"
        )
    )
    body = api["anonymous"].get(f"{base}/standings/").json()
    assert body["after_race"] == 2
    rules, _errors = build_formula_d_rules(champ["rules"], champ["rule_set"])
    fresh = compute_standings(
        [ChampionshipDriver(d["id"], d["name"], d["team"]) for d in champ["drivers"]],
        [
            RaceResult(1, parse_race_results(corrected)),
            RaceResult(2, parse_race_results(race2["results"])),
        ],
        points=champ["points"],
        rules=rules,
    ).to_json()
    assert [(d["driver"], d["points"]) for d in body["drivers"]] == [
        (d["driver"], d["points"]) for d in fresh["drivers"]
    ]
    assert body["teams"] == fresh["teams"]
