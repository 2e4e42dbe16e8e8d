"""Builders for the championship tests: payloads, result rows and requests through the API."""

from __future__ import annotations

import copy
from typing import Any

from tests.conftest import Client

PAYLOAD: dict[str, Any] = {
    "club": "velo-lisboa",
    "name": "Formula D Winter Cup",
    "seed": 7,
    "rule_set": "basic",
    "points": [10, 8, 6, 5, 4, 3, 2, 1],
    "drivers": [
        {"name": "Ana", "team": "Scuderia Tejo"},
        {"name": "Rui", "team": "Scuderia Tejo"},
        {"name": "Eva", "team": "Equipa Sado"},
    ],
    "races": [
        {"circuit": "monaco", "laps": 2},
        {"circuit": "monaco", "laps": 1, "drivers": ["Ana", "Eva"]},
        {"circuit": "monaco", "laps": 1},
    ],
    "rules": {"drop_worst": 0},
}


def payload(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(PAYLOAD)
    data.update(changes)
    return data


def create(client: Client, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/championships/", payload(**changes), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def ids(detail: dict[str, Any]) -> dict[str, int]:
    """Driver name → id."""
    return {d["name"]: d["id"] for d in detail["drivers"]}


def race_rows(
    detail: dict[str, Any], number: int, order: list[str], out: tuple[str, ...] = (), **extra: Any
) -> list[dict[str, Any]]:
    """Rows in finishing ``order`` (names); drivers in ``out`` eliminated on lap 0 (last)."""
    laps = detail["races"][number - 1]["laps"]
    by_name = ids(detail)
    return [
        {
            "driver": by_name[name],
            "position": position,
            "status": "eliminated" if name in out else "finished",
            "laps": 0 if name in out else laps,
            **extra,
        }
        for position, name in enumerate(order, start=1)
    ]


def submit(client: Client, detail: dict[str, Any], number: int, rows: Any, **body: Any) -> Any:
    return client.post(
        f"/api/championships/{detail['id']}/races/{number}/results/",
        {"results": rows, **body},
        format="json",
    )


def standings(client: Client, detail: dict[str, Any], after: int | None = None) -> Any:
    query = "" if after is None else f"?after_race={after}"
    return client.get(f"/api/championships/{detail['id']}/standings/{query}")
