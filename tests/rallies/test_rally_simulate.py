"""POST …/stages/{n}/simulate/ and GET …/stages/{n}/replay/: the engine plays a stage with a
layout (RM-6 start orders, drivers out of the rally stay out), stored and resolved as a sheet."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rallies.helpers import create_rally, ids, sheet, stage, standings, submit
from tournament.rallies.models import RallyStage, RallyStageResultVersion


def simulate(client: Any, rally_id: int, number: int) -> Any:
    return client.post(f"/api/rallies/{rally_id}/stages/{number}/simulate/")


def replay(client: Any, rally_id: int, number: int) -> Any:
    return client.get(f"/api/rallies/{rally_id}/stages/{number}/replay/")


def test_a_simulated_stage_is_stored_and_resolved_like_a_sheet(clients):
    rally = create_rally(clients["organiser"])
    response = simulate(clients["scorekeeper"], rally["id"], 1)
    assert response.status_code == 202, response.content
    assert response.json()["number"] == 1
    detail = stage(clients["anonymous"], rally["id"], 1)
    assert (detail["status"], detail["source"], detail["version"]) == ("resolved", "simulated", 1)
    assert sorted(r["driver"] for r in detail["results"]) == sorted(ids(rally))
    for row in detail["results"]:
        if row["status"] == "finished":
            # The engine's log and time agree (RM-53.8) and give the cards and tokens.
            assert row["log"] and row["time"] == row["net_time"] == row["stage_time"]
            assert row["cards"] - row["tokens"] == row["net_time"]
    body = replay(clients["anonymous"], rally["id"], 1).json()
    assert body["start_order"] == ids(rally)  # RM-6: stage 1 in entry-list order
    assert body["turns"] and {r["car"] for r in body["results"]} == set(ids(rally))
    assert standings(clients["anonymous"], rally["id"]).json()["after_stage"] == 1


def test_same_seed_same_result_and_a_new_version(clients):
    rally = create_rally(clients["organiser"])
    simulate(clients["scorekeeper"], rally["id"], 1)
    first = stage(clients["anonymous"], rally["id"], 1)
    simulate(clients["organiser"], rally["id"], 1)
    again = stage(clients["anonymous"], rally["id"], 1)
    assert again["version"] == 2 and again["results"] == first["results"]
    assert RallyStageResultVersion.objects.count() == 2
    other = create_rally(clients["organiser"], seed=12)
    simulate(clients["scorekeeper"], other["id"], 1)
    assert [r["log"] for r in stage(clients["anonymous"], other["id"], 1)["results"]] != [
        r["log"] for r in first["results"]
    ]


def test_a_stage_without_layout_cannot_be_simulated(clients):
    rally = create_rally(clients["organiser"])
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    response = simulate(clients["scorekeeper"], rally["id"], 2)
    assert response.status_code == 400
    assert response.json()["layout"]
    event = RallyStage.objects.get(competition_id=rally["id"], number=2)
    assert (event.version, event.status) == (0, "planned")


def test_a_stage_whose_earlier_stage_is_not_resolved_is_a_409(clients):
    rally = create_rally(clients["organiser"])
    response = simulate(clients["scorekeeper"], rally["id"], 3)
    assert response.status_code == 409
    assert RallyStage.objects.get(competition_id=rally["id"], number=3).version == 0


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("scorekeeper", 202),
        ("organiser", 202),
        ("superuser", 202),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_simulate(clients, role, code):
    rally = create_rally(clients["organiser"])
    assert simulate(clients[role], rally["id"], 1).status_code == code
    assert RallyStage.objects.get(number=1).version == (1 if code == 202 else 0)


def test_replay_is_404_for_a_stage_that_was_not_simulated(clients):
    rally = create_rally(clients["organiser"])
    assert replay(clients["anonymous"], rally["id"], 1).status_code == 404
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    assert replay(clients["anonymous"], rally["id"], 1).status_code == 404
    assert replay(clients["anonymous"], rally["id"], 9).status_code == 404


def test_later_stages_start_in_classification_order_without_drivers_out(clients):
    rally = create_rally(
        clients["organiser"],
        drivers=[{"name": n} for n in ("Ana", "Rui", "Sara", "Gil")],
        rules={"super_rally": False},
    )
    ana, rui, sara, _gil = ids(rally)
    submit(
        clients["scorekeeper"], rally["id"], 1, sheet(rally, 330, 310, 320, {"status": "retired"})
    )
    stage_two = [
        {"driver": ana, "time": 300},
        {"driver": rui, "time": 330},
        {"driver": sara, "time": 300},
    ]
    submit(clients["scorekeeper"], rally["id"], 2, stage_two)
    # After stage 2: Sara 620, Rui 640, Ana 630 → Sara, Ana, Rui; Gil is out (RM-46).
    response = simulate(clients["scorekeeper"], rally["id"], 3)
    assert response.status_code == 202
    assert replay(clients["anonymous"], rally["id"], 3).json()["start_order"] == [sara, ana, rui]
    detail = stage(clients["anonymous"], rally["id"], 3)
    assert sorted(r["driver"] for r in detail["results"]) == sorted([ana, rui, sara])
    assert detail["status"] == "resolved"


def test_a_random_first_stage_order_is_drawn_from_the_seed(clients):
    names = [{"name": f"D{i}"} for i in range(6)]
    one = create_rally(clients["organiser"], drivers=names, rules={"first_stage_order": "random"})
    two = create_rally(clients["organiser"], drivers=names, rules={"first_stage_order": "random"})
    simulate(clients["scorekeeper"], one["id"], 1)
    simulate(clients["scorekeeper"], two["id"], 1)
    order_one = replay(clients["anonymous"], one["id"], 1).json()["start_order"]
    order_two = replay(clients["anonymous"], two["id"], 1).json()["start_order"]
    assert sorted(order_one) == ids(one)
    # Same seed: the same draw, position by position (ids differ between the two rallies).
    assert [ids(one).index(d) for d in order_one] == [ids(two).index(d) for d in order_two]
