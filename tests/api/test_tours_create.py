"""POST /api/tours/: the API.md example, every set-up 400 (GT-1, FR-9..11, FR-63), roles."""

from __future__ import annotations

from typing import Any

import pytest

from games.flamme_rouge.rules import StageRules
from scoring.grand_tour import GrandTourRules
from scoring.params import field_names
from tests.api.helpers import payload, team, teams
from tests.conftest import TOUR_PAYLOAD, tour_payload
from tournament.tours.models import Rider, Stage, Team, Tour

URL = "/api/tours/"

# API.md's example, verbatim (two stages, two teams).
API_EXAMPLE: dict[str, Any] = {
    "club": "velo-lisboa",
    "name": "Tour de Lisboa 2026",
    "public": True,
    "seed": 42,
    "stages": [
        {"name": "Avenue Corso Paseo", "course": "abcdefghijklmnopqrstu"},
        {
            "name": "La Haute Montagne",
            "course": "abcfimetKGLHJsdopRQNU",
            "stacks": [{"id": "m1", "type": "major", "side": "mountain", "square": 43}],
        },
    ],
    "rest_days_after": [1],
    "teams": [
        {
            "name": "Red",
            "player": "Ana",
            "riders": [
                {"name": "Ana R", "role": "rouleur", "specialist": "grimpeur"},
                {"name": "Ana S", "role": "sprinteur"},
            ],
        },
        {
            "name": "Blue",
            "player": "Rui",
            "riders": [
                {"name": "Rui R", "role": "rouleur"},
                {"name": "Rui S", "role": "sprinteur"},
            ],
        },
    ],
    "rules": {"podium_tp": [3, 2, 1]},
}


def post_400(client: Any, data: dict[str, Any]) -> dict[str, Any]:
    """POST ``data``; assert a 400 that stored nothing and return the error body."""
    response = client.post(URL, data, format="json")
    assert response.status_code == 400, response.content
    assert Tour.objects.count() == 0
    assert Stage.objects.count() == Team.objects.count() == Rider.objects.count() == 0
    return response.json()


def test_api_example_creates_the_tour_and_answers_its_detail(clients):
    response = clients["organiser"].post(URL, API_EXAMPLE, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    tour = Tour.objects.get()
    assert body["id"] == tour.pk
    assert (body["club"], body["name"], body["public"], body["seed"]) == (
        "velo-lisboa",
        "Tour de Lisboa 2026",
        True,
        42,
    )
    assert body["rest_days_after"] == [1]
    assert [
        {k: s[k] for k in ("number", "name", "course", "finish", "stacks", "status")}
        for s in body["stages"]
    ] == [
        {
            "number": 1,
            "name": "Avenue Corso Paseo",
            "course": "abcdefghijklmnopqrstu",
            "finish": "flat",
            "stacks": [],
            "status": "planned",
        },
        {
            "number": 2,
            "name": "La Haute Montagne",
            "course": "abcfimetKGLHJsdopRQNU",
            "finish": "ascent",
            "stacks": [{"id": "m1", "type": "major", "side": "mountain", "square": 43}],
            "status": "planned",
        },
    ]
    red, blue = body["teams"]
    assert (red["name"], red["player"], blue["name"], blue["player"]) == (
        "Red",
        "Ana",
        "Blue",
        "Rui",
    )
    assert [(r["name"], r["role"], r["specialist"]) for r in red["riders"]] == [
        ("Ana R", "rouleur", "grimpeur"),
        ("Ana S", "sprinteur", None),
    ]
    assert [(r["name"], r["role"], r["specialist"]) for r in blue["riders"]] == [
        ("Rui R", "rouleur", None),
        ("Rui S", "sprinteur", None),
    ]
    assert all(isinstance(r["id"], int) for t in body["teams"] for r in t["riders"])
    # GT-1.3: the first-pick order of the Specialist draft is a permutation of the team ids.
    assert sorted(body["specialist_order"]) == sorted([red["id"], blue["id"]])
    assert body["rules"]["podium_tp"] == [3, 2, 1]
    # The detail GET answers the same document.
    assert clients["anonymous"].get(f"{URL}{tour.pk}/").json() == body


def test_detail_shows_every_effective_rule_value(clients):
    body = clients["organiser"].post(URL, payload(rules={"rest_day_tp": 2}), format="json").json()
    rules = body["rules"]
    # One namespace: every [param] of grand_tour.md and flamme_rouge_stage.md (API.md).
    assert set(rules) == field_names(GrandTourRules) | field_names(StageRules)
    assert rules["rest_day_tp"] == 2
    assert rules["max_teams"] == 6
    assert rules["timing_flat"] == [50, 40, 30, 20, 10, 0]
    assert rules["timing_ascent"] == [40, 30, 20, 10, 0]
    assert rules["dummy_teams"] == "none"
    assert rules["tp_order_from_stage"] == 6
    assert rules["classification_tp"]["bands"] == [7, 14, 21]
    # FR parameters too.
    assert rules["max_rounds"] == 100
    assert rules["specialist_effects"] == "recovery_only"
    assert rules["wide_finish_flat"] is not None


def test_public_defaults_to_true_and_seed_to_a_random_one(clients):
    data = payload()
    del data["public"], data["seed"]
    first = clients["organiser"].post(URL, data, format="json").json()
    second = clients["organiser"].post(URL, data, format="json").json()
    assert first["public"] is True
    assert isinstance(first["seed"], int) and isinstance(second["seed"], int)
    assert Tour.objects.get(pk=first["id"]).seed == first["seed"]
    assert first["seed"] != second["seed"]  # 1 in 2**31 of failing by chance
    private = clients["organiser"].post(URL, payload(public=False, seed=0), format="json").json()
    assert (private["public"], private["seed"]) == (False, 0)


def test_specialist_order_derives_from_the_seed(clients):
    one = clients["organiser"].post(URL, payload(team_count=6, seed=7), format="json").json()
    two = clients["organiser"].post(URL, payload(team_count=6, seed=7), format="json").json()
    ids = [[t["id"] for t in body["teams"]] for body in (one, two)]
    positions = [
        [i.index(t) for t in body["specialist_order"]]
        for i, body in zip(ids, (one, two), strict=True)
    ]
    assert sorted(positions[0]) == list(range(6))
    assert positions[0] == positions[1]  # same seed, same draw (GT-1.4)


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("anonymous", 401),
        ("scorekeeper", 403),
        ("outsider", 403),
        ("organiser", 201),
        ("superuser", 201),
    ],
)
def test_who_may_create(clients, role, code):
    response = clients[role].post(URL, TOUR_PAYLOAD, format="json")
    assert response.status_code == code
    assert Tour.objects.count() == (1 if code == 201 else 0)


