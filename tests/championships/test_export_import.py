"""A championship exported and imported elsewhere gives the same standings and history."""

from __future__ import annotations

from typing import Any

import pytest

from tests.championships.helpers import create, race_rows, standings, submit
from tournament.championships.models import Race, RaceResultVersion

pytestmark = pytest.mark.django_db


def _named(data: dict[str, Any]) -> Any:
    """Standings without database ids (driver rows are matched by name)."""
    return {
        "after_race": data["after_race"],
        "drivers": [{k: v for k, v in row.items() if k != "driver"} for row in data["drivers"]],
        "teams": data["teams"],
    }


def test_round_trip(clients):
    champ = create(clients["organiser"])
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Eva", "Ana", "Rui"]))
    submit(clients["scorekeeper"], champ, 2, race_rows(champ, 2, ["Ana", "Eva"]))
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    document = clients["organiser"].get(f"/api/championships/{champ['id']}/export/").json()
    assert document["kind"] == "championship"
    assert [len(e["versions"]) for e in document["events"]] == [2, 1]
    assert document["events"][0]["versions"][1]["rows"][0]["driver"] == "Ana"
    response = clients["outsider"].post(
        "/api/championships/import/", {"club": "porto", "document": document}, format="json"
    )
    assert response.status_code == 201, response.content
    copy = response.json()
    assert [d["name"] for d in copy["drivers"]] == [d["name"] for d in champ["drivers"]]
    original = standings(clients["organiser"], champ).json()
    imported = standings(clients["outsider"], copy).json()
    assert _named(imported) == _named(original)
    race = Race.objects.get(competition_id=copy["id"], number=1)
    assert RaceResultVersion.objects.filter(event=race).count() == 2


def test_export_is_for_organisers(clients):
    champ = create(clients["organiser"])
    url = f"/api/championships/{champ['id']}/export/"
    assert clients["anonymous"].get(url).status_code == 401
    assert clients["scorekeeper"].get(url).status_code == 403
    assert clients["organiser"].get(url).status_code == 200
