"""GET …/history/: the audit log, for organisers only."""

from __future__ import annotations

import pytest

from tests.championships.helpers import create, race_rows, submit

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("anonymous", 401),
        ("outsider", 403),
        ("scorekeeper", 403),
        ("organiser", 200),
        ("superuser", 200),
    ],
)
def test_history_roles(clients, role, expected):
    champ = create(clients["organiser"])
    assert clients[role].get(f"/api/championships/{champ['id']}/history/").status_code == expected


def test_history_records_submissions_corrections_and_simulations(clients):
    champ = create(clients["organiser"], races=[{"circuit": "monaco"}] * 2)
    sk = clients["scorekeeper"]
    submit(sk, champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    submit(sk, champ, 1, race_rows(champ, 1, ["Rui", "Ana", "Eva"]))
    sk.post(f"/api/championships/{champ['id']}/races/2/simulate/")
    body = clients["organiser"].get(f"/api/championships/{champ['id']}/history/").json()
    assert [(e["action"], e["event"]) for e in body["results"]] == [
        ("results_simulated", 2),
        ("results_corrected", 1),
        ("results_submitted", 1),
        ("created", None),
    ]
    correction = body["results"][1]
    assert correction["user"] == "scorekeeper"
    # Rows are matched by driver: Ana and Rui swapped places.
    assert sorted(c["position"] for c in correction["changes"]["changed"]) == [[1, 2], [2, 1]]
