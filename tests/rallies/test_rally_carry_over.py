"""RM-31 / RM-40 in simulated rallies: stage 2 starts from what stage 1's cars carried."""

from __future__ import annotations

from typing import Any

import pytest

from games.rallyman import build_track, load_layout, simulate_stage
from games.rallyman.rally import stage_entries, start_order
from scoring.rng import derive_rng
from tests.rallies.helpers import create_rally
from tournament.rallies.loading import rally_rules
from tournament.rallies.models import Rally

pytestmark = pytest.mark.django_db


def _simulate(clients: dict[str, Any], rally_id: int, number: int) -> dict[str, Any]:
    url = f"/api/rallies/{rally_id}/stages/{number}"
    assert clients["scorekeeper"].post(f"{url}/simulate/").status_code == 202
    return clients["anonymous"].get(f"{url}/replay/").json()


@pytest.mark.parametrize("repairs", [True, False])
def test_stage_two_starts_from_stage_one_as_the_rules_say(clients, repairs):
    stages = [{"name": "SS1", "layout": "twisty-jumps"}, {"name": "SS2", "layout": "gravel-flats"}]
    rally = create_rally(
        clients["organiser"],
        stages=stages,
        rules={"repair_between_stages": repairs, "tokens_carry_over": True},
    )
    first = _simulate(clients, rally["id"], 1)
    second = _simulate(clients, rally["id"], 2)
    db_rally = Rally.objects.get(pk=rally["id"])
    rules = rally_rules(db_rally.rules)
    standings = clients["anonymous"].get(f"/api/rallies/{rally['id']}/standings/?after_stage=1")
    running = [r["driver"] for r in standings.json()["overall"] if r["out_after_stage"] is None]
    entry = [d["id"] for d in rally["drivers"]]
    order = start_order(
        2, running, entry, rules, rng=derive_rng(db_rally.seed, "rally_start_order", 2)
    )
    # The engine alone, fed with stage 1's stored replay, plays the same stage 2.
    expected = simulate_stage(
        build_track(load_layout("gravel-flats")),
        stage_entries(order, rules, first),
        rules,
        derive_rng(db_rally.seed, "rally_stage", 2),
        last_stage=True,
    )
    assert second["results"] == expected.replay_json()["results"]
