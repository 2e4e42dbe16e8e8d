"""The stage page shows a simulated stage round by round (FR-73 log)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import stage_rows

pytestmark = pytest.mark.django_db


def test_simulated_stage_page_has_the_round_by_round_view(clients, tour):
    assert (
        clients["scorekeeper"].post(f"/api/tours/{tour['id']}/stages/1/simulate/").status_code
        == 202
    )
    page = Client().get(f"/tours/{tour['id']}/stages/1/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Round by round" in html
    replay = page.context["replay"]
    assert {name for _, name in replay.riders} == {
        r["name"] for t in tour["teams"] for r in t["riders"]
    }
    assert replay.rounds[0].number == 1
    # Every rider crosses exactly once (Tour mode, FR-41).
    crossings = [cell for rnd in replay.rounds for cell in rnd.cells if cell and cell.crossed]
    assert len(crossings) == 6


def test_submitted_stage_page_has_no_replay(clients, tour):
    clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    page = Client().get(f"/tours/{tour['id']}/stages/1/")
    assert page.status_code == 200
    assert page.context["replay"] is None
    assert "Round by round" not in page.content.decode()
