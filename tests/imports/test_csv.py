"""The CSV import, its template and a tour's results as that CSV: round trips (issue #19 item 6)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import stage_rows, tour_payload
from tournament.competitions.models import AuditEntry
from tournament.tours.models import Tour

pytestmark = pytest.mark.django_db
URL = "/api/tours/import-csv/"
TEMPLATE = "/api/tours/import-csv/template.csv"


def post(client: Any, text: str, **extra: Any) -> Any:
    body = {"club": "velo-lisboa", "name": "From a sheet", "csv": text, **extra}
    return client.post(URL, body, format="json")


def by_names(detail: dict[str, Any], standings: dict[str, Any]) -> dict[str, Any]:
    """The standings with rider and team ids replaced by names (ids differ between tours)."""
    riders = {r["id"]: r["name"] for t in detail["teams"] for r in t["riders"]}
    teams = {t["id"]: t["name"] for t in detail["teams"]}

    def rename(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: rename(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [rename(v, key) for v in value]
        if key in ("rider", "yellow", "green", "polka_dot", "podium") and value:
            return riders.get(value, value)
        if key in ("team", "winner", "next_start_order") and value:
            return teams.get(value, value)
        return value

    return {k: rename(v, k) for k, v in standings.items()}


def test_the_template_downloads_and_imports_as_it_is(clients):
    response = clients["anonymous"].get(TEMPLATE)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode()
    assert text.splitlines()[0].startswith("stage,stage_name,rest_day_after,team,player,rider")
    created = post(clients["organiser"], text)
    assert created.status_code == 201, created.content
    detail = created.json()
    assert [s["name"] for s in detail["stages"]] == ["Prologue", "Mountains"]
    assert [s["status"] for s in detail["stages"]] == ["submitted", "planned"]
    assert detail["rest_days_after"] == [1]
    assert [(t["name"], t["player"]) for t in detail["teams"]] == [("Blue", "Rui"), ("Red", "Ana")]
    assert detail["teams"][1]["riders"][0]["specialist"] == "grimpeur"
    assert detail["rules"]["timing_tile"] is False


def test_a_tour_exported_as_csv_and_imported_has_the_same_standings(clients, tour):
    # A team whose name a spreadsheet would read as a formula: written as '=Red, read back.
    changed = clients["organiser"].patch(
        f"/api/tours/{tour['id']}/",
        {
            "teams": [
                {**t, "name": "=Red" if t["name"] == "Red" else t["name"]}
                for t in tour_payload()["teams"]
            ]
        },
        format="json",
    )
    assert changed.status_code == 200, changed.content
    tour = changed.json()
    for number, order in ((1, None), (2, [5, 4, 3, 2, 1, 0])):
        rows = stage_rows(tour, order=order, sprint_points=number, mountain_points=1)
        url = f"/api/tours/{tour['id']}/stages/{number}/results/"
        assert clients["scorekeeper"].post(url, {"results": rows}, format="json").status_code == 202
    exported = clients["anonymous"].get(f"/api/tours/{tour['id']}/results.csv")
    assert exported.status_code == 200
    text = exported.content.decode()
    assert "'=Red" in text and "Stage three" in text  # stage 3 declared, not ridden
    created = post(clients["organiser"], text, seed=tour["seed"], rules=tour["rules"])
    assert created.status_code == 201, created.content
    copy = created.json()
    assert [t["name"] for t in copy["teams"]] == ["=Red", "Blue", "Green"]
    assert [s["name"] for s in copy["stages"]] == [s["name"] for s in tour["stages"]]
    assert copy["rest_days_after"] == tour["rest_days_after"] == [1]
    for after in (1, 2):
        original = clients["anonymous"].get(
            f"/api/tours/{tour['id']}/standings/?after_stage={after}"
        )
        again = clients["anonymous"].get(f"/api/tours/{copy['id']}/standings/?after_stage={after}")
        assert original.status_code == again.status_code == 200
        assert by_names(copy, again.json()) == by_names(tour, original.json())
    # And the copy's export is the same file, line for line.
    second = clients["anonymous"].get(f"/api/tours/{copy['id']}/results.csv").content.decode()
    assert second == text


def test_a_multipart_upload_with_positions_omitted(clients):
    text = (
        "Stage;Team;Rider;Role;Time\n"
        "1;Red;Ana R;R;1:10\n1;Red;Ana S;S;0:00\n"
        "1;Blue;Rui R;rouleur;0:00\n1;Blue;Rui S;sprinteur;0:20\n"
    )
    upload = SimpleUploadedFile("tour.csv", text.encode("utf-8-sig"), content_type="text/csv")
    body = {
        "club": "velo-lisboa",
        "name": "Uploaded",
        "stages": "4",
        "public": "false",
        "file": upload,
    }
    response = clients["organiser"].post(URL, body, format="multipart")
    assert response.status_code == 201, response.content
    detail = response.json()
    assert len(detail["stages"]) == 4 and detail["public"] is False
    names = {r["id"]: r["name"] for t in detail["teams"] for r in t["riders"]}
    results = clients["organiser"].get(f"/api/tours/{detail['id']}/stages/1/").json()["results"]
    # Without positions: time, then the order of the lines (Ana S before Rui R at 0:00).
    assert [names[r["rider"]] for r in results] == ["Ana S", "Rui R", "Rui S", "Ana R"]


HEADER = "stage,team,rider,role,time,sprint_points"
GOOD = [
    "1,Red,Ana R,rouleur,0:00,0",
    "1,Red,Ana S,sprinteur,0:10,0",
    "1,Blue,Rui R,rouleur,0:20,0",
    "1,Blue,Rui S,sprinteur,0:30,0",
]


@pytest.mark.parametrize(
    ("lines", "where"),
    [
        (["stage,team,rider,time", *GOOD], ["line 1"]),  # no role column
        ([f"{HEADER},colour", *GOOD], ["line 1"]),  # a column Podium does not know
        ([HEADER, *GOOD[:2], "1,Blue,Rui R,rouleur,,0", GOOD[3]], ["line 4", "time"]),
        ([HEADER, *GOOD[:2], "1,Blue,Rui R,rouleur,0:75,0", GOOD[3]], ["line 4", "time"]),
        ([HEADER, *GOOD[:3], "1,Blue,Rui S,sprinteur,0:30,lots"], ["line 5", "sprint_points"]),
        ([HEADER, *GOOD, "2,Blue,Rui X,rouleur,0:30,0"], ["line 6", "rider"]),  # riders change
        ([HEADER, *GOOD[:3], "1,Blue,Rui S,rouleur,0:30,0"], ["line 5", "rider"]),  # two rouleurs
        ([HEADER, *GOOD[:3]], ["line 4", "role"]),  # Blue has no sprinteur
        (
            [HEADER, *GOOD, *(g.replace("1,", "2,", 1) for g in GOOD[:3])],
            ["stage 2"],
        ),  # Rui's sprinteur has no result (Podium's)
        ([HEADER, *GOOD, "3,Red,Ana R,rouleur,0:00,0"], ["stage 3"]),  # stage 3 before 2
    ],
    ids=[
        "missing-column",
        "unknown-column",
        "empty-time",
        "bad-seconds",
        "bad-count",
        "rider-renamed",
        "two-rouleurs",
        "no-sprinteur",
        "missing-rider",
        "stage-gap",
    ],
)
def test_a_file_it_cannot_read_is_a_400_at_the_line_and_stores_nothing(clients, lines, where):
    before = (Tour.objects.count(), AuditEntry.objects.count())
    response = post(clients["organiser"], "\n".join(lines) + "\n")
    assert response.status_code == 400, response.content
    node: Any = response.json()["csv"]
    for step in where:
        assert isinstance(node, dict), (where, response.json())
        node = node[step]
    assert node, response.json()
    assert (Tour.objects.count(), AuditEntry.objects.count()) == before


def test_the_csv_of_a_private_tour_is_hidden_from_outsiders(clients):
    created = clients["organiser"].post("/api/tours/", tour_payload(public=False), format="json")
    url = f"/api/tours/{created.json()['id']}/results.csv"
    assert clients["outsider"].get(url).status_code == 404
    assert clients["anonymous"].get(url).status_code == 404
    assert clients["scorekeeper"].get(url).status_code == 200
