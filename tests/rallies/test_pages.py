"""Rally pages: the rally, the rally championship and the scorekeeper's stage sheet."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.rallyman import sample_document
from tests.rallies.helpers import create_rally, ids, sheet, submit
from tournament.rallies.models import RallyStage, RallyStageResultVersion

ROLES = ("organiser", "scorekeeper", "outsider", "superuser", "anonymous")
WRITERS = ("organiser", "scorekeeper", "superuser")


@pytest.fixture
def web(users: dict[str, Any]) -> dict[str, Client]:
    """A logged-in page client per role; ``anonymous`` has no session."""
    made = {}
    for role in ROLES:
        client = Client()
        if role != "anonymous":
            client.force_login(users[role])
        made[role] = client
    return made


@pytest.fixture
def scored(clients: dict[str, Any]) -> dict[str, Any]:
    """A rally with stages 1 and 2 resolved, a penalty and a Super Rally retirement."""
    rally = create_rally(clients["organiser"])
    penalty = {"time": 290, "penalties": [{"seconds": 30, "reason": "cut"}]}
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, "5:10", penalty))
    submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 300, {"status": "retired"}, 290))
    return rally


def form_data(rows: list[dict[str, Any]], version: int = 0, **extra: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": str(len(rows)),
        "form-INITIAL_FORMS": str(len(rows)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "version": str(version),
        **extra,
    }
    for index, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{index}-{key}"] = "" if value is None else str(value)
    return data


def test_the_rally_page_shows_overall_stage_times_and_the_gap_chart(web, scored):
    html = web["anonymous"].get(f"/rallies/{scored['id']}/").content.decode()
    assert "Rali de Sintra" in html
    assert "Overall classification" in html and "Stage times" in html
    # Overall after stage 2: Ana 600, Sara 610 (+0:10), Rui 310 + Super Rally 300 + 300 = 910.
    assert ">10:00<" in html and "+0:10" in html and ">15:10<" in html
    assert "10:00*" in html  # Rui's Super Rally time on stage 2 (300 + 300 s), marked
    assert 'role="img"' in html and "Time gap to the leader" in html
    assert "SS1 Pena" in html and sample_document("gravel-flats")["name"] in html
    after_one = web["anonymous"].get(f"/rallies/{scored['id']}/?after_stage=1").content.decode()
    assert "Standings after stage 1 of 3" in after_one
    assert web["anonymous"].get(f"/rallies/{scored['id']}/?after_stage=3").status_code == 400
    assert web["anonymous"].get(f"/rallies/{scored['id']}/?after_stage=x").status_code == 400


def test_the_rally_page_before_any_stage(web, clients):
    rally = create_rally(clients["organiser"])
    response = web["anonymous"].get(f"/rallies/{rally['id']}/")
    assert response.status_code == 200
    assert "No stage resolved yet." in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_a_private_rally_page_is_404_outside_the_club(web, clients, role):
    rally = create_rally(clients["organiser"], public=False)
    code = web[role].get(f"/rallies/{rally['id']}/").status_code
    assert code == (200 if role in WRITERS else 404)


def test_rally_page_queries_do_not_grow_with_size(web, clients, scored):
    names = [{"name": f"Driver {i}"} for i in range(10)]
    big = create_rally(
        clients["organiser"], name="Big", drivers=names, stages=[{"name": str(n)} for n in range(5)]
    )
    for number in range(1, 6):
        submit(
            clients["scorekeeper"],
            big["id"],
            number,
            sheet(big, *(100 + 9 * i + number for i in range(10))),
        )

    def count(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert web["anonymous"].get(url).status_code == 200
        return len(ctx.captured_queries)

    assert count(f"/rallies/{scored['id']}/") == count(f"/rallies/{big['id']}/")


def test_the_championship_page(web, clients, scored):
    submit(clients["scorekeeper"], scored["id"], 3, sheet(scored, 300, 300, 320))
    second = create_rally(clients["organiser"], name="Rali Dois")
    body = {
        "club": "velo-lisboa",
        "name": "Taça 2026",
        "rallies": [scored["id"], second["id"]],
        "drop_worst": 1,
    }
    championship = clients["organiser"].post("/api/rally-championships/", body, format="json")
    html = web["anonymous"].get(f"/rally-championships/{championship.json()['id']}/")
    text = html.content.decode()
    assert html.status_code == 200
    assert "Taça 2026" in text and "Rali de Sintra" in text and "Rali Dois" in text
    assert "1 of 2 rallies counted" in text and "not counted yet" in text
    assert "Championship standings" in text and ">25<" in text
    private = (
        clients["organiser"]
        .post("/api/rally-championships/", {**body, "public": False}, format="json")
        .json()
    )
    assert web["outsider"].get(f"/rally-championships/{private['id']}/").status_code == 404
    assert web["scorekeeper"].get(f"/rally-championships/{private['id']}/").status_code == 200


# --- the scorekeeper's sheet --------------------------------------------------------------------


def url(rally: dict[str, Any], number: int = 1) -> str:
    return f"/rallies/{rally['id']}/stages/{number}/results/"


@pytest.mark.parametrize("role", ROLES)
def test_who_may_open_the_sheet(web, clients, role):
    rally = create_rally(clients["organiser"])
    response = web[role].get(url(rally))
    if role == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/login/")
    else:
        assert response.status_code == (200 if role in WRITERS else 403)
    private = create_rally(clients["organiser"], name="Private", public=False)
    if role == "outsider":
        assert web[role].get(url(private)).status_code == 404
        assert web[role].post(url(private), form_data([])).status_code == 404


def test_preview_shows_the_computed_times_and_stores_nothing(web, clients):
    rally = create_rally(clients["organiser"])
    ana, rui, sara = ids(rally)
    rows = [
        {
            "driver": ana,
            "status": "finished",
            "time": "",
            "log": "1 2 3 4 4 5 0 3 4 t2",
            "penalties": "10 jump start",
        },
        {"driver": rui, "status": "finished", "time": "300", "log": "", "penalties": ""},
        {"driver": sara, "status": "retired", "time": "", "log": "", "penalties": ""},
    ]
    response = web["scorekeeper"].post(url(rally), form_data(rows, preview="1"))
    text = response.content.decode()
    assert response.status_code == 200
    # 285 s of cards − 2 tokens = 283 s = 4:43, + 10 s = 4:53 (m:ss, issue #16).
    assert "Net time 4:43" in text and "stage time 4:53" in text and "cards 285 s, 2 tokens" in text
    assert "Preview: nothing is stored yet." in text
    assert RallyStage.objects.get(competition_id=rally["id"], number=1).version == 0
    response = web["scorekeeper"].post(url(rally), form_data(rows))
    assert response.status_code == 302 and response["Location"] == f"/rallies/{rally['id']}/"
    stage = RallyStage.objects.get(competition_id=rally["id"], number=1)
    assert stage.version == 1
    assert [(r["driver"], r["stage_time"]) for r in stage.results] == [
        (ana, 293),
        (rui, 300),
        (sara, None),
    ]


def test_errors_come_back_on_the_boxes_and_nothing_is_stored(web, clients):
    rally = create_rally(clients["organiser"])
    ana, rui, sara = ids(rally)
    rows = [
        {"driver": ana, "status": "finished", "time": "4:99", "log": "", "penalties": ""},
        {"driver": rui, "status": "finished", "time": "", "log": "1 9", "penalties": "x late"},
        {"driver": sara, "status": "retired", "time": "300", "log": "", "penalties": ""},
    ]
    for extra in ({}, {"preview": "1"}):
        response = web["scorekeeper"].post(url(rally), form_data(rows, **extra))
        assert response.status_code == 200
        formset = response.context["formset"]
        assert formset.forms[0].errors["time"]
        assert formset.forms[1].errors["log"] and formset.forms[1].errors["penalties"]
        assert formset.forms[2].errors["time"]
    assert not RallyStageResultVersion.objects.exists()


def test_the_sheet_shows_current_results_and_leaves_out_drivers_out_of_the_rally(web, clients):
    rally = create_rally(clients["organiser"], rules={"super_rally": False})
    _ana, rui, sara = ids(rally)
    penalty = {"time": 290, "penalties": [{"seconds": 30, "reason": "cut"}]}
    submit(
        clients["scorekeeper"], rally["id"], 1, sheet(rally, {"status": "retired"}, 310, penalty)
    )
    first = web["scorekeeper"].get(url(rally, 1)).context["formset"]
    assert [f.initial for f in first.forms][2] == {
        "driver": sara,
        "status": "finished",
        "time": "4:50",
        "log": "",
        "penalties": "30 cut",
    }
    second = web["scorekeeper"].get(url(rally, 2)).context["formset"]
    assert [f.initial["driver"] for f in second.forms] == [rui, sara]
    # A stale version is refused with a message.
    rows = [
        {"driver": d, "status": "finished", "time": "300", "log": "", "penalties": ""}
        for d in (rui, sara)
    ]
    submit(clients["scorekeeper"], rally["id"], 2, sheet(rally, 300, 300, 300)[1:])
    response = web["scorekeeper"].post(url(rally, 2), form_data(rows, version=0))
    assert response.status_code == 200
    assert "changed these results meanwhile" in response.content.decode()


def test_live_log_preview(web, clients):
    rally = create_rally(clients["organiser"], rules={"token_seconds": 2})
    base = f"/rallies/{rally['id']}/stages/1/preview/"
    answer = web["scorekeeper"].get(base, {"log": "1 2 3 4 5 5 4 3 4 5 6 t4", "time": "4:21"})
    assert answer.json() | {} == {
        "net_time": 257,
        "cards": 265,
        "tokens": 4,
        "turns": 11,
        "mismatch": True,
        "text": answer.json()["text"],
    }
    assert "4:17" in answer.json()["text"]
    bad = web["scorekeeper"].get(base, {"log": "1 x"}).json()
    assert bad["errors"] and "x" in bad["errors"][0]
    assert web["outsider"].get(base, {"log": "1"}).status_code == 403
    assert web["anonymous"].get(base, {"log": "1"}).status_code == 302


def test_rally_cards_for_the_home_and_club_pages(clients, scored):
    from tournament.rallies.models import Rally
    from tournament.rallies.views import PAGES

    private = create_rally(clients["organiser"], name="Private", public=False)
    from django.contrib.auth.models import AnonymousUser

    cards = PAGES.cards(Rally.objects.visible_to(AnonymousUser()))
    assert [(c.name, c.url, c.state) for c in cards] == [
        ("Rali de Sintra", f"/rallies/{scored['id']}/", "running")
    ]
    assert private["id"] not in [c.url for c in cards]
