"""The rally set-up pages: ``/clubs/<slug>/rallies/new/`` and ``/rallies/<id>/edit/`` (issue #15,
items 3 and 4), for every role; page create equals API create; every rule a typed box."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.setup_helpers import (
    admin_client,
    assert_organisers_only,
    assert_page_create_equals_api_create,
    assert_refused,
    assert_refused_on_box,
    driver_ids,
    submit_results,
)
from tournament.rallies.models import Driver, Rally, RallyStage

NEW = "/clubs/velo-lisboa/rallies/new/"

pytestmark = pytest.mark.django_db


def form(**changes: str) -> dict[str, str]:
    data = {
        "name": "Rali de Sintra",
        "public": "on",
        "seed": "11",
        "drivers-0-name": "Ana",
        "drivers-1-name": "Rui",
        "drivers-2-name": "",
        "stages-0-name": "SS1 Pena",
        "stages-0-layout": "gravel-flats",
        "stages-1-name": "SS2 Azoia",
        "stages-1-layout": "",
        "rules-shown": "1",
        "rules-super_rally": "on",
        "rules-super_rally_penalty_s": "240",
        "rules-tokens_on_big_attack_loc": "on",
        "rules-repair_between_stages": "on",
        "rules-crash_draws-6-3": "5",
    }
    data.update(changes)
    return data


def test_roles_and_boxes(web: dict[str, Client]) -> None:
    assert_organisers_only(web, NEW, form(), Rally)
    page = web["organiser"].get(NEW).content.decode()
    # Super Rally first, every rule a typed box: the RM-38 table, RM-1's faces, RM-34's cards.
    assert page.index("rules-super_rally") < page.index("rules-hazard_faces")
    for name in ("rules-crash_draws-6-3", "rules-hazard_faces-gear-1", "rules-time_card_s-1"):
        assert f'name="{name}"' in page
    assert 'value="gravel-flats"' in page and "JSON" not in page


def test_page_create_equals_api_create(web: dict[str, Client], clients: dict[str, Any]) -> None:
    assert web["organiser"].post(NEW, form()).status_code == 302
    rally = Rally.objects.get()
    draws = {"1": [0, 0, 0, 0], "2": [0, 0, 0, 0], "3": [0, 0, 0, 1], "4": [0, 0, 1, 2]}
    draws |= {"5": [0, 1, 2, 3], "6": [0, 2, 3, 5]}
    api = clients["organiser"].post(
        "/api/rallies/",
        {
            "club": "velo-lisboa",
            "name": "Rali de Sintra",
            "seed": 11,
            "drivers": [{"name": "Ana"}, {"name": "Rui"}],
            "stages": [{"name": "SS1 Pena", "layout": "gravel-flats"}, {"name": "SS2 Azoia"}],
            "rules": {"super_rally_penalty_s": 240, "crash_draws": draws},
        },
        format="json",
    )
    by_page = assert_page_create_equals_api_create(clients, "rallies", rally.pk, api)
    assert by_page["rules"]["crash_draws"]["6"] == [0, 2, 3, 5]


@pytest.mark.parametrize(
    ("changes", "box", "fragment"),
    [
        ({"drivers-0-name": "", "drivers-1-name": ""}, "drivers-0-name", "may not be empty"),
        (
            {"stages-0-name": "", "stages-0-layout": "", "stages-1-name": ""},
            "stages-0-name",
            "may not be empty",
        ),
        ({"drivers-1-name": " ana "}, "drivers-1-name", "unique"),
        ({"rules-loc_card_s": "40"}, "rules-loc_card_s", "worth more"),
        ({"rules-hazard_faces-gear-2": "9"}, "rules-hazard_faces-gear-1", "at most 6"),
        ({"rules-super_rally_penalty_s": "x"}, "rules-super_rally_penalty_s", "whole number"),
    ],
)
def test_bad_input_lands_on_its_box(
    web: dict[str, Client], changes: dict[str, str], box: str, fragment: str
) -> None:
    response = web["organiser"].post(NEW, form(**changes))
    assert_refused_on_box(response, box, fragment, before=1500, after=2500)
    assert not Rally.objects.exists() and not Driver.objects.exists()
    assert not RallyStage.objects.exists()


def test_edit_then_lock(web: dict[str, Client], clients: dict[str, Any]) -> None:
    web["organiser"].post(NEW, form())
    rally = Rally.objects.get()
    url = f"/rallies/{rally.pk}/edit/"
    assert_refused(web, url)
    page = web["organiser"].get(url).content.decode()
    assert 'value="240"' in page and 'value="SS2 Azoia"' in page
    # Put the penalty back to its default: the edit sends it (a PATCH merges the rules).
    changed = form(**{"rules-super_rally_penalty_s": "300", "stages-2-name": "SS3"})
    assert web["organiser"].post(url, changed).status_code == 302
    rally.refresh_from_db()
    assert rally.rules["super_rally_penalty_s"] == 300 and rally.stages.count() == 3
    ids = driver_ids(clients, "rallies", rally.pk)
    rows = [{"driver": ids[0], "time": 300}, {"driver": ids[1], "time": "5:10"}]
    submit_results(clients, f"/api/rallies/{rally.pk}/stages/1/results/", rows)
    page = web["organiser"].get(url).content.decode()
    assert "The set-up is locked." in page and 'name="rules-super_rally"' not in page
    assert web["organiser"].post(url, {"name": "Rali 2"}).status_code == 302
    rally.refresh_from_db()
    assert rally.name == "Rali 2" and rally.public is False and rally.stages.count() == 3


# --- rally championships ----------------------------------------------------------------------

CHAMP_NEW = "/clubs/velo-lisboa/rally-championships/new/"


def two_rallies(web: dict[str, Client]) -> list[Rally]:
    web["organiser"].post(NEW, form())
    web["organiser"].post(NEW, form(name="Rali do Douro"))
    return list(Rally.objects.order_by("pk"))


def first_stage_result(clients: dict[str, Any], rally: Rally) -> None:
    """Stage 1 of ``rally`` resolved: its first two drivers' times (the rally locks)."""
    ids = driver_ids(clients, "rallies", rally.pk)
    rows = [{"driver": ids[0], "time": 300}, {"driver": ids[1], "time": 310}]
    submit_results(clients, f"/api/rallies/{rally.pk}/stages/1/results/", rows)


