"""The Formula D set-up pages: ``/clubs/<slug>/championships/new/`` and
``/championships/<id>/edit/`` (issue #15, items 3 and 4), for every role.

The page builds the API's create request and runs the kind's serializer: a page create equals
an API create of the same request; refused input comes back on its box and stores nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.setup_helpers import (
    admin_client,
    assert_page_create_equals_api_create,
    assert_refused,
    assert_refused_on_box,
    submit_results,
)
from tournament.championships.models import Championship, Driver, Race

NEW = "/clubs/velo-lisboa/championships/new/"

pytestmark = pytest.mark.django_db


def form(**changes: str) -> dict[str, str]:
    """A filled new-championship form: three drivers, two races (the second with two entered)."""
    data = {
        "name": "Taça Fórmula",
        "public": "on",
        "seed": "7",
        "rule_set": "basic",
        "points": "custom",
        "points-custom": "10, 8, 6, 5",
        "drivers-0-name": "Ana",
        "drivers-0-team": "Tejo",
        "drivers-1-name": "Rui",
        "drivers-1-team": "Tejo",
        "drivers-2-name": "Eva",
        "drivers-2-team": "",
        "drivers-3-name": "",
        "races-0-circuit": "monaco",
        "races-0-laps": "2",
        "races-0-drivers": "",
        "races-1-circuit": "monaco",
        "races-1-laps": "",
        "races-1-drivers": "ana, Eva",
        "rules-shown": "1",
        "rules-drop_worst": "1",
        "rules-points_finishers_only": "on",
        "rules-slipstream": "on",
        "rules-pole_bonus": "0",
        "rules-max_cars": "10",
    }
    data.update(changes)
    return data


def test_roles_on_the_new_page(web: dict[str, Client]) -> None:
    assert web["organiser"].get(NEW).status_code == 200
    assert web["superuser"].get(NEW).status_code == 200
    assert_refused(web, NEW)
    assert "/login/" in web["anonymous"].get(NEW)["Location"]
    assert web["organiser"].get("/clubs/nowhere/championships/new/").status_code == 404
    # Refused posts store nothing.
    for role in ("scorekeeper", "outsider", "anonymous"):
        web[role].post(NEW, form())
    assert not Championship.objects.exists()


def test_the_new_page_shows_the_catalogue_points_and_rules(web: dict[str, Client]) -> None:
    page = web["organiser"].get(NEW).content.decode()
    assert 'value="monaco"' in page  # the catalogue's circuit
    assert 'data-points-table="f1-2010"' in page and "<td>25</td>" in page
    assert 'name="rules-start_great_min"' in page and 'value="17"' in page
    assert 'name="rules-downshift_table-3-engine"' in page  # a composite's grid box
    assert 'data-when="advanced"' in page
    assert "JSON" not in page and "{}" not in page


def test_page_create_equals_api_create(web: dict[str, Client], clients: dict[str, Any]) -> None:
    response = web["organiser"].post(NEW, form())
    championship = Championship.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/championships/{championship.pk}/"
    api = clients["organiser"].post(
        "/api/championships/",
        {
            "club": "velo-lisboa",
            "name": "Taça Fórmula",
            "seed": 7,
            "rule_set": "basic",
            "points": [10, 8, 6, 5],
            "drivers": [
                {"name": "Ana", "team": "Tejo"},
                {"name": "Rui", "team": "Tejo"},
                {"name": "Eva", "team": None},
            ],
            "races": [
                {"circuit": "monaco", "laps": 2},
                {"circuit": "monaco", "drivers": ["ana", "Eva"]},
            ],
            "rules": {"drop_worst": 1},
        },
        format="json",
    )
    by_page = assert_page_create_equals_api_create(clients, "championships", championship.pk, api)
    assert by_page["races"][1]["drivers"] == ["Ana", "Eva"]
    assert by_page["races"][1]["laps"] == 1  # FD-37's default


@pytest.mark.parametrize(
    ("changes", "box", "fragment"),
    [
        ({"name": ""}, "name", "may not be blank"),
        ({"points-custom": "3, 5"}, "points-custom", "must not increase"),
        ({"races-1-drivers": "Ana, Zé"}, "races-1-drivers", "Zé is not a driver"),
        ({"races-0-laps": "3"}, "races-0-laps", "at most 2"),
        ({"drivers-1-name": "ana"}, "drivers-1-name", "unique"),
        # A blank row first: the rows are renumbered, the message still on the right box.
        (
            {"drivers-0-name": "", "drivers-0-team": "", "drivers-2-name": "Rui"},
            "drivers-1-name",
            "unique",
        ),
        ({"rules-start_great_min": "1"}, "rules-start_great_min", "start_stall_max"),
        ({"rules-blocking_table-brakes": "1 2"}, "rules-blocking_table-brakes", "same length"),
        ({"races-0-circuit": "other", "races-0-circuit_name": ""}, "races-0-circuit", "blank"),
        ({"drivers-0-build-tyres": "6"}, "drivers-0-build-tyres", "advanced rule set"),
    ],
)
def test_bad_input_lands_on_its_box(
    web: dict[str, Client], changes: dict[str, str], box: str, fragment: str
) -> None:
    response = web["organiser"].post(NEW, form(**changes))
    page = assert_refused_on_box(response, box, fragment, after=2500)
    # The message is drawn right after the box it concerns (its own error paragraph).
    assert f'id="id_{box}-err"' in page or f'id="id_{box}"' in page
    assert not Championship.objects.exists()
    assert not Driver.objects.exists() and not Race.objects.exists()


def test_rows_are_added_and_removed_without_javascript(web: dict[str, Client]) -> None:
    page = web["organiser"].post(NEW, form(action="add:races")).content.decode()
    assert 'name="races-2-circuit"' in page
    page = web["organiser"].post(NEW, form(action="remove:drivers:0")).content.decode()
    assert 'value="Rui"' in page and 'value="Ana"' not in page
    assert not Championship.objects.exists()


def test_advanced_builds_and_rules(web: dict[str, Client]) -> None:
    build = {
        "tyres": "8",
        "brakes": "3",
        "gearbox": "3",
        "body": "2",
        "engine": "2",
        "handling": "2",
    }
    data = form(
        **{"rule_set": "advanced", "rules-own_car_build": "on", "races-0-laps": "3"},
        **{"rules-start_great_min": "20", "rules-collision_fail_max": "1"},
        **{f"drivers-0-build-{zone}": wp for zone, wp in build.items()},
    )
    response = web["organiser"].post(NEW, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    championship = Championship.objects.get()
    assert championship.rule_set == "advanced" and championship.rules["own_car_build"] is True
    build_of_ana = Driver.objects.get(championship=championship, name="Ana").build
    assert build_of_ana is not None and build_of_ana["tyres"] == 8
    assert championship.rules["start_great_min"] == 20


def edit_url(championship: Championship) -> str:
    return f"/championships/{championship.pk}/edit/"


def test_edit_before_and_after_the_first_result(
    web: dict[str, Client], clients: dict[str, Any]
) -> None:
    web["organiser"].post(NEW, form())
    championship = Championship.objects.get()
    url = edit_url(championship)
    assert_refused(web, url)
    page = web["organiser"].get(url).content.decode()
    assert 'value="Taça Fórmula"' in page and 'value="ana, Eva"' not in page
    assert 'value="Ana, Eva"' in page  # the stored entry list, by the drivers' names
    # Before results: the set-up changes (a fourth driver, the rule back to its default).
    changed = form(**{"drivers-3-name": "Gil", "rules-drop_worst": "0", "name": "Taça 2"})
    assert web["organiser"].post(url, changed).status_code == 302
    championship.refresh_from_db()
    assert championship.name == "Taça 2" and championship.rules["drop_worst"] == 0
    assert Driver.objects.filter(championship=championship).count() == 4
    # After a result: only the name and the visibility.
    detail = clients["organiser"].get(f"/api/championships/{championship.pk}/").json()
    ids = detail["races"][0]["driver_ids"]
    rows = [
        {"driver": pk, "position": n, "status": "finished", "laps": 2}
        for n, pk in enumerate(ids, start=1)
    ]
    submit_results(clients, f"/api/championships/{championship.pk}/races/1/results/", rows)
    page = web["organiser"].get(url).content.decode()
    assert "The set-up is locked." in page and 'name="drivers-0-name"' not in page
    response = web["organiser"].post(url, {"name": "Taça final", "action": ""})
    assert response.status_code == 302
    championship.refresh_from_db()
    assert championship.name == "Taça final" and championship.public is False
    assert Driver.objects.filter(championship=championship).count() == 4


def test_a_private_championship_edit_is_404_to_outsiders(
    web: dict[str, Client],
) -> None:
    web["organiser"].post(NEW, form(public=""))
    url = edit_url(Championship.objects.get())
    assert web["outsider"].get(url).status_code == 404
    assert web["organiser"].get(url).status_code == 200


# --- the admin runs the same set-up checks (issue #15, item 7) --------------------------------


def admin_post(club: int, races: list[tuple[str, str]]) -> dict[str, Any]:
    """The championship admin page: two drivers, the races as (circuit, drivers JSON)."""
    data: dict[str, Any] = {
        "club": club,
        "name": "Admin Cup",
        "public": "on",
        "seed": 5,
        "rule_set": "basic",
        "points": "[10, 8, 6]",
        "points_preset": "",
        "rules": "{}",
        "drivers-TOTAL_FORMS": 2,
        "drivers-INITIAL_FORMS": 0,
        "races-TOTAL_FORMS": len(races),
        "races-INITIAL_FORMS": 0,
    }
    for i, name in enumerate(("Ana", "Rui")):
        data |= {f"drivers-{i}-order": i + 1, f"drivers-{i}-name": name, f"drivers-{i}-team": ""}
    for i, (circuit, entered) in enumerate(races):
        data |= {f"races-{i}-number": i + 1, f"races-{i}-circuit": circuit}
        data |= {f"races-{i}-laps": 1, f"races-{i}-drivers": entered}
    return data


def test_the_admin_refuses_what_the_api_refuses(users: dict[str, Any]) -> None:
    from tournament.clubs.models import Club

    admin = admin_client(users)
    club = Club.objects.get(slug="velo-lisboa").pk
    add = "/admin/championships/championship/add/"
    for races, message in (
        ([("monaco", "[]")], "A race needs at least one driver."),  # an entry list naming none
        ([("monaco", '["Zé"]')], "Zé is not a driver of this championship."),
        ([], "A championship has 1 to 40 races."),
        ([("", "")], "This field is required."),
    ):
        response = admin.post(add, admin_post(club, races))
        assert response.status_code == 200, races
        assert message in response.content.decode(), races
    assert not Championship.objects.exists() and not Race.objects.exists()
    # Entry lists by name work for a championship that does not exist yet.
    response = admin.post(add, admin_post(club, [("monaco", '["Rui"]'), ("monaco", "")]))
    assert response.status_code == 302, response.content.decode()[:2000]
    championship = Championship.objects.get()
    rui = Driver.objects.get(championship=championship, name="Rui").pk
    first = Race.objects.filter(competition=championship).order_by("number").first()
    assert first is not None and first.drivers == [rui]


@pytest.mark.parametrize(
    ("language", "heading", "rule"),
    [
        ("pt", "Novo campeonato de Formula D", "Carros por corrida"),
        ("es", "Nuevo campeonato de Formula D", "Coches por carrera"),
        ("fr", "Nouveau championnat Formula D", "Voitures par course"),
    ],
)
def test_the_page_speaks_the_users_language(
    web: dict[str, Client], language: str, heading: str, rule: str
) -> None:
    page = web["organiser"].get(NEW, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert heading in page and rule in page