@pytest.mark.parametrize(
    ("role", "code"), [("anonymous", 401), ("outsider", 403), ("scorekeeper", 403)]
)
def test_roles_are_checked_before_validation(clients, role, code):
    # An invalid body does not tell an outsider anything about the club's validation.
    response = clients[role].post(URL, payload(teams=[]), format="json")
    assert response.status_code == code


def test_unknown_club_is_a_400(clients):
    body = post_400(clients["organiser"], payload(club="nowhere"))
    assert "club" in body


# --- set-up 400s -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "key"),
    [
        ({"no_such_rule": 1}, "no_such_rule"),
        ({"seed": 5}, "seed"),  # a top-level setting inside rules
        ({"public": False}, "public"),
        ({"timing_flat": [50, 40, 30, 20, 10, 60]}, "timing_flat"),  # GT-2.4: below 60
        ({"timing_flat": [0, 10, 20, 30, 40, 50]}, "timing_flat"),  # strictly decreasing
        ({"timing_ascent": [40, 30, 30, 10, 0]}, "timing_ascent"),
        ({"timing_ascent": "fast"}, "timing_ascent"),
        ({"timing_flat": []}, "timing_flat"),
        ({"max_teams": 9}, "max_teams"),
        ({"dummy_teams": "robots"}, "dummy_teams"),
        ({"podium_tp": "3,2,1"}, "podium_tp"),
    ],
    ids=lambda v: str(v) if isinstance(v, str) else None,
)
def test_bad_rules_are_a_400_under_their_key(clients, rules, key):
    body = post_400(clients["organiser"], payload(rules=rules))
    assert key in body["rules"], body


def test_rules_must_be_an_object(clients):
    body = post_400(clients["organiser"], payload(rules=[1, 2]))
    assert "rules" in body


def stage_error(body: dict[str, Any], index: int, field: str) -> list[str]:
    return body["stages"][index][field]


@pytest.mark.parametrize(
    ("course", "field"),
    [
        ("abcxu", "course"),  # x is no tile
        ("abcdefghijklmnopqrst", "course"),  # no finish tile
        ("bcdefghijklmnopqrstu", "course"),  # no start tile
        ("abcdefghijklmnopqrstuu", "course"),  # a physical tile twice
    ],
    ids=["unknown-tile", "no-finish", "no-start", "tile-twice"],
)
def test_bad_course_is_a_400_at_the_stage(clients, course, field):
    data = payload()
    data["stages"][1]["course"] = course
    body = post_400(clients["organiser"], data)
    assert stage_error(body, 1, field)
    assert body["stages"][0] == {} and body["stages"][2] == {}