def champ_form(rallies: list[Rally], **changes: str) -> dict[str, str]:
    data = {
        "name": "Taça de Ralis",
        "public": "on",
        "points": "wrc-2010",
        "power_stage": "on",
        "power_stage_points": "3, 2, 1",
        "drop_worst": "0",
        f"pick-{rallies[0].pk}": "on",
        f"order-{rallies[0].pk}": "2",
        f"pick-{rallies[1].pk}": "on",
        f"order-{rallies[1].pk}": "1",
    }
    data.update(changes)
    return data


def test_rally_championship_new_page(web: dict[str, Client], clients: dict[str, Any]) -> None:
    from tournament.rallies.models import RallyChampionship

    rallies = two_rallies(web)
    assert_refused(web, CHAMP_NEW)
    page = web["organiser"].get(CHAMP_NEW).content.decode()
    assert "Rali do Douro" in page and 'data-points-table="wrc-2025"' in page
    bad = web["organiser"].post(CHAMP_NEW, champ_form(rallies, power_stage_points="1, 3"))
    assert_refused_on_box(bad, "power_stage_points", "must not increase")
    assert not RallyChampionship.objects.exists()
    response = web["organiser"].post(CHAMP_NEW, champ_form(rallies))
    championship = RallyChampionship.objects.get()
    assert response["Location"] == f"/rally-championships/{championship.pk}/"
    api = clients["organiser"].post(
        "/api/rally-championships/",
        {
            "club": "velo-lisboa",
            "name": "Taça de Ralis",
            "points": "wrc-2010",
            "power_stage": True,
            "power_stage_points": [3, 2, 1],
            "drop_worst": 0,
            "rallies": [rallies[1].pk, rallies[0].pk],
        },
        format="json",
    )
    assert_page_create_equals_api_create(clients, "rally-championships", championship.pk, api)


def test_rally_championship_edit_and_lock(web: dict[str, Client], clients: dict[str, Any]) -> None:
    from tournament.rallies.models import RallyChampionship

    rallies = two_rallies(web)
    web["organiser"].post(CHAMP_NEW, champ_form(rallies, **{f"pick-{rallies[1].pk}": ""}))
    championship = RallyChampionship.objects.get()
    url = f"/rally-championships/{championship.pk}/edit/"
    assert web["scorekeeper"].get(url).status_code == 403
    assert web["outsider"].get(url).status_code == 403
    changed = champ_form(rallies, drop_worst="1", points="custom", **{"points-custom": "10 5"})
    assert web["organiser"].post(url, changed).status_code == 302
    championship.refresh_from_db()
    assert championship.points == [10, 5] and championship.drop_worst == 1
    assert [e.rally_id for e in championship.entries.order_by("order")] == [
        rallies[1].pk,
        rallies[0].pk,
    ]
    # A result in one of its rallies: the settings lock, the name still changes.
    first_stage_result(clients, rallies[0])
    page = web["organiser"].get(url).content.decode()
    assert "The set-up is locked." in page and 'name="drop_worst"' not in page
    response = web["organiser"].post(url, champ_form(rallies, name="Taça 2026", drop_worst="3"))
    assert response.status_code == 302
    championship.refresh_from_db()
    assert championship.name == "Taça 2026" and championship.drop_worst == 1
    # Moving a rally that has results is refused, nothing changes.
    moved = champ_form(rallies, **{f"order-{rallies[0].pk}": "1", f"order-{rallies[1].pk}": "2"})
    response = web["organiser"].post(url, moved)
    assert response.status_code == 200 and "stay in their place" in response.content.decode()
    first = championship.entries.order_by("order").first()
    assert first is not None and first.rally_id == rallies[1].pk


