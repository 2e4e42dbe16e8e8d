"""Every kind's forecast end to end: tours (time titles, simulator templates kept per course),
rallies and rally championships (re-forecast when one of their rallies changes)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import stage_rows
from tests.forecasts.test_forecasts import check_sums, forecast
from tests.rallies import helpers as rl
from tournament.forecasts.models import Forecast, StageTemplates

pytestmark = pytest.mark.django_db


def test_a_tour_forecast_has_every_title_and_keeps_the_simulator_runs(clients, tour, forecasts):
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    assert response.status_code == 202, response.content
    body = forecast(clients["anonymous"], "tours", tour["id"])
    assert body["status"] == "ready" and body["after_stage"] == 1
    assert set(body["titles"]) == {"yellow", "green", "polka_dot", "team", "tour_points"}
    check_sums(body)
    riders = {r["id"] for team in tour["teams"] for r in team["riders"]}
    assert {e["rider"] for e in body["titles"]["yellow"]} == riders
    assert {e["team"] for e in body["titles"]["tour_points"]} == {t["id"] for t in tour["teams"]}
    # decided by time: open until the last stage, and said so
    assert {e["status"] for e in body["titles"]["yellow"]} == {"open"}
    assert "open until the last stage" in body["titles"]["yellow"][0]["reason"]
    assert {r["rider"] for r in body["positions"]["general"]} == riders
    # stages 1 and 2 have a course (the forecast from the start simulates both): their
    # simulator runs are kept; stage 3 has none and draws from the tour's own stage 1
    assert StageTemplates.objects.count() == 2
    Forecast.objects.all().delete()
    again = forecast(clients["anonymous"], "tours", tour["id"])  # plans it again
    assert again["status"] == "computing"
    assert forecast(clients["anonymous"], "tours", tour["id"])["titles"] == body["titles"]
    assert StageTemplates.objects.count() == 2


def _rally_stage(clients: dict[str, Any], rally: dict[str, Any], number: int, *times: Any) -> None:
    response = rl.submit(clients["scorekeeper"], rally["id"], number, rl.sheet(rally, *times))
    assert response.status_code == 202, response.content


def test_a_rally_and_its_championship(clients, forecasts):
    rally = rl.create_rally(clients["organiser"])
    body = {"club": "velo-lisboa", "name": "Taça", "public": True, "rallies": [rally["id"]]}
    created = clients["organiser"].post("/api/rally-championships/", body, format="json")
    assert created.status_code == 201, created.content
    championship = created.json()["id"]
    _rally_stage(clients, rally, 1, 300, 312, "5:20")
    single = forecast(clients["anonymous"], "rallies", rally["id"])
    assert single["status"] == "ready" and single["after_stage"] == 1
    assert {e["status"] for e in single["titles"]["overall"]} == {"open"}
    check_sums(single)
    champ = forecast(clients["anonymous"], "rally-championships", championship)
    assert champ["status"] == "ready" and champ["after_rally"] is None
    assert {e["name"] for e in champ["titles"]["drivers"]} == {"Ana", "Rui", "Sara"}
    assert all(set(e) >= {"name", "probability", "status"} for e in champ["titles"]["drivers"])
    check_sums(champ)
    _rally_stage(clients, rally, 2, 200, 190, 230)
    _rally_stage(clients, rally, 3, 250, 240, 260)
    # the rally is over: its winner (Rui, 742 s against 750 and 810) clinched, exactly 1
    final = forecast(clients["anonymous"], "rallies", rally["id"])
    top = final["titles"]["overall"][0]
    assert (top["name"], top["probability"], top["status"]) == ("Rui", 1.0, "clinched")
    # and the championship of that one rally is decided the same way
    champ = forecast(clients["anonymous"], "rally-championships", championship)
    assert champ["after_rally"] == 1 and champ["status"] == "ready"
    assert champ["titles"]["drivers"][0]["name"] == "Rui"
    assert champ["titles"]["drivers"][0]["status"] == "clinched"
    bad = clients["anonymous"].get(
        f"/api/rally-championships/{championship}/forecast/?after_rally=2"
    )
    assert bad.status_code == 400