@pytest.mark.parametrize(
    ("course", "team_count", "dummies", "ok"),
    [
        ("abcdefghijklmnopqrstu", 5, "none", True),  # a holds 10
        ("abcdefghijklmnopqrstu", 6, "none", False),
        ("abcdefghijklmnopqrstu", 4, "peloton", True),
        ("abcdefghijklmnopqrstu", 4, "both", False),  # 8 + 4 dummies
        ("AebQRNHPcgikDFsLojmtu", 4, "none", True),  # A holds 8
        ("AebQRNHPcgikDFsLojmtu", 3, "muscle", True),
        ("AebQRNHPcgikDFsLojmtu", 3, "both", False),
        ("AebQRNHPcgikDFsLojmtu", 4, "peloton", False),
    ],
)
def test_start_area_must_hold_every_rider_incl_dummies(clients, course, team_count, dummies, ok):
    # GT-1.6 with FR-11's capacities.
    data = payload(team_count=team_count, rules={"dummy_teams": dummies})
    data["stages"][2]["course"] = course
    if ok:
        response = clients["organiser"].post(URL, data, format="json")
        assert response.status_code == 201, response.content
    else:
        body = post_400(clients["organiser"], data)
        assert stage_error(body, 2, "course")


def test_finish_contradicting_the_course_is_a_400(clients):
    data = payload()
    data["stages"][0].update(course="abcdefghijklmnopqrstu", finish="ascent")
    data["stages"][1].update(course="abcfimetKGLHJsdopRQNU", finish="flat")
    body = post_400(clients["organiser"], data)
    assert stage_error(body, 0, "finish") and stage_error(body, 1, "finish")


def test_finish_defaults(clients):
    data = payload()
    data["stages"][0].update(course="abcfimetKGLHJsdopRQNU")  # U: ascent
    data["stages"][1].update(finish="ascent")  # no course: as given
    data["stages"][2].update(course="abcdefghijklmnopqrstu", finish="flat")
    body = clients["organiser"].post(URL, data, format="json").json()
    assert [s["finish"] for s in body["stages"]] == ["ascent", "ascent", "flat"]
    plain = clients["organiser"].post(URL, payload(), format="json").json()
    assert {s["finish"] for s in plain["stages"]} == {"flat"}


@pytest.mark.parametrize(
    ("stacks", "field"),
    [
        ([{"id": "m1", "type": "major", "side": "mountain", "square": 400}], "square"),
        ([{"id": "m1", "type": "huge", "side": "mountain", "square": 4}], "type"),
        ([{"id": "m1", "type": "major", "side": "left", "square": 4}], "side"),
        (
            [
                {"id": "m1", "type": "major", "side": "sprint", "square": 4},
                {"id": "m1", "type": "minor", "side": "sprint", "square": 9},
            ],
            "id",
        ),
    ],
    ids=["past-the-course", "type", "side", "duplicate-id"],
)
def test_bad_stacks_are_a_400(clients, stacks, field):
    data = payload()
    data["stages"][0].update(course="abcdefghijklmnopqrstu", stacks=stacks)
    body = post_400(clients["organiser"], data)
    assert any(field in item for item in body["stages"][0]["stacks"]), body


@pytest.mark.parametrize(
    ("team_list", "where"),
    [
        # (team index, rider index) of the rider whose specialist is wrong
        ([team("Red", sprinteur="grimpeur"), team("Blue"), team("Green")], [(0, 1)]),
        ([team("Red", rouleur="super_sprinteur"), team("Blue"), team("Green")], [(0, 0)]),
        ([team("Red", rouleur="wizard"), team("Blue"), team("Green")], [(0, 0)]),
        ([team("Red", rouleur="Grimpeur"), team("Blue"), team("Green")], [(0, 0)]),
        # GT-1.3: with three or more teams each Specialist exists once.
        (
            [team("Red", rouleur="grimpeur"), team("Blue", rouleur="grimpeur"), team("Green")],
            [(0, 0), (1, 0)],
        ),
        (
            [team("Red", sprinteur="flahute"), team("Blue"), team("Green", sprinteur="flahute")],
            [(0, 1), (2, 1)],
        ),
    ],
    ids=[
        "rouleur-specialist-on-sprinteur",
        "sprinteur-specialist-on-rouleur",
        "unknown",
        "capitalised",
        "twice-with-3-teams",
        "twice-with-3-teams-s",
    ],
)
def test_bad_specialist_is_a_400_at_the_rider(clients, team_list, where):
    body = post_400(clients["organiser"], payload(teams=team_list))
    for t, r in where:
        assert body["teams"][t]["riders"][r]["specialist"], body


