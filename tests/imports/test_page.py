"""/clubs/<slug>/import/: the organisers' upload page for both formats."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.imports.helpers import SECRET, complete_tour
from tournament.tours.models import Tour

pytestmark = pytest.mark.django_db
PAGE = "/clubs/velo-lisboa/import/"


def _client(users: dict[str, Any], role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(users[role])
    return client


def test_only_organisers_see_the_page_and_its_link(users):
    assert _client(users, "anonymous").get(PAGE).status_code == 302
    assert _client(users, "scorekeeper").get(PAGE).status_code == 403
    assert _client(users, "outsider").get(PAGE).status_code == 403
    organiser = _client(users, "organiser")
    page = organiser.get(PAGE)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'enctype="multipart/form-data"' in html and "/api/tours/import-csv/template.csv" in html
    assert PAGE in organiser.get("/clubs/velo-lisboa/").content.decode()
    assert PAGE not in _client(users, "scorekeeper").get("/clubs/velo-lisboa/").content.decode()


def test_a_backup_uploaded_opens_the_tour_with_its_differences(
    users, django_capture_on_commit_callbacks
):
    upload = SimpleUploadedFile("volta.json", json.dumps(complete_tour()).encode())
    with django_capture_on_commit_callbacks(execute=True):
        response = _client(users, "organiser").post(
            PAGE, {"action": "companion", "file": upload, "public": "on"}, follow=True
        )
    tour = Tour.objects.get()
    assert response.redirect_chain[-1][0] == f"/tours/{tour.pk}/"
    html = response.content.decode()
    assert "Tour imported: 3 stages with results" in html
    assert "Stage 2: the backup gives Blue 3 Tour Points, Podium 2 (kept)." in html
    assert SECRET not in html
    assert tour.public and tour.name == "Volta do Porto"


def test_a_file_with_problems_lists_them_and_stores_nothing(users):
    text = "stage,team,rider,role,time\n1,Red,Ana R,rouleur,\n1,Red,Ana S,sprinteur,0:10\n"
    upload = SimpleUploadedFile("tour.csv", text.encode())
    response = _client(users, "organiser").post(
        PAGE, {"action": "csv", "file": upload, "name": "Sheet"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "line 2, time: This rider has no time" in html
    assert Tour.objects.count() == 0
    broken = SimpleUploadedFile("volta.json", b"{not json")
    response = _client(users, "organiser").post(PAGE, {"action": "companion", "file": broken})
    assert response.status_code == 400
    assert "file: The file is not a JSON backup." in response.content.decode()
