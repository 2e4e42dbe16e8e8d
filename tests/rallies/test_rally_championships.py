"""/api/rally-championships/: create, list, detail, add a rally, standings (RM-47..51)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.rallies.helpers import create_rally, sheet, submit
from tournament.rallies.models import ChampionshipRally, RallyChampionship

BASE = "/api/rally-championships/"


def payload(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"club": "velo-lisboa", "name": "Taça de Ralis 2026"}
    data.update(changes)
    return data


def create(client: Any, **changes: Any) -> dict[str, Any]:
    response = client.post(BASE, payload(**changes), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def one_stage_rally(
    clients: dict[str, Any], names: list[str], times: list[Any] | None, **changes: Any
) -> dict[str, Any]:
    """A one-stage rally of ``names``; ``times`` (one per driver) submits its only stage."""
    rally = create_rally(
        clients["organiser"],
        drivers=[{"name": n} for n in names],
        stages=[{"name": "SS1"}],
        **changes,
    )
    if times is not None:
        assert (
            submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, *times)).status_code == 202
        )
    return rally


def test_create_answers_201_with_the_detail_and_the_defaults(clients):
    r1 = create_rally(clients["organiser"])
    r2 = create_rally(clients["organiser"], name="Second")
    body = create(clients["organiser"], rallies=[r2["id"], r1["id"]])
    assert set(body) >= {
        "id",
        "club",
        "name",
        "public",
        "points",
        "power_stage",
        "power_stage_points",
        "drop_worst",
        "rallies",
    }
    assert (body["club"], body["public"], body["points"], body["power_stage"]) == (
        "velo-lisboa",
        True,
        "wrc-2010",
        False,
    )
    assert (body["power_stage_points"], body["drop_worst"]) == ([5, 4, 3, 2, 1], 0)
    assert body["rallies"] == [r2["id"], r1["id"]]  # championship order as given
    assert clients["anonymous"].get(f"{BASE}{body['id']}/").json() == body


def test_custom_table_and_settings_are_kept(clients):
    body = create(
        clients["organiser"],
        points=[10, 5, 1],
        power_stage=True,
        power_stage_points=[3, 1],
        drop_worst=1,
        public=False,
    )
    assert (
        body["points"],
        body["power_stage"],
        body["power_stage_points"],
        body["drop_worst"],
        body["public"],
    ) == ([10, 5, 1], True, [3, 1], 1, False)


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("organiser", 201),
        ("superuser", 201),
        ("scorekeeper", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_create(clients, role, code):
    assert clients[role].post(BASE, payload(), format="json").status_code == code
    assert RallyChampionship.objects.count() == (1 if code == 201 else 0)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"points": "f1-2010"}, "points"),
        ({"points": [10, 12]}, "points"),
        ({"points": [10, -1]}, "points"),
        ({"points": []}, "points"),
        ({"power_stage": "yes"}, "power_stage"),
        ({"power_stage_points": [1, 2]}, "power_stage_points"),
        ({"drop_worst": -1}, "drop_worst"),
        ({"drop_worst": 1.5}, "drop_worst"),
        ({"rules": {}}, "rules"),
        ({"seed": 4}, "seed"),
        ({"rallies": [999999]}, "rallies"),
        ({"rallies": ["x"]}, "rallies"),
        ({"name": ""}, "name"),
        ({"club": "nowhere"}, "club"),
    ],
)
def test_bad_settings_are_a_400_and_nothing_stored(clients, changes, field):
    response = clients["organiser"].post(BASE, payload(**changes), format="json")
    assert response.status_code == 400, response.content
    assert response.json()[field]
    assert not RallyChampionship.objects.exists()


def test_rallies_must_be_of_the_club_and_listed_once(clients):
    ours = create_rally(clients["organiser"])
    theirs = (
        clients["outsider"].post("/api/rallies/", {**_payload_for("porto")}, format="json").json()
    )
    for rallies in ([ours["id"], ours["id"]], [theirs["id"]]):
        response = clients["organiser"].post(BASE, payload(rallies=rallies), format="json")
        assert response.status_code == 400 and response.json()["rallies"]
    assert not RallyChampionship.objects.exists()


def _payload_for(club: str) -> dict[str, Any]:
    from tests.rallies.helpers import rally_payload

    return rally_payload(club=club, name="Porto rally")


def test_list_and_private_championships(clients):
    public = create(clients["organiser"])
    private = create(clients["organiser"], name="Private", public=False)
    for role, expected in [
        ("organiser", {public["id"], private["id"]}),
        ("scorekeeper", {public["id"], private["id"]}),
        ("superuser", {public["id"], private["id"]}),
        ("outsider", {public["id"]}),
        ("anonymous", {public["id"]}),
    ]:
        listed = clients[role].get(BASE).json()
        assert set(listed) == {"count", "next", "previous", "results"}
        assert {c["id"] for c in listed["results"]} == expected, role
    rally = create_rally(clients["organiser"])
    for role in ("outsider", "anonymous"):
        client = clients[role]
        url = f"{BASE}{private['id']}/"
        answers = [
            client.get(url),
            client.get(f"{url}standings/"),
            client.get(f"{url}standings/?after_rally=x"),
            client.post(f"{url}rallies/", {"rally": rally["id"]}, format="json"),
        ]
        assert [a.status_code for a in answers] == [404] * 4, role
    assert clients["anonymous"].get(f"{BASE}999999/").status_code == 404


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("organiser", 201),
        ("superuser", 201),
        ("scorekeeper", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_add_a_rally(clients, role, code):
    championship = create(clients["organiser"])
    rally = create_rally(clients["organiser"])
    response = clients[role].post(
        f"{BASE}{championship['id']}/rallies/", {"rally": rally["id"]}, format="json"
    )
    assert response.status_code == code, response.content
    if code == 201:
        assert response.json() == {**championship, "rallies": [rally["id"]]}
    assert ChampionshipRally.objects.count() == (1 if code == 201 else 0)


def test_adding_a_rally_twice_or_another_clubs_rally_is_a_400(clients):
    first = create_rally(clients["organiser"])
    championship = create(clients["organiser"], rallies=[first["id"]])
    url = f"{BASE}{championship['id']}/rallies/"
    theirs = clients["outsider"].post("/api/rallies/", _payload_for("porto"), format="json").json()
    for body in (
        {"rally": first["id"]},
        {"rally": theirs["id"]},
        {"rally": 999999},
        {},
        {"rally": "x"},
    ):
        response = clients["organiser"].post(url, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["rally"]
    second = create_rally(clients["organiser"], name="Second")
    assert clients["organiser"].post(url, {"rally": second["id"]}, format="json").json()[
        "rallies"
    ] == [first["id"], second["id"]]


# --- standings ---------------------------------------------------------------------------------


def standings(clients: dict[str, Any], championship_id: int, query: str = "") -> Any:
    return clients["anonymous"].get(f"{BASE}{championship_id}/standings/{query}")


def test_a_rally_counts_once_all_its_stages_are_resolved_in_order(clients):
    r1 = one_stage_rally(clients, ["Ana", "Rui"], [300, 310])
    r2 = create_rally(clients["organiser"], drivers=[{"name": "Rui"}, {"name": "Ana"}])
    r3 = one_stage_rally(clients, ["Ana", "Rui"], [330, 310])
    championship = create(clients["organiser"], rallies=[r1["id"], r2["id"], r3["id"]])
    body = standings(clients, championship["id"]).json()
    # r2 is incomplete, so r3 does not count yet (the longest run from the first).
    assert body == {
        "after_rally": 1,
        "drivers": [
            {
                "rank": 1,
                "name": "Ana",
                "points": 25,
                "wins": 1,
                "results": [1],
                "scores": [25],
                "power_stage_points": [0],
                "dropped": [],
            },
            {
                "rank": 2,
                "name": "Rui",
                "points": 18,
                "wins": 0,
                "results": [2],
                "scores": [18],
                "power_stage_points": [0],
                "dropped": [],
            },
        ],
    }
    for number in (1, 2):
        submit(clients["scorekeeper"], r2["id"], number, sheet(r2, 300, 320))
    assert standings(clients, championship["id"]).json()["after_rally"] == 1  # stage 3 missing
    submit(clients["scorekeeper"], r2["id"], 3, sheet(r2, 300, 320))
    body = standings(clients, championship["id"]).json()
    assert body["after_rally"] == 3
    assert [(d["name"], d["points"], d["results"]) for d in body["drivers"]] == [
        ("Rui", 18 + 25 + 25, [2, 1, 1]),
        ("Ana", 25 + 18 + 18, [1, 2, 2]),
    ]
    assert standings(clients, championship["id"], "?after_rally=1").json()["after_rally"] == 1


def test_names_match_across_rallies_case_and_spaces_aside(clients):
    r1 = one_stage_rally(clients, ["Ana  Lima", "Rui"], [300, 310])
    r2 = one_stage_rally(clients, [" ana lima", "Eva"], [320, 310])
    championship = create(clients["organiser"], rallies=[r1["id"], r2["id"]])
    body = standings(clients, championship["id"]).json()
    assert [(d["name"], d["points"], d["results"]) for d in body["drivers"]] == [
        ("Ana Lima", 25 + 18, [1, 2]),
        ("Eva", 25, [None, 1]),
        ("Rui", 18, [2, None]),
    ]


def test_power_stage_drop_worst_and_countback(clients):
    r1 = one_stage_rally(clients, ["A", "B", "C"], [300, 310, 320])
    r2 = one_stage_rally(clients, ["A", "B", "C"], [320, 300, 310])
    r3 = one_stage_rally(clients, ["A", "B", "C"], [310, 320, 300])
    championship = create(
        clients["organiser"],
        rallies=[r1["id"], r2["id"], r3["id"]],
        points=[10, 6, 3],
        power_stage=True,
        power_stage_points=[2, 1],
        drop_worst=1,
    )
    body = standings(clients, championship["id"]).json()
    # Each driver wins one rally (10 + 2 on its only stage, the power stage), is second once
    # (6 + 1) and third once (3); the third is dropped (RM-50): 19 each. Countback (RM-51):
    # one win each, one second each, one third each: a shared rank, listed in first-seen order.
    assert [(d["name"], d["rank"], d["points"], d["wins"]) for d in body["drivers"]] == [
        ("A", 1, 19, 1),
        ("B", 1, 19, 1),
        ("C", 1, 19, 1),
    ]
    assert body["drivers"][0]["scores"] == [12, 3, 7]
    assert body["drivers"][0]["power_stage_points"] == [2, 0, 1]
    assert body["drivers"][0]["dropped"] == [2]


def test_countback_breaks_a_tie_on_points(clients):
    r1 = one_stage_rally(clients, ["A", "B", "C"], [300, 310, 320])
    r2 = one_stage_rally(clients, ["A", "B", "C"], [330, 320, 300])
    championship = create(clients["organiser"], rallies=[r1["id"], r2["id"]], points=[10, 8, 2])
    body = standings(clients, championship["id"]).json()
    # A: 10 + 2 = 12, B: 8 + 8 = 16, C: 2 + 10 = 12; A and C tie on one win each, A listed
    # first, ranks shared as no place tells them apart.
    assert [(d["name"], d["rank"], d["points"]) for d in body["drivers"]] == [
        ("B", 1, 16),
        ("A", 2, 12),
        ("C", 2, 12),
    ]


def test_standings_before_any_counted_rally_and_bad_after_rally(clients):
    rally = create_rally(clients["organiser"])
    championship = create(clients["organiser"], rallies=[rally["id"]])
    assert standings(clients, championship["id"]).json() == {"after_rally": None, "drivers": []}
    for query in ("?after_rally=1", "?after_rally=0", "?after_rally=x"):
        response = standings(clients, championship["id"], query)
        assert response.status_code == 400 and response.json()["after_rally"]


def test_standings_query_count_does_not_grow_with_rallies_or_drivers(clients):
    small = create(clients["organiser"], rallies=[one_stage_rally(clients, ["A"], [300])["id"]])
    rallies = []
    for i in range(4):
        rally = create_rally(
            clients["organiser"], name=f"R{i}", drivers=[{"name": f"D{k}"} for k in range(8)]
        )
        for number in (1, 2, 3):
            submit(
                clients["scorekeeper"],
                rally["id"],
                number,
                sheet(rally, *(200 + k * 3 + i for k in range(8))),
            )
        rallies.append(rally["id"])
    big = create(clients["organiser"], name="Big", rallies=rallies)
    assert standings(clients, big["id"]).json()["after_rally"] == 4

    def count(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert clients["anonymous"].get(url).status_code == 200
        return len(ctx.captured_queries)

    assert count(f"{BASE}{small['id']}/standings/") == count(f"{BASE}{big['id']}/standings/")
    assert count(f"{BASE}{small['id']}/") == count(f"{BASE}{big['id']}/")
    assert count(BASE) <= 3
