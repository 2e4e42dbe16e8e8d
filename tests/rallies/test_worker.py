"""A real Celery worker, over Redis, resolves and simulates rally stages (PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.integration.conftest import club_api, wait_for
from tests.rallies.helpers import ids, rally_payload, sheet
from tournament.rallies.models import RallyStage

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def api() -> dict[str, APIClient]:
    return club_api("rally")


def _stage(rally_id: int, number: int) -> RallyStage:
    return RallyStage.objects.get(competition_id=rally_id, number=number)


def test_worker_resolves_simulates_and_fails_a_later_stage_after_a_correction(
    real_worker: dict[str, Any], api: dict[str, APIClient]
):
    rally = (
        api["organiser"]
        .post("/api/rallies/", rally_payload(rules={"super_rally": False}), format="json")
        .json()
    )
    rid = rally["id"]
    url = f"/api/rallies/{rid}"
    answer = api["scorekeeper"].post(
        f"{url}/stages/1/results/", {"results": sheet(rally, 300, "5:10", 320)}, format="json"
    )
    assert answer.status_code == 202
    assert answer.json()["status"] == "submitted"  # not resolved in-process
    wait_for(lambda: _stage(rid, 1).status == "resolved")
    assert api["anonymous"].get(f"{url}/standings/").json()["after_stage"] == 1

    api["scorekeeper"].post(
        f"{url}/stages/2/results/", {"results": sheet(rally, 300, 310, 320)}, format="json"
    )
    wait_for(lambda: _stage(rid, 2).status == "resolved")
    # Stage 3 has a layout: the worker plays it and the result resolves like a sheet.
    assert api["scorekeeper"].post(f"{url}/stages/3/simulate/").status_code == 202
    wait_for(lambda: _stage(rid, 3).status == "resolved", timeout=30)
    assert _stage(rid, 3).source == "simulated"
    assert api["anonymous"].get(f"{url}/stages/3/replay/").status_code == 200

    # A correction that puts Sara out of the rally (RM-46): stage 2, which lists her, fails
    # with the message; stage 3 waits; the standings fall back to stage 1.
    sara = ids(rally)[2]
    api["scorekeeper"].post(
        f"{url}/stages/1/results/",
        {"results": sheet(rally, 300, 310, {"status": "retired"})},
        format="json",
    )
    wait_for(lambda: _stage(rid, 2).status == "failed")
    assert "Sara" in _stage(rid, 2).error
    assert _stage(rid, 3).status == "submitted"
    body = api["anonymous"].get(f"{url}/standings/").json()
    assert body["after_stage"] == 1
    assert body["overall"][-1]["driver"] == sara and body["overall"][-1]["out_after_stage"] == 1
