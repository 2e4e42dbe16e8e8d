"""The Grand Tour's New and Edit pages (issue #15, items 2, 4 and 7): access per role, the form
by plain POST, errors on the box they concern with nothing stored, the same tour as the API's."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import stage_rows, tour_payload
from tournament.tours.models import Stage, Team, Tour
from tournament.tours.setup_page import courses

NEW = "/clubs/velo-lisboa/tours/new/"
CORSO = next(k for k, c in courses().items() if c["course"] == "abcdefghijklmnopqrstu")
MONTAGNE = next(k for k, c in courses().items() if c["course"] == "abcfimetKGLHJsdopRQNU")


def form(**changes: str) -> dict[str, str]:
    """The New page as an organiser fills it in for the API's sample tour (tests/conftest.py)."""
    data = {
        "name": "Tour de Lisboa 2026",
        "public": "true",
        "seed": "42",
        "stages-0-pick": CORSO,
        "stages-0-rest_after": "on",
        "stages-1-pick": MONTAGNE,
        "stages-1-stacks-0-type": "major",
        "stages-1-stacks-0-side": "mountain",
        "stages-1-stacks-0-square": "43",
        "stages-1-stacks-0-id": "m1",
        "stages-2-name": "Stage three",
        "stages-2-pick": "none",
        "teams-0-name": "Red",
        "teams-0-player": "Ana",
        "teams-0-riders-0-specialist": "grimpeur",
        "teams-1-name": "Blue",
        "teams-1-player": "Rui",
        "teams-2-name": "Green",
        "teams-2-player": "Gil",
    }
    data.update(changes)
    return data


def nothing_stored() -> bool:
    return not (Tour.objects.exists() or Team.objects.exists() or Stage.objects.exists())


def error_of(html: str, name: str) -> str:
    """The error text shown under the box ``name`` ('' when there is none)."""
    found = re.search(rf'id="id_{re.escape(name)}-err">([^<]*)<', html)
    return found.group(1) if found else ""


# --- access -----------------------------------------------------------------------------------


def test_the_new_page_is_for_the_clubs_organisers(web):
    page = web["organiser"].get(NEW)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="stages-0-pick"' in html and 'name="teams-0-player"' in html
    assert 'name="rules-podium_tp"' in html and "Avenue Corso Paseo" in html
    assert web["superuser"].get(NEW).status_code == 200
    assert web["scorekeeper"].get(NEW).status_code == 403
    assert web["outsider"].get(NEW).status_code == 403  # organises another club
    assert web["outsider"].post(NEW, form()).status_code == 403
    assert web["anonymous"].get(NEW)["Location"].startswith("/login/?next=")
    assert web["organiser"].get("/clubs/no-such-club/tours/new/").status_code == 404
    assert nothing_stored()


def test_the_edit_page_is_for_the_clubs_organisers(web, tour, private_tour):
    edit = f"/tours/{tour['id']}/edit/"
    assert web["organiser"].get(edit).status_code == 200
    assert web["scorekeeper"].get(edit).status_code == 403
    assert web["outsider"].get(edit).status_code == 403  # may read the public tour
    assert web["outsider"].get(f"/tours/{private_tour['id']}/edit/").status_code == 404
    assert web["anonymous"].get(edit)["Location"].startswith("/login/?next=")
    assert web["outsider"].post(edit, {"name": "Taken"}).status_code == 403
    assert Tour.objects.get(pk=tour["id"]).name == tour["name"]


# --- create -----------------------------------------------------------------------------------


def _comparable(detail: dict[str, Any]) -> dict[str, Any]:
    """A tour's detail without what differs between two creations (ids, times)."""
    out = {k: v for k, v in detail.items() if k not in ("id", "created_at", "specialist_order")}
    out["teams"] = [
        {**t, "id": None, "riders": [{**r, "id": None} for r in t["riders"]]} for t in out["teams"]
    ]
    return out


def test_a_tour_created_on_the_page_equals_the_same_tour_created_through_the_api(web, clients):
    response = web["organiser"].post(NEW, form())
    assert response.status_code == 302, response.content.decode()[:3000]
    made = Tour.objects.get()
    assert response["Location"] == f"/tours/{made.pk}/"
    payload = tour_payload(name="Twin", rules={})
    twin = clients["organiser"].post("/api/tours/", payload, format="json")
    assert twin.status_code == 201, twin.content
    page_detail = clients["organiser"].get(f"/api/tours/{made.pk}/").json()
    assert _comparable({**page_detail, "name": "Twin"}) == _comparable(twin.json())
    assert page_detail["stages"][1]["stacks"] == [
        {"id": "m1", "type": "major", "side": "mountain", "square": 43}
    ]


