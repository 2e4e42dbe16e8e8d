"""League pages (standings, race page, the scorekeeper form), the home cards and the admin."""

from __future__ import annotations

from typing import Any

import pytest

from tests.leagues.helpers import create, rows, submit
from tests.page_checks import assert_private_outside_the_club, browser, queries
from tournament.leagues.models import Driver, League, Race

pytestmark = pytest.mark.django_db

ORDER = ["Ana", "Rui", "Eva"]


@pytest.fixture
def played(clients) -> dict[str, Any]:
    """Two resolved races: USA (Rui dnf, a bonus point for Eva), Italy (Ana and Eva)."""
    league = create(clients["organiser"])
    submit(clients["scorekeeper"], league, 1, rows(league, ["Eva", "Ana", "Rui"], ("Rui",), Eva=1))
    submit(clients["scorekeeper"], league, 2, rows(league, ["Ana", "Eva"]))
    return league


def test_league_page_shows_standings_grid_chart_and_races(played, users):
    page = browser(users, None).get(f"/leagues/{played['id']}/")
    assert page.status_code == 200
    html = page.content.decode()
    for text in ("Heat Spring League", "Heat: Pedal to the Metal", "USA", "Italy", "Red"):
        assert text in html, text
    assert 'id="race-grid"' in html and "<svg viewBox" in html
    assert f'href="/leagues/{played["id"]}/races/1/"' in html
    assert page.context["shown"] == 2
    # Eva 9 + 1 + 6 = 16, Ana 6 + 9 = 15; Rui's dnf is marked ✕, Italy he did not enter (–).
    assert [[c.value for c in row.cells] for row in page.context["grid"].rows] == [
        ["Eva", "1", "2", 16],
        ["Ana", "2", "1", 15],
        ["Rui", "✕", "–", 0],
    ]
    assert [(s.label, s.values) for s in page.context["chart"].series] == [
        ("Eva", (10, 16)),
        ("Ana", (6, 15)),
        ("Rui", (0, 0)),
    ]
    assert [(r.name, r.winner) for r in page.context["events"].rows] == [
        ("USA", "Eva"),
        ("Italy", "Ana"),
        ("France", ""),
    ]
    assert browser(users, None).get(f"/leagues/{played['id']}/?after_race=1").context["shown"] == 1
    assert browser(users, None).get(f"/leagues/{played['id']}/?after_race=3").status_code == 400
    assert browser(users, None).get(f"/leagues/{played['id']}/?after_race=x").status_code == 400
    home = browser(users, None).get("/").content.decode()
    assert "Heat Spring League" in home and f'href="/leagues/{played["id"]}/"' in home


def test_race_page_shows_the_order_bonus_and_points(played, users):
    page = browser(users, None).get(f"/leagues/{played['id']}/races/1/")
    assert page.status_code == 200
    table = page.context["table"]
    assert [[c.value for c in row.cells] for row in table.rows] == [
        [1, "Eva", "", "finished", 1, 10],
        [2, "Ana", "Red", "finished", 0, 6],
        [3, "Rui", "Red", "dnf", 0, 0],
    ]
    assert "USA" in page.content.decode()
    planned = browser(users, None).get(f"/leagues/{played['id']}/races/3/")
    assert planned.status_code == 200 and planned.context["results"] is False
    assert browser(users, None).get(f"/leagues/{played['id']}/races/4/").status_code == 404


@pytest.mark.parametrize("who", [None, "outsider"])
def test_private_pages_are_404_outside_the_club(clients, users, who):
    league = create(clients["organiser"], public=False)
    base = f"/leagues/{league['id']}"
    pages = (f"{base}/", f"{base}/races/1/")
    assert_private_outside_the_club(users, who, pages, f"{base}/races/1/results/")


def test_results_form_roles(clients, users):
    league = create(clients["organiser"])
    url = f"/leagues/{league['id']}/races/1/results/"
    assert browser(users, None).get(url)["Location"].startswith("/login/")
    assert browser(users, "outsider").get(url).status_code == 403
    for role in ("scorekeeper", "organiser", "superuser"):
        assert browser(users, role).get(url).status_code == 200


def _post(results: list[dict[str, Any]], version: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": len(results),
        "form-INITIAL_FORMS": len(results),
        "version": version,
    }
    for i, row in enumerate(results):
        data.update({f"form-{i}-{key}": value for key, value in row.items()})
    return data


def test_results_form_uses_the_services_validation(clients, users):
    league = create(clients["organiser"])
    url = f"/leagues/{league['id']}/races/1/results/"
    scorekeeper = browser(users, "scorekeeper")
    html = scorekeeper.get(url).content.decode()
    assert "Ana" in html and 'name="form-0-status"' in html and 'name="form-0-bonus"' in html

    bad = rows(league, ORDER, dnf=("Ana",))  # a dnf ahead of the finishers
    answer = scorekeeper.post(url, _post(bad))
    assert answer.status_code == 200
    assert 'aria-invalid="true"' in answer.content.decode()
    assert "finishers come first" in answer.content.decode()
    assert Race.objects.get(competition_id=league["id"], number=1).version == 0

    answer = scorekeeper.post(url, _post(rows(league, ORDER, Rui=2)))
    assert answer.status_code == 302
    assert answer["Location"] == f"/leagues/{league['id']}/races/1/"
    race = Race.objects.get(competition_id=league["id"], number=1)
    assert race.version == 1 and [r["bonus"] for r in race.results] == [0, 2, 0]

    stale = scorekeeper.post(url, _post(rows(league, ORDER[::-1]), version=0))
    assert stale.status_code == 200 and stale.context["stale"] is True
    assert Race.objects.get(competition_id=league["id"], number=1).version == 1


