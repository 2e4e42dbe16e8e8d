"""Championship pages: standings page, race page, the scorekeeper form; visibility and cost."""

from __future__ import annotations

from typing import Any

import pytest

from tests.championships.helpers import create, race_rows, submit
from tests.page_checks import assert_private_outside_the_club, browser, queries
from tournament.championships.models import Race

pytestmark = pytest.mark.django_db

ORDER = ["Ana", "Rui", "Eva"]


@pytest.fixture
def played(clients) -> dict[str, Any]:
    """Two resolved races: race 1 with Rui out on lap 1, race 2 (Ana and Eva)."""
    champ = create(clients["organiser"])
    rows = race_rows(champ, 1, ["Eva", "Ana", "Rui"], out=("Rui",))
    rows[2]["laps"] = 1
    rows[0]["pole"] = True
    submit(clients["scorekeeper"], champ, 1, rows)
    submit(clients["scorekeeper"], champ, 2, race_rows(champ, 2, ["Ana", "Eva"]))
    return champ


def test_championship_page_shows_standings_grid_chart_and_races(played, users):
    page = browser(users, None).get(f"/championships/{played['id']}/")
    assert page.status_code == 200
    html = page.content.decode()
    for text in (
        "Formula D Winter Cup",
        "Scuderia Tejo",
        "Equipa Sado",
        'id="race-grid"',
        "Monaco",
    ):
        assert text in html, text
    assert "<svg viewBox" in html and 'role="img"' in html  # the points chart
    assert f'href="/championships/{played["id"]}/races/1/"' in html
    assert "✕" in html  # Rui's elimination in the grid
    assert page.context["shown"] == 2
    grid = page.context["grid"]
    # 18 each, a win and a 2nd each; FD-76 (2): Ana won the latest race.
    assert [[c.value for c in row.cells] for row in grid.rows] == [
        ["Ana", "2", "1", 18],
        ["Eva", "1", "2", 18],
        ["Rui", "✕", "–", 0],
    ]
    chart = page.context["chart"]
    assert [(s.label, s.values) for s in chart.series] == [
        ("Ana", (8, 18)),
        ("Eva", (10, 18)),
        ("Rui", (0, 0)),
    ]
    earlier = browser(users, None).get(f"/championships/{played['id']}/?after_race=1")
    assert earlier.context["shown"] == 1
    assert (
        browser(users, None).get(f"/championships/{played['id']}/?after_race=3").status_code == 400
    )
    assert (
        browser(users, None).get(f"/championships/{played['id']}/?after_race=x").status_code == 400
    )


def test_race_page_shows_classification_eliminations_and_points(played, users):
    page = browser(users, None).get(f"/championships/{played['id']}/races/1/")
    assert page.status_code == 200
    table = page.context["table"]
    assert [[c.value for c in row.cells][:2] for row in table.rows] == [
        [1, "Eva"],
        [2, "Ana"],
        [3, "Rui"],
    ]
    assert [row.cells[-1].value for row in table.rows] == [10, 8, 0]
    assert page.context["eliminations"] == [(1, "Rui", 1)]
    assert page.context["replay_url"] is None
    planned = browser(users, None).get(f"/championships/{played['id']}/races/3/")
    assert planned.status_code == 200 and planned.context["table"] is None
    assert browser(users, None).get(f"/championships/{played['id']}/races/4/").status_code == 404


def test_a_simulated_race_links_its_replay(clients, users):
    champ = create(clients["organiser"], races=[{"circuit": "monaco"}])
    clients["scorekeeper"].post(f"/api/championships/{champ['id']}/races/1/simulate/")
    page = browser(users, None).get(f"/championships/{champ['id']}/races/1/")
    url = page.context["replay_url"]
    assert url == f"/api/championships/{champ['id']}/races/1/replay/"
    assert clients["anonymous"].get(url).status_code == 200


@pytest.mark.parametrize("who", [None, "outsider"])
def test_private_pages_are_404_outside_the_club(clients, users, who):
    champ = create(clients["organiser"], public=False)
    base = f"/championships/{champ['id']}"
    pages = (f"{base}/", f"{base}/races/1/")
    assert_private_outside_the_club(users, who, pages, f"{base}/races/1/results/")


def test_results_form_roles(clients, users):
    champ = create(clients["organiser"])
    url = f"/championships/{champ['id']}/races/1/results/"
    anonymous = browser(users, None).get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    assert browser(users, "outsider").get(url).status_code == 403
    assert browser(users, "bystander").get(url).status_code == 403
    for role in ("scorekeeper", "organiser", "superuser"):
        assert browser(users, role).get(url).status_code == 200


def _post(rows: list[dict[str, Any]], version: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": len(rows),
        "form-INITIAL_FORMS": len(rows),
        "version": version,
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            if key == "pole":
                if value:
                    data[f"form-{i}-pole"] = "on"
            elif value is not None:
                data[f"form-{i}-{key}"] = value
    return data


def test_results_form_uses_the_services_validation(clients, users):
    champ = create(clients["organiser"])
    url = f"/championships/{champ['id']}/races/1/results/"
    scorekeeper = browser(users, "scorekeeper")
    page = scorekeeper.get(url)
    assert "Ana" in page.content.decode() and 'name="form-0-status"' in page.content.decode()

    bad = race_rows(champ, 1, ORDER, out=("Ana",))  # FD-41: eliminated ahead of finishers
    answer = scorekeeper.post(url, _post(bad))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'aria-invalid="true"' in html and "finishers come first" in html
    assert Race.objects.get(competition_id=champ["id"], number=1).version == 0

    good = race_rows(champ, 1, ORDER)
    good[0]["pole"] = True
    answer = scorekeeper.post(url, _post(good))
    assert answer.status_code == 302
    assert answer["Location"] == f"/championships/{champ['id']}/races/1/"
    race = Race.objects.get(competition_id=champ["id"], number=1)
    assert race.version == 1 and race.results[0]["pole"] is True

    stale = scorekeeper.post(url, _post(race_rows(champ, 1, ORDER[::-1]), version=0))
    assert stale.status_code == 200 and stale.context["stale"] is True
    assert Race.objects.get(competition_id=champ["id"], number=1).version == 1


def test_page_queries_do_not_grow_with_the_championship(clients, users):
    small = create(clients["organiser"], races=[{"circuit": "monaco"}])
    submit(clients["scorekeeper"], small, 1, race_rows(small, 1, ORDER))
    large = create(
        clients["organiser"],
        drivers=[{"name": f"D{i}", "team": f"T{i % 4}"} for i in range(10)],
        races=[{"circuit": "monaco"}] * 8,
    )
    names = [d["name"] for d in large["drivers"]]
    for number in range(1, 7):
        submit(
            clients["scorekeeper"],
            large,
            number,
            race_rows(large, number, names[number:] + names[:number]),
        )
    client = browser(users, None)
    assert queries(client, f"/championships/{small['id']}/") == queries(
        client, f"/championships/{large['id']}/"
    )
    assert queries(client, f"/championships/{small['id']}/races/1/") == queries(
        client, f"/championships/{large['id']}/races/6/"
    )