def test_blank_rows_are_left_out_and_blank_riders_named_after_their_player(web):
    data = form(**{"stages-5-pick": "", "teams-7-name": "", "teams-1-name": ""})
    data |= {"stages-1-stacks-3-square": "", "stages-1-stacks-3-type": "minor"}
    response = web["organiser"].post(NEW, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tour = Tour.objects.get()
    assert tour.stages.count() == 3 and len(tour.stages.get(number=2).stacks) == 1
    teams = list(tour.teams.order_by("order"))
    assert [t.name for t in teams] == ["Red", "Blue", "Green"]  # Blue: the first free colour
    assert sorted(r.name for r in teams[1].riders.all()) == ["Rui R", "Rui S"]


# --- bad input: the message on its box, nothing stored ----------------------------------------

BAD_INPUT = [
    ({"name": ""}, "name", "This field may not be blank."),
    ({"seed": "abc"}, "seed", "A valid integer is required."),
    (
        {"stages-1-pick": "custom", "stages-1-course": "abcZ"},
        "stages-1-course",
        "Z",  # the API's message names the bad tile
    ),
    ({"stages-1-stacks-0-square": "400"}, "stages-1-stacks-0-square", "The course has 79 squares."),
    (
        {"teams-1-riders-0-specialist": "grimpeur"},
        "teams-1-riders-0-specialist",
        "Only 1 copy of grimpeur exists with 3 teams.",
    ),
    (
        {"teams-1-riders-1-specialist": "grimpeur"},
        "teams-1-riders-1-specialist",
        "grimpeur is a rouleur Specialist.",
    ),
    ({"teams-1-name": "red"}, "teams-1-name", "Team names must be unique within a tour."),
    ({"rules-podium_tp": "3, 2, x"}, "rules-podium_tp", "A list of whole numbers is required."),
    ({"rules-max_teams": "9"}, "rules-max_teams", "Must be at most 6."),
    ({"rules-timing_flat": "50, 40"}, "rules-wide_finish_flat-before", "must equal"),
]


@pytest.mark.parametrize(("changes", "box", "message"), BAD_INPUT)
def test_bad_input_is_shown_on_its_box_and_nothing_is_stored(web, changes, box, message):
    response = web["organiser"].post(NEW, form(**changes))
    assert response.status_code == 200
    html = response.content.decode()
    assert message in error_of(html, box), (box, re.findall(r"field-error[^>]*>([^<]+)<", html))
    assert 'id="form-errors"' in html
    assert nothing_stored()


def test_errors_of_a_section_are_shown_above_it(web):
    data = {k: v for k, v in form().items() if not k.startswith(("teams-1", "teams-2"))}
    data["stages-2-rest_after"] = "on"  # after the last stage
    html = web["organiser"].post(NEW, data).content.decode()
    assert "A tour has 2 to 6 teams (max_teams)." in html
    assert "A Rest Day sits between two stages: after stage 1 to 2." in html
    assert nothing_stored()


def test_errors_are_in_the_users_language(web):
    web["organiser"].cookies["django_language"] = "pt"
    html = web["organiser"].post(NEW, form(name="")).content.decode()
    assert error_of(html, "name") and "This field may not be blank." not in html
    assert nothing_stored()


def test_buttons_change_the_form_without_storing(web):
    organiser = web["organiser"]
    html = organiser.post(NEW, form(action="add:stages")).content.decode()
    assert 'name="stages-3-pick"' in html
    html = organiser.post(NEW, form(action="remove:stages-0")).content.decode()
    assert 'name="stages-2-pick"' not in html and f'value="{MONTAGNE}" selected' in html
    html = organiser.post(NEW, form(action="add:stages-1-stacks")).content.decode()
    assert 'name="stages-1-stacks-2-square"' in html  # one more than the blank row
    html = organiser.post(NEW, form(**{"action": "preset:timing-off", "rules-shown": "1"}))
    page = html.content.decode()
    assert 'name="rules-timing_tile" checked' not in page
    assert 'name="rules-tour_mode" checked' not in page  # unticked in the post: stays so
    page = organiser.post(NEW, form(action="preset:short")).content.decode()
    assert 'name="rules-tp_order_from_stage" value="3"' in page
    page = organiser.post(NEW, form(action="preset:defaults")).content.decode()
    assert 'name="rules-tour_mode" checked' in page
    assert nothing_stored()


# --- edit -------------------------------------------------------------------------------------


def test_edit_before_results_changes_the_set_up_as_the_api_patch(web, tour, clients):
    edit = f"/tours/{tour['id']}/edit/"
    page = web["organiser"].get(edit).content.decode()
    assert 'value="Tour de Lisboa 2026"' in page and "The set-up is locked." not in page
    assert (
        f'value="{MONTAGNE}" selected' in page
        and 'name="stages-1-stacks-0-square" value="43"' in page
    )
    data = _posted_form(page)
    data |= {"name": "Renamed", "stages-2-pick": CORSO, "rules-podium_tp": "5, 3, 1"}
    data.pop("stages-0-rest_after", None)
    response = web["organiser"].post(edit, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    detail = clients["anonymous"].get(f"/api/tours/{tour['id']}/").json()
    assert detail["name"] == "Renamed" and detail["rest_days_after"] == []
    assert detail["stages"][2]["course"] == "abcdefghijklmnopqrstu"
    assert detail["rules"]["podium_tp"] == [5, 3, 1]
    assert detail["rules"]["timing_flat"] == tour["rules"]["timing_flat"]
    assert detail["seed"] == tour["seed"] and len(detail["teams"]) == 3
    assert [r["specialist"] for r in detail["teams"][0]["riders"]] == ["grimpeur", None]
    bad = web["organiser"].post(edit, data | {"stages-1-stacks-0-square": "0"})
    assert error_of(bad.content.decode(), "stages-1-stacks-0-square")
    assert Tour.objects.get(pk=tour["id"]).name == "Renamed"


def test_edit_after_the_first_result_changes_only_name_visibility_and_dates(web, tour, clients):
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    assert response.status_code == 202
    edit = f"/tours/{tour['id']}/edit/"
    page = web["organiser"].get(edit).content.decode()
    assert "The set-up is locked." in page and "Stage 1" in page
    assert "correct any stored result" in page
    assert 'name="stages-0-pick"' not in page and 'name="rules-podium_tp"' not in page
    assert 'name="name"' in page and 'name="public"' in page and 'name="stages-2-date"' in page
    data = {"name": "Late rename", "public": "false", "stages-2-date": "2026-12-05T19:00"}
    # Set-up boxes sent anyway (an old tab) are not part of the request: nothing else moves.
    data |= {"stages-0-pick": MONTAGNE, "rules-podium_tp": "9"}
    response = web["organiser"].post(edit, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    detail = clients["organiser"].get(f"/api/tours/{tour['id']}/").json()
    assert detail["name"] == "Late rename" and detail["public"] is False
    assert detail["stages"][0]["course"] == tour["stages"][0]["course"]
    assert detail["rules"]["podium_tp"] == [3, 2, 1]
    stage3 = clients["organiser"].get(f"/api/tours/{tour['id']}/stages/3/").json()
    assert stage3["date"].startswith("2026-12-05T19:00")
    bad = web["organiser"].post(edit, {"name": "x", "public": "true", "stages-1-date": "soon"})
    assert error_of(bad.content.decode(), "stages-1-date")
    assert Tour.objects.get(pk=tour["id"]).name == "Late rename"


def _posted_form(html: str) -> dict[str, str]:
    """What a browser posts for ``html``'s form: inputs' values, ticked boxes, selections."""
    body = html.split('id="setup-form"', 1)[1].split("</form>", 1)[0]
    body = re.sub(r"<template.*?</template>", "", body, flags=re.S)
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", body):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrfmiddlewaretoken":
            continue
        if 'type="checkbox"' in tag and " checked" not in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = value.group(1) if value else ("on" if "checkbox" in tag else "")
    for name, options in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', body, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', options)
        first = re.search(r'<option value="([^"]*)"', options)
        data[name] = chosen.group(1) if chosen else (first.group(1) if first else "")
    return data


def test_the_tour_page_links_to_edit_for_organisers_only(web, tour):
    assert (
        f'href="/tours/{tour["id"]}/edit/"'
        in web["organiser"].get(f"/tours/{tour['id']}/").content.decode()
    )
    assert "/edit/" not in web["scorekeeper"].get(f"/tours/{tour['id']}/").content.decode()
