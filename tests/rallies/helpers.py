"""Builders shared by the rally tests: payloads and requests through the API, nothing else."""

from __future__ import annotations

import copy
from typing import Any

from tests.conftest import Client

RALLY_PAYLOAD: dict[str, Any] = {
    "club": "velo-lisboa",
    "name": "Rali de Sintra",
    "seed": 11,
    "drivers": [{"name": "Ana"}, {"name": "Rui"}, {"name": "Sara"}],
    "stages": [
        {"name": "SS1 Pena", "layout": "gravel-flats"},
        {"name": "SS2 Azoia"},
        {"name": "SS3 Colares", "layout": "twisty-jumps"},
    ],
    "rules": {},
}


def rally_payload(**changes: Any) -> dict[str, Any]:
    payload = copy.deepcopy(RALLY_PAYLOAD)
    payload.update(changes)
    return payload


def create_rally(client: Client, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/rallies/", rally_payload(**changes), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def ids(rally: dict[str, Any]) -> list[int]:
    """Driver ids in entry-list order."""
    return [d["id"] for d in rally["drivers"]]


def sheet(rally: dict[str, Any], *times: Any) -> list[dict[str, Any]]:
    """One row per driver in entry order: an int/str is a ``time``, a dict is the whole row."""
    rows = []
    for driver, value in zip(ids(rally), times, strict=True):
        if isinstance(value, dict):
            rows.append({"driver": driver, **value})
        else:
            rows.append({"driver": driver, "time": value})
    return rows


def submit(client: Client, rally_id: int, number: int, rows: Any, **body: Any) -> Any:
    return client.post(
        f"/api/rallies/{rally_id}/stages/{number}/results/",
        {"results": rows, **body},
        format="json",
    )


def stage(client: Client, rally_id: int, number: int) -> dict[str, Any]:
    response = client.get(f"/api/rallies/{rally_id}/stages/{number}/")
    assert response.status_code == 200, response.content
    return response.json()


def standings(client: Client, rally_id: int, query: str = "") -> Any:
    return client.get(f"/api/rallies/{rally_id}/standings/{query}")
