"""Forecasts through the service: stored after each resolution, keyed by the standings version,
chunked runs equal to the single run, API shapes, visibility and 400s (API.md "Forecasts")."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.forecast import simulate
from tests.championships import helpers as fd
from tests.leagues import helpers as lg
from tournament.forecasts import service
from tournament.forecasts.loaders import load
from tournament.forecasts.models import Forecast
from tournament.forecasts.signals import forecast_ready

pytestmark = pytest.mark.django_db


def league(clients: dict[str, Any], **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "points": [10, 2, 1],
        "bonus_points": False,
        "drivers": [
            {"name": "Ana", "team": "Red"},
            {"name": "Rui", "team": "Red"},
            {"name": "Eva"},
        ],
        "races": [{"name": "USA"}, {"name": "Italy"}, {"name": "France"}],
    }
    return lg.create(clients["organiser"], **{**base, **changes})


def race(clients: dict[str, Any], detail: dict[str, Any], number: int, order: list[str]) -> None:
    response = lg.submit(clients["scorekeeper"], detail, number, lg.rows(detail, order))
    assert response.status_code == 202, response.content


def forecast(client: Any, collection: str, pk: int, query: str = "") -> dict[str, Any]:
    response = client.get(f"/api/{collection}/{pk}/forecast/{query}")
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


def check_sums(body: dict[str, Any]) -> None:
    for title, entries in body["titles"].items():
        assert sum(e["probability"] for e in entries) == pytest.approx(1.0, abs=1e-5), title
        probabilities = [e["probability"] for e in entries]
        assert probabilities == sorted(probabilities, reverse=True)
    for rows in body["positions"].values():
        for row in rows:
            assert sum(row["distribution"]) == pytest.approx(1.0, abs=1e-5)
            assert len(row["distribution"]) == len(rows)


def test_a_league_forecast_after_each_race_with_a_clinched_title(clients, forecasts):
    detail = league(clients)
    ready: list[dict[str, Any]] = []
    forecast_ready.connect(lambda sender, **kw: ready.append(kw), weak=False, dispatch_uid="t")
    try:
        race(clients, detail, 1, ["Ana", "Rui", "Eva"])
        body = forecast(clients["anonymous"], "leagues", detail["id"])
        assert body["status"] == "ready" and body["after_race"] == 1
        assert (body["simulations"], body["seed"]) == (300, detail.get("seed", body["seed"]))
        assert set(body["titles"]) == {"drivers", "teams"}
        check_sums(body)
        race(clients, detail, 2, ["Ana", "Eva", "Rui"])
        body = forecast(clients["anonymous"], "leagues", detail["id"])
    finally:
        forecast_ready.disconnect(dispatch_uid="t")
    ana = lg.ids(detail)["Ana"]
    top = body["titles"]["drivers"][0]
    # Ana 20 points, the others at most 2 + 2 and one race of 10 left: clinched, exactly 1.
    assert (top["driver"], top["probability"], top["status"]) == (ana, 1.0, "clinched")
    assert "Ana has clinched the title" in top["reason"]
    assert {e["status"] for e in body["titles"]["drivers"][1:]} == {"eliminated"}
    assert all(e["probability"] == 0 for e in body["titles"]["drivers"][1:])
    assert body["titles"]["teams"][0] == {
        **body["titles"]["teams"][0],
        "team": "Red",
        "status": "clinched",
    }
    assert body["positions"]["drivers"][0]["driver"] == ana
    # one forecast per race kept: the one after race 1 (and from the start) still answers
    earlier = forecast(clients["anonymous"], "leagues", detail["id"], "?after_race=1")
    assert earlier["after_race"] == 1 and earlier["status"] == "ready"
    start = forecast(clients["anonymous"], "leagues", detail["id"], "?after_race=0")
    assert start["after_race"] is None and start["status"] == "ready"
    assert {(r["kind"], r["after"]) for r in ready} >= {("league", 1), ("league", 2)}


def test_reruns_are_identical_and_a_correction_supersedes(clients, forecasts):
    detail = league(clients)
    race(clients, detail, 1, ["Ana", "Rui", "Eva"])
    race(clients, detail, 2, ["Rui", "Ana", "Eva"])
    row = Forecast.objects.get(kind="league", competition_id=detail["id"], after=2)
    first = row.titles
    Forecast.objects.filter(pk=row.pk).update(status="computing", titles={})
    assert service.compute("league", detail["id"], 2, row.version) == "done"
    assert Forecast.objects.get(pk=row.pk).titles == first  # same seed, same odds
    # a correction of race 1: a newer version; the old version's task stores nothing
    race(clients, detail, 1, ["Eva", "Rui", "Ana"])
    newer = Forecast.objects.get(kind="league", competition_id=detail["id"], after=2)
    assert newer.version > row.version and newer.status == "ready"
    assert newer.titles != first
    assert service.compute("league", detail["id"], 2, row.version) == "superseded"
    assert Forecast.objects.get(kind="league", competition_id=detail["id"], after=2) == newer
    assert Forecast.objects.get(pk=newer.pk).titles == newer.titles


def test_equal_entrants_with_no_results_have_equal_odds(clients, forecasts):
    drivers = [{"name": n} for n in ("Ana", "Rui", "Eva", "Gil")]
    detail = league(clients, drivers=drivers, points=[10, 6, 4, 3])
    # the first read plans it (and answers computing); the task runs once the request is over
    assert forecast(clients["anonymous"], "leagues", detail["id"])["status"] == "computing"
    body = forecast(clients["anonymous"], "leagues", detail["id"])
    assert body["status"] == "ready" and body["after_race"] is None
    odds = [e["probability"] for e in body["titles"]["drivers"]]
    # 300 simulations: sd of each share ~0.025; equal within sampling error
    assert all(abs(p - 0.25) < 0.1 for p in odds), odds
    assert {e["status"] for e in body["titles"]["drivers"]} == {"open"}


def test_chunks_merge_to_the_single_run(clients, forecasts):
    detail = fd.create(clients["organiser"])
    rows = fd.race_rows(detail, 1, ["Eva", "Ana", "Rui"], out=("Rui",))
    assert fd.submit(clients["scorekeeper"], detail, 1, rows).status_code == 202
    single = forecast(clients["anonymous"], "championships", detail["id"])
    assert single["status"] == "ready"
    forecasts.PODIUM_FORECAST_CHUNK = 70  # 5 chunk tasks, the last one merges
    row = Forecast.objects.get(kind="championship", competition_id=detail["id"], after=1)
    before = row.titles
    Forecast.objects.filter(pk=row.pk).update(status="computing", titles={})
    assert service.compute("championship", detail["id"], 1, row.version) == "queued"
    chunked = Forecast.objects.get(pk=row.pk)
    assert (chunked.status, chunked.chunks, chunked.parts.count()) == ("ready", 5, 0)
    assert chunked.titles == before
    again = forecast(clients["anonymous"], "championships", detail["id"])
    assert {**again, "computed_at": None} == {**single, "computed_at": None}
    # and both equal the engine's own single run
    problem = load("championship", detail["id"], 1)
    engine = simulate(
        problem.spec, problem.scorer, seed=problem.seed, simulations=300, statuses=problem.statuses
    )
    odds = {e["driver"]: e["probability"] for e in single["titles"]["drivers"]}
    ranked = engine.titles["drivers"].ranked()
    assert {d: round(p, 6) for d, p, _ in ranked} == odds


@pytest.mark.parametrize(
    "query", ["?after_race=-1", "?after_race=2", "?after_race=x", "?after_race="]
)
def test_after_outside_the_standings_is_a_400(clients, forecasts, query):
    detail = league(clients)
    race(clients, detail, 1, ["Ana", "Rui", "Eva"])
    response = clients["anonymous"].get(f"/api/leagues/{detail['id']}/forecast/{query}")
    assert response.status_code == 400, response.content
    assert "after_race" in response.json()


def test_private_forecasts_are_hidden(clients, forecasts):
    detail = league(clients, public=False)
    for role in ("anonymous", "outsider"):
        response = clients[role].get(f"/api/leagues/{detail['id']}/forecast/?after_race=99")
        assert response.status_code == 404, role
        assert clients[role].post(f"/api/leagues/{detail['id']}/forecast/").status_code == 404
    assert clients["scorekeeper"].get(f"/api/leagues/{detail['id']}/forecast/").status_code == 200
    assert clients["anonymous"].get("/api/leagues/999999/forecast/").status_code == 404


def test_computing_until_stored(clients, settings):
    settings.PODIUM_FORECASTS = False  # nothing queued: the answer says so
    detail = league(clients)
    body = forecast(clients["anonymous"], "leagues", detail["id"])
    assert body == {
        "status": "computing",
        "after_race": None,
        "simulations": 0,
        "seed": body["seed"],
        "computed_at": None,
        "titles": {},
        "positions": {},
    }


def test_races_with_entry_lists_and_bonus_points(clients, forecasts):
    # the default league: race 2 enters Ana and Eva only; bonus points
    detail = lg.create(clients["organiser"])
    race(clients, detail, 1, ["Rui", "Ana", "Eva"])
    problem = load("league", detail["id"], 1)
    ids = lg.ids(detail)
    assert problem.spec.entered[0] == (0, 2)  # Ana and Eva (entry order)
    body = forecast(clients["anonymous"], "leagues", detail["id"])
    assert body["status"] == "ready"
    check_sums(body)
    # a bonus of up to the validator's limit a race: nobody is decided yet
    assert {e["status"] for e in body["titles"]["drivers"]} == {"open"}
    assert {e["driver"] for e in body["titles"]["drivers"]} == set(ids.values())