def test_the_admin_refuses_a_rally_without_stages_or_another_clubs_rally(
    users: dict[str, Any], web: dict[str, Client]
) -> None:
    from tournament.clubs.models import Club
    from tournament.rallies.models import RallyChampionship

    admin = admin_client(users)
    club = Club.objects.get(slug="velo-lisboa").pk
    data: dict[str, Any] = {
        "club": club,
        "name": "Admin Rally",
        "public": "on",
        "seed": 3,
        "rules": "{}",
        "drivers-TOTAL_FORMS": 1,
        "drivers-INITIAL_FORMS": 0,
        "drivers-0-order": 1,
        "drivers-0-name": "Ana",
        "stages-TOTAL_FORMS": 0,
        "stages-INITIAL_FORMS": 0,
    }
    response = admin.post("/admin/rallies/rally/add/", data)
    assert response.status_code == 200 and "may not be empty" in response.content.decode()
    assert not Rally.objects.exists()
    # A rally championship of velo-lisboa may not take a rally of another club (the API's 400).
    other = Club.objects.get(slug="porto")
    users["organiser"].memberships.create(club=other, role="organiser")
    web["organiser"].post("/clubs/porto/rallies/new/", form(name="Rali do Porto"))
    porto_rally = Rally.objects.get(club=other)
    champ = {
        "club": club,
        "name": "Taça",
        "public": "on",
        "points": '"wrc-2010"',
        "power_stage_points": "[5, 4, 3, 2, 1]",
        "drop_worst": 0,
        "entries-TOTAL_FORMS": 1,
        "entries-INITIAL_FORMS": 0,
        "entries-0-order": 1,
        "entries-0-rally": porto_rally.pk,
    }
    response = admin.post("/admin/rallies/rallychampionship/add/", champ)
    assert response.status_code == 200, response.status_code
    assert f"No rally of this club has the id {porto_rally.pk}." in response.content.decode()
    assert not RallyChampionship.objects.exists()


def test_the_api_patch_of_a_rally_championship(
    web: dict[str, Client], clients: dict[str, Any]
) -> None:
    """``PATCH /api/rally-championships/{id}/``: the edit page's serializer and service."""
    rallies = two_rallies(web)
    created = (
        clients["organiser"]
        .post(
            "/api/rally-championships/",
            {"club": "velo-lisboa", "name": "Taça", "rallies": [rallies[0].pk]},
            format="json",
        )
        .json()
    )
    url = f"/api/rally-championships/{created['id']}/"
    assert clients["anonymous"].patch(url, {"name": "X"}, format="json").status_code == 401
    assert clients["scorekeeper"].patch(url, {"name": "X"}, format="json").status_code == 403
    assert clients["outsider"].patch(url, {"name": "X"}, format="json").status_code == 403
    bad = clients["organiser"].patch(url, {"drop_worst": -1, "seed": 3}, format="json")
    assert bad.status_code == 400 and set(bad.json()) == {"seed"}
    bad = clients["organiser"].patch(url, {"power_stage_points": [1, 2]}, format="json")
    assert bad.status_code == 400 and "power_stage_points" in bad.json()
    ok = clients["organiser"].patch(
        url, {"points": [10, 5], "rallies": [rallies[1].pk, rallies[0].pk]}, format="json"
    )
    assert ok.status_code == 200, ok.content
    assert ok.json()["points"] == [10, 5] and ok.json()["rallies"] == [rallies[1].pk, rallies[0].pk]
    first_stage_result(clients, rallies[0])
    assert clients["organiser"].patch(url, {"drop_worst": 1}, format="json").status_code == 409
    assert clients["organiser"].patch(url, {"name": "Taça 2"}, format="json").status_code == 200
