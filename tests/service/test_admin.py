"""An organiser runs a tour from the admin, seeing only the clubs they organise."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.conftest import PASSWORD, riders_of, stage_rows
from tournament.clubs.models import Club
from tournament.tours.models import Rider, Stage, Team, Tour

pytestmark = pytest.mark.django_db


def _login(users: dict[str, Any], name: str) -> Client:
    user = users[name]
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_organiser_sees_only_own_clubs_tours(users, tour, clients):
    other = clients["outsider"].post("/api/tours/", {**_other_tour(tour)}, format="json")
    assert other.status_code == 201, other.content
    client = _login(users, "organiser")
    page = client.get("/admin/tours/tour/")
    assert page.status_code == 200
    assert tour["name"] in page.content.decode()
    assert "Porto Tour" not in page.content.decode()
    assert client.get(f"/admin/tours/tour/{other.json()['id']}/change/").status_code in (302, 404)
    assert client.get(f"/admin/tours/tour/{tour['id']}/change/").status_code == 200


def test_each_stage_of_the_tour_page_links_to_its_results_form(users, tour):
    client = _login(users, "organiser")
    page = client.get(f"/admin/tours/tour/{tour['id']}/change/").content.decode()
    for stage in Stage.objects.filter(competition_id=tour["id"]):
        assert f'href="/admin/tours/stage/{stage.pk}/results/"' in page


def test_scorekeeper_without_staff_cannot_use_admin(users):
    client = Client()
    assert client.login(username="scorekeeper", password=PASSWORD)
    assert client.get("/admin/tours/tour/").status_code == 302  # to the admin login


def test_results_entered_in_admin_resolve_the_stage(
    users, tour, django_capture_on_commit_callbacks
):
    client = _login(users, "organiser")
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    url = f"/admin/tours/stage/{stage.pk}/results/"
    assert client.get(url).status_code == 200
    rows = stage_rows(tour)
    data = _formset(rows)
    data["form-0-seconds"] = "7"  # not on the Timing tile: the service's GT-11.3 message
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Timing tile" in response.content.decode() or "timing" in response.content.decode()
    stage.refresh_from_db()
    assert stage.version == 0
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, _formset(rows))
    assert response.status_code == 302
    stage.refresh_from_db()
    assert (stage.version, stage.status) == (1, "resolved")
    assert len(riders_of(tour)) == len(stage.results)


def test_resolve_again_action_requeues_failed_stage(
    users, tour, clients, django_capture_on_commit_callbacks
):
    clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    Stage.objects.filter(pk=stage.pk).update(status="failed", error="database unavailable")
    client = _login(users, "organiser")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/admin/tours/stage/", {"action": "resolve_again", "_selected_action": [stage.pk]}
        )
    assert response.status_code == 302
    stage.refresh_from_db()
    assert (stage.status, stage.error) == ("resolved", "")


def _formset(rows: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": str(len(rows)),
        "form-INITIAL_FORMS": str(len(rows)),
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{i}-{key}"] = "" if value is None else str(value)
    return data


def _other_tour(tour: dict[str, Any]) -> dict[str, Any]:
    from tests.conftest import tour_payload

    return tour_payload(club="porto", name="Porto Tour")


def _tour_form(teams: list[dict[str, str]], stages: int = 2, **fields: Any) -> dict[str, Any]:
    """The admin's "add tour" page as a browser posts it: the tour, its stages and teams."""
    data: dict[str, Any] = {
        "club": str(Club.objects.get(slug="velo-lisboa").pk),
        "name": "Admin Tour",
        "public": "on",
        "seed": "5",
        "rules": "{}",
        "stages-TOTAL_FORMS": str(stages),
        "stages-INITIAL_FORMS": "0",
        "teams-TOTAL_FORMS": str(len(teams)),
        "teams-INITIAL_FORMS": "0",
        **fields,
    }
    for i in range(stages):
        data |= {f"stages-{i}-number": str(i + 1), f"stages-{i}-name": f"Etapa {i + 1}"}
        data |= {f"stages-{i}-finish": "flat", f"stages-{i}-stacks": "[]"}
    for i, team in enumerate(teams):
        data |= {f"teams-{i}-order": str(i + 1), **{f"teams-{i}-{k}": v for k, v in team.items()}}
    return data


def _team(name: str, rouleur: str = "", sprinteur: str = "") -> dict[str, str]:
    return {"name": name, "player": "", "rouleur": rouleur, "sprinteur": sprinteur}


