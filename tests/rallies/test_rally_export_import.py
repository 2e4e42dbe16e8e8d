"""A rally exported and imported elsewhere gives the same standings and history."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rallies.helpers import create_rally, sheet, standings, submit
from tournament.rallies.models import RallyStage

pytestmark = pytest.mark.django_db


def _named(data: dict[str, Any], names: dict[int, str]) -> Any:
    """Standings with driver ids replaced by names (ids differ between instances)."""

    def swap(value: Any, key: str = "") -> Any:
        if key in ("driver", "winner") and isinstance(value, int):
            return names[value]
        if key == "winners":
            return [names[v] for v in value]
        if isinstance(value, dict):
            return {k: swap(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v, key) for v in value]
        return value

    return swap(data)


def test_round_trip(clients):
    rally = create_rally(clients["organiser"])
    rid = rally["id"]
    assert submit(clients["scorekeeper"], rid, 1, sheet(rally, 300, "5:10", 320)).status_code == 202
    assert (
        submit(
            clients["scorekeeper"], rid, 2, sheet(rally, 200, {"status": "retired"}, 210)
        ).status_code
        == 202
    )
    assert submit(clients["scorekeeper"], rid, 1, sheet(rally, 305, "5:10", 320)).status_code == 202
    document = clients["organiser"].get(f"/api/rallies/{rid}/export/").json()
    assert document["kind"] == "rally"
    assert [len(e["versions"]) for e in document["events"]] == [2, 1]
    response = clients["outsider"].post(
        "/api/rallies/import/", {"club": "porto", "document": document}, format="json"
    )
    assert response.status_code == 201, response.content
    copy = response.json()
    assert [s["layout"] for s in copy["stages"]] == [s["layout"] for s in rally["stages"]]
    original = standings(clients["organiser"], rid).json()
    imported = standings(clients["outsider"], copy["id"]).json()
    assert imported["after_stage"] == 2
    names = {d["id"]: d["name"] for d in rally["drivers"]}
    copied = {d["id"]: d["name"] for d in copy["drivers"]}
    assert _named(imported, copied) == _named(original, names)
    assert RallyStage.objects.get(competition_id=copy["id"], number=1).versions.count() == 2
