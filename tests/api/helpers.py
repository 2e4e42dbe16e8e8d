"""Small builders shared by the API tests (payloads and requests, no shortcuts past the API)."""

from __future__ import annotations

from typing import Any

from tests.conftest import Client, riders_of, tour_payload

# Six distinct names, entry order; each team gets a Rouleur and a Sprinteur.
TEAM_NAMES = ["Red", "Blue", "Green", "Black", "White", "Pink", "Gold"]


def team(name: str, rouleur: str = "", sprinteur: str = "") -> dict[str, Any]:
    riders: list[dict[str, Any]] = [
        {"name": f"{name} R", "role": "rouleur"},
        {"name": f"{name} S", "role": "sprinteur"},
    ]
    if rouleur:
        riders[0]["specialist"] = rouleur
    if sprinteur:
        riders[1]["specialist"] = sprinteur
    return {"name": name, "player": name, "riders": riders}


def teams(count: int) -> list[dict[str, Any]]:
    return [team(name) for name in TEAM_NAMES[:count]]


def payload(stages: int = 3, team_count: int = 3, **changes: Any) -> dict[str, Any]:
    """A valid tour payload: ``stages`` course-less flat stages and ``team_count`` teams."""
    data = tour_payload(
        stages=[{"name": f"Stage {n}"} for n in range(1, stages + 1)],
        teams=teams(team_count),
        rest_days_after=[],
        rules={},
    )
    data.update(changes)
    return data


def create(client: Client, data: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/tours/", data, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def rows_in_order(
    detail: dict[str, Any], times: list[int] | None = None, **extra: Any
) -> list[dict[str, Any]]:
    """Every rider in entry order, position = entry order, stage times on the flat tile."""
    riders = riders_of(detail)
    times = times or [0] * len(riders)
    return [
        {
            "rider": r["id"],
            "position": i + 1,
            "minutes": times[i] // 60,
            "seconds": times[i] % 60,
            "sprint_points": 0,
            "mountain_points": 0,
            "exhaustion": 2,
            **extra,
        }
        for i, r in enumerate(riders)
    ]


def submit(
    client: Client, tour_id: int, number: int, rows: list[dict[str, Any]], **body: Any
) -> Any:
    return client.post(
        f"/api/tours/{tour_id}/stages/{number}/results/", {"results": rows, **body}, format="json"
    )


def engine_setup(detail: dict[str, Any]) -> Any:
    """The engine's TourSetup built from the API's tour detail (not from our loading code)."""
    from scoring.grand_tour import Rider, Team, TourSetup

    return TourSetup(
        seed=detail["seed"],
        teams=tuple(
            Team(
                id=t["id"],
                name=t["name"],
                riders=tuple(
                    Rider(id=r["id"], name=r["name"], team_id=t["id"], role=r["role"])
                    for r in t["riders"]
                ),
            )
            for t in detail["teams"]
        ),
        stage_count=len(detail["stages"]),
        rest_days_after=frozenset(detail["rest_days_after"]),
    )


def fresh_standings(detail: dict[str, Any], stages: list[list[dict[str, Any]]]) -> list[Any]:
    """Standings JSON after each stage, computed afresh by the engine from ``stages``' rows."""
    from scoring.grand_tour import (
        GrandTourRules,
        RiderResult,
        StageResults,
        compute_standings,
        standings_to_json,
    )
    from scoring.params import build_rules, field_names

    names = field_names(GrandTourRules)
    rules, errors = build_rules(
        GrandTourRules, {k: v for k, v in detail["rules"].items() if k in names}
    )
    assert not errors
    results = [
        StageResults(number=n, rows=tuple(RiderResult(**row) for row in rows))
        for n, rows in enumerate(stages, start=1)
    ]
    return [standings_to_json(s) for s in compute_standings(engine_setup(detail), results, rules)]
