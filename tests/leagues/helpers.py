"""Builders for the league tests: payloads, finishing orders and requests through the API."""

from __future__ import annotations

import copy
from typing import Any

from tests.conftest import Client

PAYLOAD: dict[str, Any] = {
    "club": "velo-lisboa",
    "name": "Heat Spring League",
    "game": "Heat: Pedal to the Metal",
    "points": [9, 6, 4, 3, 2, 1],
    "drop_worst": 0,
    "points_finishers_only": True,
    "bonus_points": True,
    "drivers": [{"name": "Ana", "team": "Red"}, {"name": "Rui", "team": "Red"}, {"name": "Eva"}],
    "races": [{"name": "USA"}, {"name": "Italy", "drivers": ["Ana", "Eva"]}, {"name": "France"}],
}


def payload(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(PAYLOAD)
    data.update(changes)
    return data


def create(client: Client, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/leagues/", payload(**changes), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def ids(detail: dict[str, Any]) -> dict[str, int]:
    """Driver name → id."""
    return {d["name"]: d["id"] for d in detail["drivers"]}


def rows(
    detail: dict[str, Any], order: list[str], dnf: tuple[str, ...] = (), **bonus: int
) -> list[dict[str, Any]]:
    """Rows in finishing ``order`` (names); drivers in ``dnf`` did not finish; ``bonus`` by name."""
    by_name = ids(detail)
    return [
        {
            "driver": by_name[name],
            "position": position,
            "status": "dnf" if name in dnf else "finished",
            **({"bonus": bonus[name]} if name in bonus else {}),
        }
        for position, name in enumerate(order, start=1)
    ]


def submit(client: Client, detail: dict[str, Any], number: int, results: Any, **body: Any) -> Any:
    return client.post(
        f"/api/leagues/{detail['id']}/races/{number}/results/",
        {"results": results, **body},
        format="json",
    )


def standings(client: Client, detail: dict[str, Any], after: int | None = None) -> Any:
    query = "" if after is None else f"?after_race={after}"
    return client.get(f"/api/leagues/{detail['id']}/standings/{query}")