def test_specialist_copies_with_two_teams(clients):
    # GT-1.3: with 2 teams each Specialist exists twice.
    two = [
        team("Red", rouleur="grimpeur", sprinteur="super_sprinteur"),
        team("Blue", rouleur="grimpeur", sprinteur="super_sprinteur"),
    ]
    response = clients["organiser"].post(URL, payload(teams=two), format="json")
    assert response.status_code == 201, response.content
    assert [r["specialist"] for t in response.json()["teams"] for r in t["riders"]] == [
        "grimpeur",
        "super_sprinteur",
        "grimpeur",
        "super_sprinteur",
    ]


def test_every_specialist_of_fr63_is_accepted_on_its_base(clients):
    rouleurs = ["baroudeur", "flandrien", "grimpeur", "domestique", "super_rouleur", "puncheur"]
    sprinteurs = [
        "descender",
        "polyvalent",
        "mountaineer",
        "squirrel",
        "super_sprinteur",
        "flahute",
    ]
    team_list = [
        team(name, rouleur=r, sprinteur=s)
        for name, r, s in zip(["A", "B", "C", "D", "E", "F"], rouleurs, sprinteurs, strict=True)
    ]
    response = clients["organiser"].post(URL, payload(teams=team_list), format="json")
    assert response.status_code == 201, response.content


@pytest.mark.parametrize(
    ("rest", "stages"),
    [([0], 3), ([3], 3), ([-1], 3), ([1], 1), ([1, 1], 3), (["x"], 3)],
    ids=["zero", "after-last", "negative", "one-stage", "twice", "not-a-number"],
)
def test_rest_day_out_of_range_is_a_400(clients, rest, stages):
    body = post_400(clients["organiser"], payload(stages=stages, rest_days_after=rest))
    assert "rest_days_after" in body


def test_rest_days_are_stored_sorted(clients):
    body = (
        clients["organiser"]
        .post(URL, payload(stages=5, rest_days_after=[4, 2]), format="json")
        .json()
    )
    assert body["rest_days_after"] == [2, 4]


@pytest.mark.parametrize(
    "riders",
    [
        [{"name": "A", "role": "rouleur"}, {"name": "B", "role": "rouleur"}],
        [{"name": "A", "role": "sprinteur"}, {"name": "B", "role": "sprinteur"}],
        [{"name": "A", "role": "rouleur"}],
        [
            {"name": "A", "role": "rouleur"},
            {"name": "B", "role": "sprinteur"},
            {"name": "C", "role": "sprinteur"},
        ],
        [],
        [{"name": "A", "role": "rouleur"}, {"name": "B", "role": "domestique"}],
    ],
    ids=["two-rouleurs", "two-sprinteurs", "one", "three", "none", "bad-role"],
)
def test_team_needs_exactly_a_rouleur_and_a_sprinteur(clients, riders):
    team_list = teams(3)
    team_list[1]["riders"] = riders
    body = post_400(clients["organiser"], payload(teams=team_list))
    assert "riders" in body["teams"][1], body


@pytest.mark.parametrize(
    ("team_count", "rules"),
    [(7, {}), (1, {}), (0, {}), (4, {"max_teams": 3}), (3, {"max_teams": 2})],
    ids=["7-of-6", "1", "none", "4-of-3", "3-of-2"],
)
def test_team_count_must_fit_max_teams(clients, team_count, rules):
    body = post_400(clients["organiser"], payload(team_count=team_count, rules=rules))
    assert "teams" in body


def test_max_teams_counts_no_dummies(clients):
    # GT-1.5: dummies do not count towards max_teams.
    data = payload(team_count=3, rules={"max_teams": 3, "dummy_teams": "both"})
    assert clients["organiser"].post(URL, data, format="json").status_code == 201


@pytest.mark.parametrize("stage_count", [0, 22])
def test_stage_count_is_1_to_21(clients, stage_count):
    body = post_400(clients["organiser"], payload(stages=stage_count))
    assert "stages" in body


def test_duplicate_team_names_are_a_400(clients):
    body = post_400(clients["organiser"], payload(teams=[team("Red"), team("red "), team("B")]))
    assert body["teams"][1]["name"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": ""}, "name"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"public": "maybe"}, "public"),
        ({"stages": "abc"}, "stages"),
        ({"teams": None}, "teams"),
    ],
)
def test_bad_top_level_values_are_a_400(clients, changes, field):
    body = post_400(clients["organiser"], tour_payload(**changes))
    assert field in body
