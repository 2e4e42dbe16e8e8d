"""POST …/races/{n}/simulate/ and GET …/replay/: the engine plays a race from the seed."""

from __future__ import annotations

import pytest

from games.formula_d import Entrant, simulate_race
from scoring.rng import derive_rng
from tests.championships.helpers import create, race_rows, submit
from tournament.championships.models import Race, RaceResultVersion

pytestmark = pytest.mark.django_db

FIELDS = ("driver", "position", "status", "laps", "wp_left")


def _simulate(client, champ, number):
    return client.post(f"/api/championships/{champ['id']}/races/{number}/simulate/")


@pytest.mark.parametrize(
    ("role", "expected"),
    [("anonymous", 401), ("outsider", 403), ("scorekeeper", 202), ("organiser", 202)],
)
def test_simulate_roles(clients, role, expected):
    champ = create(clients["organiser"], races=[{"circuit": "monaco"}])
    assert _simulate(clients[role], champ, 1).status_code == expected
    assert Race.objects.get(competition_id=champ["id"]).version == (expected == 202)


def test_a_simulated_race_is_the_engines_race_from_the_seed(clients):
    champ = create(clients["organiser"])
    response = _simulate(clients["scorekeeper"], champ, 1)
    assert response.status_code == 202, response.content
    assert response.json()["number"] == 1
    base = f"/api/championships/{champ['id']}/races/1"
    race = clients["anonymous"].get(f"{base}/").json()
    assert (race["status"], race["source"], race["version"]) == ("resolved", "simulated", 1)
    # The engine's own answer for this seed and race number (FD-44: entry order).
    entrants = [Entrant(driver=d["id"], name=d["name"], team=d["team"]) for d in champ["drivers"]]
    outcome = simulate_race("monaco", entrants, laps=2, rng=derive_rng(7, "race", 1))
    expected = outcome.submission()
    assert [tuple(r[f] for f in FIELDS) for r in race["results"]] == [
        tuple(r[f] for f in FIELDS) for r in expected
    ]
    replay = clients["anonymous"].get(f"{base}/replay/").json()
    assert {"circuit", "laps", "grid", "moves", "results"} <= set(replay)
    assert replay["results"] == expected
    standings = clients["anonymous"].get(f"/api/championships/{champ['id']}/standings/").json()
    assert standings["after_race"] == 1 and len(standings["drivers"]) == 3

    # Again: a new version with the same result; a submission then has no replay.
    assert _simulate(clients["organiser"], champ, 1).status_code == 202
    again = clients["anonymous"].get(f"{base}/").json()
    assert again["version"] == 2 and again["results"] == race["results"]
    assert RaceResultVersion.objects.filter(event__competition_id=champ["id"]).count() == 2
    submit(clients["scorekeeper"], champ, 1, race_rows(champ, 1, ["Ana", "Rui", "Eva"]))
    assert clients["anonymous"].get(f"{base}/replay/").status_code == 404


def test_a_race_after_an_unresolved_one_cannot_be_simulated(clients):
    champ = create(clients["organiser"])
    response = _simulate(clients["scorekeeper"], champ, 2)
    assert response.status_code == 409
    assert not RaceResultVersion.objects.exists()


@pytest.mark.parametrize(("changes", "field"), [({"races": [{"circuit": "Sebring"}]}, "circuit")])
def test_what_the_simulator_cannot_play_is_a_400(clients, changes, field):
    champ = create(clients["organiser"], **changes)
    response = _simulate(clients["scorekeeper"], champ, 1)
    assert response.status_code == 400
    assert response.json()[field]
    assert Race.objects.get(competition_id=champ["id"]).status == "planned"


def test_an_advanced_race_is_simulated_with_wear_per_zone(clients):
    champ = create(
        clients["organiser"], rule_set="advanced", races=[{"circuit": "monaco", "laps": 1}]
    )
    assert _simulate(clients["scorekeeper"], champ, 1).status_code == 202
    race = clients["anonymous"].get(f"/api/championships/{champ['id']}/races/1/").json()
    assert (race["status"], race["source"]) == ("resolved", "simulated"), race["error"]
    # FD-59: the advanced game reports what is left in each of the six zones.
    assert all(
        isinstance(row["wp_left"], dict) and len(row["wp_left"]) == 6 for row in race["results"]
    )
