"""The admin (club-scoped, results entry through the service) and the demo championship."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client as DjangoClient

from tests.championships.helpers import create, race_rows, submit
from tournament.championships import demo
from tournament.championships.models import Championship, Race
from tournament.clubs.models import Club

pytestmark = pytest.mark.django_db


def _staff(users: dict[str, Any], name: str) -> DjangoClient:
    user = users[name]
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client = DjangoClient()
    client.force_login(user)
    return client


def _form(race: Race, rows: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {"form-TOTAL_FORMS": len(rows), "form-INITIAL_FORMS": len(rows)}
    for i, row in enumerate(rows):
        for key, value in row.items():
            if key == "pole":
                if value:
                    data[f"form-{i}-pole"] = "on"
            elif value is not None:
                data[f"form-{i}-{key}"] = value
    return data


def test_organiser_enters_results_in_the_admin(clients, users):
    champ = create(clients["organiser"])
    admin = _staff(users, "organiser")
    assert admin.get(f"/admin/championships/championship/{champ['id']}/change/").status_code == 200
    race = Race.objects.get(competition_id=champ["id"], number=1)
    url = f"/admin/championships/race/{race.pk}/results/"
    page = admin.get(url)
    assert page.status_code == 200 and "Ana" in page.content.decode()

    bad = race_rows(champ, 1, ["Ana", "Rui", "Eva"])
    bad[1]["position"] = 1  # FD-79: a shared position, reported on its box
    answer = admin.post(url, _form(race, bad))
    assert answer.status_code == 200
    assert "given twice" in answer.content.decode()
    race.refresh_from_db()
    assert race.version == 0

    answer = admin.post(url, _form(race, race_rows(champ, 1, ["Ana", "Rui", "Eva"])))
    assert answer.status_code == 302
    race.refresh_from_db()
    assert race.version == 1 and race.results[0]["position"] == 1


def test_the_admin_is_scoped_to_the_organisers_clubs(clients, users):
    champ = create(clients["organiser"])
    outsider = _staff(users, "outsider")
    race = Race.objects.get(competition_id=champ["id"], number=1)
    assert outsider.get(f"/admin/championships/race/{race.pk}/results/").status_code == 404
    listing = outsider.get("/admin/championships/championship/")
    assert listing.status_code == 200 and champ["name"] not in listing.content.decode()
    # Locked set-up once results exist: no adding drivers or races.
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    admin = _staff(users, "organiser")
    page = admin.get(f"/admin/championships/championship/{champ['id']}/change/").content.decode()
    assert "After race 1" in page


def test_demo_builds_a_championship_with_resolved_races(
    clients, users, django_capture_on_commit_callbacks
):
    club = Club.objects.get(slug="velo-lisboa")
    with django_capture_on_commit_callbacks(execute=True):
        lines = demo.build(
            club=club, organiser=users["organiser"], scorekeeper=users["scorekeeper"]
        )
    assert len(lines) == 1
    championship = Championship.objects.get(club=club)
    races = list(Race.objects.filter(competition=championship).order_by("number"))
    assert [r.status for r in races] == ["resolved"] * 3 + ["planned"] * 2
    assert races[1].source == "simulated"
    body = clients["anonymous"].get(f"/api/championships/{championship.pk}/standings/").json()
    assert body["after_race"] == 3 and len(body["drivers"]) == 6 and len(body["teams"]) == 3
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            demo.build(club=club, organiser=users["organiser"], scorekeeper=users["scorekeeper"])
            == []
        )
    assert Championship.objects.filter(club=club).count() == 1
