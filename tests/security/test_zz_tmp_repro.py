import pytest
from rest_framework.test import APIClient
from tests.championships.helpers import payload
pytestmark = pytest.mark.django_db

def test_repro(users):
    c = APIClient(raise_request_exception=True)
    c.force_authenticate(users["organiser"])
    d = c.post("/api/championships/", payload(), format="json").json()
    r = c.post(f"/api/championships/{d['id']}/races/1/results/", {"results": [{"driver": 0, "position": 0, "status": "finished", "laps": None, "elimination_order": None, "wp_left": None, "pole": False}], "version": 0}, format="json")
    print(r.status_code, r.content[:500])
