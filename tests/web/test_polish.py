"""Issue #16, part 1: one time/date format, styles, banners, labels, finding things, admin."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone, translation

from scoring.clock import LEADER_GAP, clock, gap
from scoring.grand_tour.validation import format_time as tour_format_time
from scoring.rally.sheet import format_time as rally_format_time
from tests.conftest import stage_rows
from tests.rallies.helpers import create_rally, sheet, submit
from tests.web.builders import build_tour
from tournament.clubs.models import Club
from tournament.competitions.admin_base import readable_times
from tournament.rallies.messages import translate
from tournament.web.templatetags.podium import day, duration, when
from tournament.web.templatetags.podium import gap as gap_filter

ROLES = ("organiser", "scorekeeper", "outsider", "bystander", "superuser", "anonymous")

# --- 1. the one time format ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "0:00"),
        (5, "0:05"),
        (283, "4:43"),
        (3599, "59:59"),
        (3600, "1:00:00"),
        (3661, "1:01:01"),
        (86400, "24:00:00"),
        (-75, "-1:15"),
        (-3600, "-1:00:00"),
    ],
)
def test_clock_is_m_ss_under_an_hour_and_h_mm_ss_from_an_hour(seconds: int, text: str) -> None:
    assert clock(seconds) == text
    assert duration(seconds) == text
    # The engines' own formatters are the same helper (errors read like the pages).
    assert tour_format_time(seconds) == rally_format_time(seconds) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, LEADER_GAP),
        (1, "+0:01"),
        (110, "+1:50"),
        (3599, "+59:59"),
        (3600, "+1:00:00"),
        (-30, "-0:30"),
        (None, ""),
    ],
)
def test_gap_is_plus_m_ss_and_the_leaders_is_a_dash(seconds: int | None, text: str) -> None:
    assert gap(seconds) == text
    assert gap_filter(seconds) == text


def test_no_time_is_empty() -> None:
    assert clock(None) == "" and duration(None) == "" and duration("") == ""
    assert LEADER_GAP == "—"


def test_dates_are_day_month_name_year_in_every_language() -> None:
    moment = datetime.datetime(2026, 12, 1, 19, 0, tzinfo=datetime.UTC)
    with timezone.override("UTC"):
        with translation.override("en"):
            assert when(moment) == "1 Dec 2026, 19:00"
            assert day(moment) == "1 Dec 2026"
        with translation.override("pt"):
            assert when(moment) == "1 Dez 2026, 19:00"
        with translation.override("fr"):
            assert when(moment) == "1 Déc 2026, 19:00"
    assert when(None) == "" and day(None) == ""


def test_rally_mismatch_error_reads_m_ss() -> None:
    text = translate("time_log_mismatch", "x", {"driver": 1, "time": 290, "log_time": 283}, {})
    assert text == "Time 4:50 differs from the turn log's net time 4:43."
    assert " s" not in text


def test_the_stage_winner_shows_its_time_and_a_dash_as_gap(web, resolved_tour) -> None:
    html = web["anonymous"].get(f"/tours/{resolved_tour['id']}/stages/1/").content.decode()
    results = html.split('id="results-table"', 1)[1].split("</table>", 1)[0]
    first_row = results.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert LEADER_GAP in first_row
    assert "0:00:00" not in html and "+0:00" not in first_row


def test_a_stored_version_shows_an_unambiguous_date(web, resolved_tour) -> None:
    html = web["anonymous"].get(f"/tours/{resolved_tour['id']}/stages/1/").content.decode()
    today = timezone.localtime().strftime("%Y")
    assert f" {today}, " in html  # "1 Dec 2026, 19:00"
    assert " p.m." not in html and " a.m." not in html


def test_the_rally_preview_and_its_numbers_use_m_ss(web, clients) -> None:
    rally = create_rally(clients["organiser"])
    url = f"/rallies/{rally['id']}/stages/1/preview/"
    answer = web["scorekeeper"].get(url, {"log": "1 2 3"}).json()
    if "text" in answer:
        assert "Net time " in answer["text"]
        net = answer["net_time"]
        assert clock(net) in answer["text"]
        assert f"0:0{net // 60}:" not in answer["text"]


# --- 2. styles, banner, labels, forms -----------------------------------------------------------


def test_inline_lists_and_action_rows_are_styled() -> None:
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/podium/podium.css").read_text()
    assert "ul.inline-list" in css and "ul.actions" in css
    rule = css.split("ul.inline-list,ul.actions{", 1)[1].split("}", 1)[0]
    assert "list-style:none" in rule and "display:flex" in rule


def test_the_banner_never_says_being_resolved_once_resolved(
    web, tour, django_capture_on_commit_callbacks
) -> None:
    # The worker runs on commit: the stage is resolved before the redirect is followed.
    rows = stage_rows(tour, order=[0, 1, 2, 3, 4, 5])
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": str(len(rows)),
        "form-INITIAL_FORMS": str(len(rows)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "version": "0",
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{i}-{key}"] = str(value)
    with django_capture_on_commit_callbacks(execute=True):
        response = web["scorekeeper"].post(f"/tours/{tour['id']}/stages/1/results/", data)
    assert response.status_code == 302
    response = web["scorekeeper"].get(response["Location"])
    html = response.content.decode()
    assert response.status_code == 200
    assert "status--resolved" in html
    assert "Results stored; the stage is being resolved." not in html


def test_the_pending_banner_is_tagged_for_removal(rf, users) -> None:
    from django.contrib.messages import get_messages
    from django.contrib.messages.storage.fallback import FallbackStorage

    from tournament.competitions.models import Status
    from tournament.web.pages import results_stored

    club = Club.objects.get(slug="velo-lisboa")
    built = build_tour(club=club, by=users["organiser"], stages=2, teams=2, resolved=0)
    stage = built.stages.get(number=1)
    request = rf.get("/")
    request.session = {}
    request._messages = FallbackStorage(request)
    assert stage.status != Status.RESOLVED
    results_stored(request, stage, "being resolved")
    (message,) = list(get_messages(request))
    assert "resolving" in message.tags and str(message) == "being resolved"


def test_team_page_labels_its_figures_and_names_specialists(web, resolved_tour) -> None:
    team = resolved_tour["teams"][0]["id"]
    for role in ROLES:
        html = web[role].get(f"/tours/{resolved_tour['id']}/teams/{team}/").content.decode()
        assert "rank (points)" in html
        assert ">Grimpeur<" in html and ">grimpeur<" not in html


def test_team_page_specialist_is_translated(web, resolved_tour) -> None:
    from tournament.tours.pages import SPECIALIST_LABELS, specialist_label

    assert set(SPECIALIST_LABELS) == {
        "baroudeur", "flandrien", "grimpeur", "domestique", "super_rouleur", "puncheur",
        "descender", "polyvalent", "mountaineer", "squirrel", "super_sprinteur", "flahute",
    }  # fmt: skip
    assert specialist_label("") == "—"
    assert specialist_label("new_one") == "New one"
    with translation.override("pt"):
        assert str(specialist_label("mountaineer")) == "Montanhês"


def test_forms_start_with_empty_positions(web, tour) -> None:
    html = web["scorekeeper"].get(f"/tours/{tour['id']}/stages/1/results/").content.decode()
    assert 'name="form-0-position" value=""' in html or (
        'name="form-0-position"' in html and 'name="form-0-position" value="1"' not in html
    )


def test_a_forgotten_position_is_refused_not_guessed(web, tour) -> None:
    rows = stage_rows(tour, order=[0, 1, 2, 3, 4, 5])
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": str(len(rows)),
        "form-INITIAL_FORMS": str(len(rows)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "version": "0",
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{i}-{key}"] = "" if key == "position" and i == 2 else str(value)
    response = web["scorekeeper"].post(f"/tours/{tour['id']}/stages/1/results/", data)
    assert response.status_code == 200
    assert 'class="field-error"' in response.content.decode()


def test_formula_d_form_explains_wp_and_has_a_big_pole_box(web, clients) -> None:
    from tests.championships.helpers import create

    champ = create(clients["organiser"])
    html = web["scorekeeper"].get(f"/championships/{champ['id']}/races/1/results/").content
    text = html.decode()
    assert '<abbr title="wear points">WP</abbr>' in text
    assert "Wear points (WP) the car still has" in text
    assert 'class="box box--check' in text
    assert 'name="form-0-position" value=""' in text


# --- 3. finding things ---------------------------------------------------------------------------


@pytest.fixture
def scored_rally(clients) -> dict[str, Any]:
    rally = create_rally(clients["organiser"])
    submit(clients["scorekeeper"], rally["id"], 1, sheet(rally, 300, 310, 320))
    return rally


def test_rally_stages_have_a_public_page_linked_from_the_rally(web, scored_rally) -> None:
    pk = scored_rally["id"]
    rally_html = web["anonymous"].get(f"/rallies/{pk}/").content.decode()
    assert f'href="/rallies/{pk}/stages/1/"' in rally_html
    for role in ROLES:
        response = web[role].get(f"/rallies/{pk}/stages/1/")
        assert response.status_code == 200, role
        html = response.content.decode()
        assert "Stage classification" in html and "5:00" in html and "+0:10" in html
        assert LEADER_GAP in html
        assert ("Correct stage 1" in html) == (role in ("organiser", "scorekeeper", "superuser"))
    pending = web["anonymous"].get(f"/rallies/{pk}/stages/2/").content.decode()
    assert "No results for this stage yet." in pending
    assert web["anonymous"].get(f"/rallies/{pk}/stages/99/").status_code == 404


def test_private_rally_stage_page_is_hidden_outside_the_club(web, clients) -> None:
    rally = create_rally(clients["organiser"], public=False)
    url = f"/rallies/{rally['id']}/stages/1/"
    assert web["outsider"].get(url).status_code == 404
    assert web["anonymous"].get(url).status_code == 404
    assert web["scorekeeper"].get(url).status_code == 200


def test_rally_championship_is_linked_from_club_home_and_its_rallies(
    web, clients, scored_rally
) -> None:
    body = {"club": "velo-lisboa", "name": "Taça 2026", "rallies": [scored_rally["id"]]}
    made = clients["organiser"].post("/api/rally-championships/", body, format="json").json()
    link = f'href="/rally-championships/{made["id"]}/"'
    assert link in web["anonymous"].get("/clubs/velo-lisboa/").content.decode()
    assert link in web["anonymous"].get("/").content.decode()
    assert link in web["anonymous"].get(f"/rallies/{scored_rally['id']}/").content.decode()
    private = clients["organiser"].post(
        "/api/rally-championships/", {**body, "name": "Secret Cup", "public": False}, format="json"
    )
    assert private.status_code == 201
    assert "Secret Cup" not in web["outsider"].get("/clubs/velo-lisboa/").content.decode()
    assert "Secret Cup" in web["scorekeeper"].get("/clubs/velo-lisboa/").content.decode()


def test_finished_cards_show_the_winner_and_every_card_its_date(web, users) -> None:
    club = Club.objects.get(slug="velo-lisboa")
    done = build_tour(club=club, by=users["organiser"], stages=2, teams=2, resolved=2, name="Done")
    build_tour(club=club, by=users["organiser"], stages=2, teams=2, resolved=1, name="Half")
    from tournament.tours.models import StageStandings

    leader = StageStandings.objects.get(competition=done, number=2).data["general"][0]["name"]
    html = web["anonymous"].get("/").content.decode()
    done_card = html.split(">Done</a>", 1)[1].split("</li>", 1)[0]
    half_card = html.split(">Half</a>", 1)[1].split("</li>", 1)[0]
    assert f"Winner: {leader}" in done_card
    assert "Winner:" not in half_card
    assert "created " in done_card and "created " in half_card


def test_two_imports_of_one_competition_differ_on_their_cards(web, users) -> None:
    club = Club.objects.get(slug="velo-lisboa")
    first = build_tour(club=club, by=users["organiser"], stages=2, teams=2, name="Twin")
    second = build_tour(club=club, by=users["organiser"], stages=2, teams=2, name="Twin")
    type(first).objects.filter(pk=first.pk).update(
        created_at=timezone.now() - datetime.timedelta(days=40)
    )
    html = web["anonymous"].get("/clubs/velo-lisboa/").content.decode()
    cards = [c.split("</li>", 1)[0] for c in html.split(">Twin</a>")[1:]]
    assert len(cards) == 2 and cards[0] != cards[1]
    assert second.pk != first.pk


# --- 4. admin ------------------------------------------------------------------------------------


def test_admin_is_branded_podium(web) -> None:
    html = web["superuser"].get("/admin/").content.decode()
    assert "Podium administration" in html and "Django administration" not in html
    with translation.override("pt"):
        from django.contrib import admin

        assert str(admin.site.site_header) != "Podium administration"


def test_snapshot_admin_shows_times_formatted(web, resolved_tour) -> None:
    from tournament.tours.models import StageStandings

    snapshot = StageStandings.objects.filter(competition_id=resolved_tour["id"]).first()
    assert snapshot is not None
    html = web["superuser"].get(f"/admin/tours/stagestandings/{snapshot.pk}/change/")
    text = html.content.decode()
    assert html.status_code == 200
    general = snapshot.data["general"]
    assert clock(general[-1]["time"]) in text
    assert f'"time": {general[-1]["time"]}' not in text


def test_readable_times_rewrites_times_and_gaps_only() -> None:
    data = {"general": [{"time": 3725, "gap": 0, "rank": 1}, {"time": 70, "gap": 65}], "n": 3}
    assert readable_times(data) == {
        "general": [{"time": "1:02:05", "gap": "—", "rank": 1}, {"time": "1:10", "gap": "+1:05"}],
        "n": 3,
    }


def test_tour_admin_standings_show_times_formatted(web, resolved_tour) -> None:
    from tournament.tours.models import StageStandings

    data = StageStandings.objects.get(competition_id=resolved_tour["id"], number=2).data
    html = web["superuser"].get(f"/admin/tours/tour/{resolved_tour['id']}/change/")
    text = html.content.decode()
    assert html.status_code == 200
    last = data["general"][-1]
    assert f"<td>{clock(last['time'])}</td>" in text
    assert f"<td>{last['time']}</td>" not in text