def test_a_league_without_bonus_points_has_no_bonus_box(clients, users):
    league = create(clients["organiser"], bonus_points=False)
    html = browser(users, "scorekeeper").get(f"/leagues/{league['id']}/races/1/results/")
    assert 'name="form-0-bonus"' not in html.content.decode()


def test_page_queries_do_not_grow_with_the_league(clients, users):
    small = create(clients["organiser"], races=[{"name": "A"}])
    submit(clients["scorekeeper"], small, 1, rows(small, ORDER))
    large = create(
        clients["organiser"],
        drivers=[{"name": f"D{i}", "team": f"T{i % 4}"} for i in range(12)],
        races=[{"name": f"R{n}"} for n in range(8)],
    )
    names = [d["name"] for d in large["drivers"]]
    for number in range(1, 7):
        submit(clients["scorekeeper"], large, number, rows(large, names[number:] + names[:number]))
    client = browser(users, None)
    assert queries(client, f"/leagues/{small['id']}/") == queries(
        client, f"/leagues/{large['id']}/"
    )
    assert queries(client, f"/leagues/{small['id']}/races/1/") == queries(
        client, f"/leagues/{large['id']}/races/6/"
    )


def _admin_post(league: League | None, **fields: Any) -> dict[str, Any]:
    """The league admin page's form: settings, the drivers and races inlines."""
    drivers = fields.pop("drivers", [("Ana", "Red"), ("Rui", "")])
    races = fields.pop("races", [("USA", ""), ("Italy", "Ana")])
    data: dict[str, Any] = {
        "club": fields.pop("club"),
        "name": "Admin League",
        "public": "on",
        "game": "Downforce",
        "points": '"classic"',
        "drop_worst": 0,
        "points_finishers_only": "on",
        "drivers-TOTAL_FORMS": len(drivers),
        "drivers-INITIAL_FORMS": 0,
        "races-TOTAL_FORMS": len(races),
        "races-INITIAL_FORMS": 0,
        **fields,
    }
    for i, (name, team) in enumerate(drivers):
        data.update({f"drivers-{i}-order": i + 1, f"drivers-{i}-name": name})
        data[f"drivers-{i}-team"] = team
    for i, (name, entered) in enumerate(races):
        data.update({f"races-{i}-number": i + 1, f"races-{i}-name": name})
        data[f"races-{i}-entered"] = entered
    return data


def test_the_admin_sets_up_a_league_with_the_api_checks(users, django_capture_on_commit_callbacks):
    from tournament.clubs.models import Club

    users["organiser"].is_staff = True
    users["organiser"].save()
    admin = browser(users, "organiser")
    club = Club.objects.get(slug="velo-lisboa").pk
    add = "/admin/leagues/league/add/"
    bad = admin.post(add, _admin_post(None, club=club, races=[("X", "Gil")]))
    assert bad.status_code == 200 and "Gil is not a driver of this league." in bad.content.decode()
    assert not League.objects.exists()
    answer = admin.post(add, _admin_post(None, club=club))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    league = League.objects.get()
    assert (league.points, league.points_preset, league.game) == (
        [10, 6, 4, 3, 2, 1],
        "classic",
        "Downforce",
    )
    drivers = dict(Driver.objects.filter(league=league).values_list("name", "pk"))
    races = list(Race.objects.filter(competition=league).order_by("number"))
    assert [(r.name, r.drivers) for r in races] == [
        ("USA", [drivers["Ana"], drivers["Rui"]]),
        ("Italy", [drivers["Ana"]]),
    ]
    assert admin.get(f"/admin/leagues/league/{league.pk}/change/").status_code == 200
    # Results through the admin's entry form, with the scorekeeper form's checks.
    url = f"/admin/leagues/race/{races[0].pk}/results/"
    assert admin.get(url).status_code == 200
    detail = {"drivers": [{"id": pk, "name": name} for name, pk in drivers.items()]}
    with django_capture_on_commit_callbacks(execute=True):
        assert admin.post(url, _post(rows(detail, ["Rui", "Ana"]))).status_code == 302
    assert Race.objects.get(pk=races[0].pk).status == "resolved"
    change = admin.get(f"/admin/leagues/league/{league.pk}/change/").content.decode()
    assert "After race 1" in change
    # Once results exist the set-up is read-only here too (the API answers 409).
    assert 'name="points"' not in change and 'name="drivers-0-name"' not in change


def test_demo_builds_a_league_with_resolved_races(
    clients, users, django_capture_on_commit_callbacks
):
    from tournament.clubs.models import Club
    from tournament.leagues import demo

    club = Club.objects.get(slug="velo-lisboa")
    cast = {"club": club, "organiser": users["organiser"], "scorekeeper": users["scorekeeper"]}
    with django_capture_on_commit_callbacks(execute=True):
        assert len(demo.build(**cast)) == 1
    league = League.objects.get(club=club)
    races = list(Race.objects.filter(competition=league).order_by("number"))
    assert [r.status for r in races] == ["resolved"] * 2 + ["planned"] * 2
    body = clients["anonymous"].get(f"/api/leagues/{league.pk}/standings/").json()
    # classic 10-6-4-3-2-1, a point for each winner, drop_worst 1: Eva 11 (6 dropped), Ana 11
    # (6 dropped); a win and a 2nd each, Ana won the latest race (FD-76 (2)).
    assert body["after_race"] == 2 and body["drivers"][0]["name"] == "Ana"
    assert {d["name"]: d["points"] for d in body["drivers"]} == {
        "Eva": 11,
        "Ana": 11,
        "Inês": 4,
        "Rui": 4,
        "Gil": 3,
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert demo.build(**cast) == []
    assert League.objects.filter(club=club).count() == 1
