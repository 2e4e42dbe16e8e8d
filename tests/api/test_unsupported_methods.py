"""API.md: a private competition is a 404 to every method, even one its endpoint lacks."""

from __future__ import annotations

import pytest

from tests.championships.helpers import create as create_championship
from tests.conftest import tour_payload
from tests.rallies.helpers import create_rally

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["delete", "put"])
def test_unsupported_methods_on_private_competitions_are_404_to_outsiders(clients, method):
    tour = (
        clients["organiser"].post("/api/tours/", tour_payload(public=False), format="json").json()
    )
    championship = create_championship(clients["organiser"], public=False)
    rally = create_rally(clients["organiser"], public=False)
    urls = [
        f"/api/tours/{tour['id']}/",
        f"/api/championships/{championship['id']}/",
        f"/api/rallies/{rally['id']}/",
    ]
    for url in urls:
        for role in ("anonymous", "outsider"):
            assert getattr(clients[role], method)(url).status_code == 404, (url, role)
        # Members see it exists: the method is simply not offered (there is no DELETE).
        assert getattr(clients["organiser"], method)(url).status_code == 405, url
