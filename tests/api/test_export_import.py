"""Export a tour and import it again: the standings come back identical."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from tests.conftest import stage_rows
from tournament.tours.models import Rider, Stage, StageResultVersion

pytestmark = pytest.mark.django_db


def _play(clients: dict[str, Any], tour: dict[str, Any]) -> None:
    url = f"/api/tours/{tour['id']}/stages"
    for number, order in ((1, None), (2, [5, 4, 3, 2, 1, 0]), (1, [2, 3, 4, 5, 0, 1])):
        response = clients["scorekeeper"].post(
            f"{url}/{number}/results/", {"results": stage_rows(tour, order=order)}, format="json"
        )
        assert response.status_code == 202


def _by_name(standings: dict[str, Any], names: dict[int, str], teams: dict[int, str]) -> Any:
    """Standings with database ids replaced by names: comparable across instances."""

    def swap(value: Any, key: str) -> Any:
        if key in ("rider", "yellow", "green", "polka_dot") and isinstance(value, int):
            return names[value]
        if key in ("team", "winner") and isinstance(value, int):
            return teams[value]
        if key == "next_start_order" and value:
            return [teams[t] for t in value]
        if key == "podium" and isinstance(value, list):
            return [names[r] for r in value]
        if isinstance(value, dict):
            return {k: swap(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v, key) for v in value]
        return value

    return swap(standings, "")


def _names(tour: dict[str, Any]) -> tuple[dict[int, str], dict[int, str]]:
    riders = {r["id"]: r["name"] for t in tour["teams"] for r in t["riders"]}
    return riders, {t["id"]: t["name"] for t in tour["teams"]}


def test_round_trip_gives_identical_standings_and_history(clients, tour):
    _play(clients, tour)
    exported = clients["organiser"].get(f"/api/tours/{tour['id']}/export/")
    assert exported.status_code == 200
    document = exported.json()
    assert (document["format"], document["format_version"], document["kind"]) == (
        "podium-competition",
        1,
        "tour",
    )
    assert [len(e["versions"]) for e in document["events"]] == [2, 1]
    response = clients["outsider"].post(
        "/api/tours/import/", {"club": "porto", "document": document}, format="json"
    )
    assert response.status_code == 201, response.content
    copy = response.json()
    assert copy["id"] != tour["id"] and copy["seed"] == tour["seed"]
    assert copy["rules"] == tour["rules"]
    original = clients["organiser"].get(f"/api/tours/{tour['id']}/standings/").json()
    imported = clients["outsider"].get(f"/api/tours/{copy['id']}/standings/").json()
    assert imported["after_stage"] == 2
    assert _by_name(imported, *_names(copy)) == _by_name(original, *_names(tour))
    stage = Stage.objects.get(competition_id=copy["id"], number=1)
    assert StageResultVersion.objects.filter(event=stage).count() == 2  # history kept


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 401), ("scorekeeper", 403), ("outsider", 403), ("organiser", 200)],
)
def test_export_roles(clients, tour, role, expected):
    assert clients[role].get(f"/api/tours/{tour['id']}/export/").status_code == expected


def test_import_needs_organiser_of_the_target_club(clients, tour):
    document = clients["organiser"].get(f"/api/tours/{tour['id']}/export/").json()
    body = {"club": "velo-lisboa", "document": document}
    assert clients["anonymous"].post("/api/tours/import/", body, format="json").status_code == 401
    assert clients["outsider"].post("/api/tours/import/", body, format="json").status_code == 403
    assert clients["scorekeeper"].post("/api/tours/import/", body, format="json").status_code == 403


def test_a_bad_document_is_400_and_stores_nothing(clients, tour):
    _play(clients, tour)
    document = clients["organiser"].get(f"/api/tours/{tour['id']}/export/").json()
    before = Rider.objects.count()
    broken = json.loads(json.dumps(document))
    broken["events"][1]["versions"][0]["rows"][0]["seconds"] = 7  # not on the Timing tile
    response = clients["organiser"].post(
        "/api/tours/import/", {"club": "velo-lisboa", "document": broken}, format="json"
    )
    assert response.status_code == 400
    assert "events" in response.json()["document"]
    assert Rider.objects.count() == before  # the tour, its riders: nothing stored
    wrong = {**document, "format_version": 99}
    response = clients["organiser"].post(
        "/api/tours/import/", {"club": "velo-lisboa", "document": wrong}, format="json"
    )
    assert response.status_code == 400
    assert "format_version" in response.json()["document"]


def test_management_commands_round_trip(
    clients, tour, tmp_path, django_capture_on_commit_callbacks
):
    _play(clients, tour)
    path = tmp_path / "tour.json"
    call_command("export_competition", "tour", str(tour["id"]), "-o", str(path), stdout=StringIO())
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_competition", "porto", str(path), stdout=out)
    assert "Imported tour" in out.getvalue()