def test_admin_creates_a_tour_checked_like_the_api(users):
    client = _login(users, "organiser")
    data = _tour_form([_team("Red", "Ana R", "Ana S"), _team("Blue", "Rui R", "Rui S")])
    data["teams-0-rouleur_specialist"] = "grimpeur"
    response = client.post("/admin/tours/tour/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tour = Tour.objects.get(name="Admin Tour")
    riders = Rider.objects.filter(team__tour=tour).order_by("team__order", "role")
    assert [(r.team.name, r.name, r.role, r.specialist) for r in riders] == [
        ("Red", "Ana R", "rouleur", "grimpeur"),
        ("Red", "Ana S", "sprinteur", ""),
        ("Blue", "Rui R", "rouleur", ""),
        ("Blue", "Rui S", "sprinteur", ""),
    ]
    assert Stage.objects.filter(competition=tour).count() == 2
    # The effective rules, as the API stores them (every parameter at its value).
    assert tour.rules["podium_tp"] and len(tour.specialist_order) == 2
    # The page shows the riders on their team's row again.
    page = client.get(f"/admin/tours/tour/{tour.pk}/change/").content.decode()
    assert 'value="Ana R"' in page and 'value="Rui S"' in page


def test_admin_refuses_a_tour_whose_team_has_no_riders_and_stores_nothing(users):
    client = _login(users, "organiser")
    data = _tour_form([_team("Red", "Ana R", "Ana S"), _team("Blue")])
    response = client.post("/admin/tours/tour/add/", data)
    assert response.status_code == 200  # the page again, with the errors
    html = response.content.decode()
    # The API's message (tournament/tours/setup.py), on the row of the team that lacks riders.
    assert "A team has exactly two riders: one rouleur and one sprinteur." in html
    assert "errornote" in html
    assert not Tour.objects.filter(name="Admin Tour").exists()
    assert not Team.objects.exists() and not Rider.objects.exists() and not Stage.objects.exists()


def test_admin_shows_each_set_up_error_where_it_belongs(users):
    client = _login(users, "organiser")
    # One team (the API wants 2 or more), a Rest Day after the last stage, an unknown rule.
    data = _tour_form([_team("Red", "Ana R", "Ana S")], rules='{"no_such_rule": 1}')
    data["stages-1-rest_day_after"] = "on"
    response = client.post("/admin/tours/tour/add/", data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "A tour has 2 to" in html  # above the teams
    assert "A Rest Day sits between two stages" in html  # above the stages
    assert "no_such_rule: Unknown rule parameter." in html  # on the rules box
    assert not Tour.objects.exists() and not Stage.objects.exists()


def _inline(prefix: str, rows: list[dict[str, str]]) -> dict[str, str]:
    data = {f"{prefix}-TOTAL_FORMS": str(len(rows)), f"{prefix}-INITIAL_FORMS": "0"}
    for i, row in enumerate(rows):
        data |= {f"{prefix}-{i}-{key}": value for key, value in row.items()}
    return data


def _rally_form(*drivers: str) -> dict[str, str]:
    club = str(Club.objects.get(slug="velo-lisboa").pk)
    return {
        "club": club,
        "name": "Admin Rally",
        "public": "on",
        "seed": "3",
        "rules": "{}",
        **_inline("drivers", [{"order": str(i), "name": n} for i, n in enumerate(drivers, 1)]),
        **_inline("stages", [{"number": "1", "name": "SS1", "layout": "null"}]),
    }


def test_admin_checks_a_rally_like_the_api(users):
    from tournament.rallies.models import Driver, Rally

    client = _login(users, "organiser")
    response = client.post("/admin/rallies/rally/add/", _rally_form("Ana", "ana "))
    assert response.status_code == 200
    assert "Driver names must be unique within a rally." in response.content.decode()
    assert not Rally.objects.exists() and not Driver.objects.exists()
    response = client.post("/admin/rallies/rally/add/", _rally_form("Ana", "Rui"))
    assert response.status_code == 302, response.content.decode()[:3000]
    rally = Rally.objects.get(name="Admin Rally")
    assert [d.name for d in rally.drivers.order_by("order")] == ["Ana", "Rui"]
    assert rally.rules  # the effective rules, stored whole as the API does


def _championship_form(points: str, *drivers: str) -> dict[str, str]:
    club = str(Club.objects.get(slug="velo-lisboa").pk)
    rows = [
        {"order": str(i), "name": n, "team": "", "build": "null"} for i, n in enumerate(drivers, 1)
    ]
    return {
        "club": club,
        "name": "Admin Cup",
        "public": "on",
        "seed": "3",
        "rule_set": "basic",
        "points": points,
        "points_preset": "",
        "rules": "{}",
        **_inline("drivers", rows),
        **_inline("races", [{"number": "1", "circuit": "monaco", "laps": "1", "drivers": ""}]),
    }


def test_admin_checks_a_championship_like_the_api(users):
    from tournament.championships.models import Championship, Race

    client = _login(users, "organiser")
    response = client.post(
        "/admin/championships/championship/add/", _championship_form('"nope"', "Ana")
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_points_error"' in html  # the API's points message, on the points box
    assert not Championship.objects.exists() and not Race.objects.exists()
    response = client.post(
        "/admin/championships/championship/add/", _championship_form("[10, 8, 6]", "Ana", "Rui")
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    championship = Championship.objects.get(name="Admin Cup")
    assert championship.points == [10, 8, 6] and championship.rules
    # No driver listed for the race: every driver, as the API enters them (FD-78).
    drivers = dict(championship.drivers.values_list("name", "pk"))
    race = Race.objects.get(competition=championship)
    assert race.drivers == [drivers["Ana"], drivers["Rui"]]


def test_a_tour_with_results_shows_its_set_up_read_only(users, tour, clients):
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    assert response.status_code == 202
    client = _login(users, "organiser")
    page = client.get(f"/admin/tours/tour/{tour['id']}/change/").content.decode()
    assert "Ana R, Ana S" in page  # the riders, shown and no longer boxes
    assert 'name="teams-0-rouleur"' not in page and 'name="stages-0-course"' not in page
    assert "After stage 1" in page  # the standings summary
