"""Running competitions from the pages (issue #15 item 5): Simulate, Simulate again, Simulate the
remaining stages and Resolve again, for every role and event state."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.championships import helpers as championships
from tests.conftest import stage_rows, tour_payload
from tests.leagues import helpers as leagues
from tests.rallies import helpers as rallies
from tournament.competitions import services
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Source, Status
from tournament.tours.models import Stage
from tournament.web.run import play_remaining

pytestmark = pytest.mark.django_db

COURSES = ["abcdefghijklmnopqrstu", "abcfimetKGLHJsdopRQNU"]


def _tour(clients: dict[str, Any], *, courses: int = 2, public: bool = True) -> dict[str, Any]:
    """Three stages: the first ``courses`` with a course, the others without."""
    payload = tour_payload(public=public)
    for index, stage in enumerate(payload["stages"]):
        stage.pop("course", None)
        if index < courses:
            stage["course"] = COURSES[index % 2]
    response = clients["organiser"].post("/api/tours/", payload, format="json")
    assert response.status_code == 201, response.content
    detail: dict[str, Any] = response.json()
    return detail


def _stage(tour: dict[str, Any], number: int) -> Stage:
    return Stage.objects.get(competition_id=tour["id"], number=number)


def _banner(response: Any) -> str:
    return " ".join(str(m) for m in response.context["messages"])


@pytest.mark.parametrize("role", ["organiser", "scorekeeper", "superuser"])
def test_writers_see_each_stage_state_with_its_reason(
    web: dict[str, Client], clients: Any, role: str
) -> None:
    tour = _tour(clients)
    base = f"/tours/{tour['id']}/stages"
    first = web[role].get(f"{base}/1/").content.decode()
    assert f'action="{base}/1/simulate/"' in first and ">Simulate<" in first
    second = web[role].get(f"{base}/2/").content.decode()
    assert "simulate/" not in second
    assert "Stage 1 is not resolved yet" in second
    third = web[role].get(f"{base}/3/").content.decode()
    assert "This stage has no course, so it cannot be simulated." in third
    page = web[role].get(f"/tours/{tour['id']}/").content.decode()
    assert f'action="/tours/{tour["id"]}/simulate-remaining/"' in page
    assert "The engine plays 3 events, from number 1 on" in page


@pytest.mark.parametrize("role", ["outsider", "bystander", "anonymous"])
def test_readers_see_no_run_panel(web: dict[str, Client], clients: Any, role: str) -> None:
    tour = _tour(clients)
    for url in (f"/tours/{tour['id']}/stages/1/", f"/tours/{tour['id']}/"):
        body = web[role].get(url).content.decode()
        assert "simulate" not in body.lower() and "Resolve again" not in body


@pytest.mark.parametrize(
    ("role", "code"), [("outsider", 403), ("bystander", 403), ("anonymous", 302)]
)
def test_others_cannot_run_anything_and_nothing_changes(
    web: dict[str, Client], clients: Any, role: str, code: int
) -> None:
    tour = _tour(clients)
    base = f"/tours/{tour['id']}"
    for url in (
        f"{base}/stages/1/simulate/",
        f"{base}/stages/1/resolve/",
        f"{base}/simulate-remaining/",
    ):
        response = web[role].post(url)
        assert response.status_code == code, url
        if code == 302:
            assert response["Location"].startswith("/login/")
    stage = _stage(tour, 1)
    assert (stage.version, stage.simulation_requested_at) == (0, None)


def test_a_private_tour_is_a_404_to_other_clubs_and_get_is_not_allowed(
    web: dict[str, Client], clients: Any
) -> None:
    tour = _tour(clients, public=False)
    url = f"/tours/{tour['id']}/stages/1/simulate/"
    assert web["outsider"].post(url).status_code == 404
    assert web["scorekeeper"].get(url).status_code == 405
    assert web["scorekeeper"].post(f"/tours/{tour['id']}/stages/9/simulate/").status_code == 404
    assert web["scorekeeper"].post("/tours/99999/simulate-remaining/").status_code == 404


@pytest.mark.django_db(transaction=True)  # commits for real: the eager worker runs at commit
def test_simulate_then_simulate_again(web: dict[str, Client], clients: Any) -> None:
    tour = _tour(clients)
    url = f"/tours/{tour['id']}/stages/1/simulate/"
    response = web["scorekeeper"].post(url, follow=True)
    stage = _stage(tour, 1)
    assert (stage.status, stage.source, stage.version) == (Status.RESOLVED, Source.SIMULATED, 1)
    assert "Simulated; the standings are up to date." in _banner(response)
    page = response.content.decode()
    assert "Simulate again" in page and "<details" in page
    # Stage 2 can now be simulated: its reason is gone.
    second = web["scorekeeper"].get(f"/tours/{tour['id']}/stages/2/").content.decode()
    assert f'action="/tours/{tour["id"]}/stages/2/simulate/"' in second
    web["organiser"].post(url)
    assert _stage(tour, 1).version == 2


def test_refused_simulations_say_why_and_store_nothing(
    web: dict[str, Client], clients: Any
) -> None:
    tour = _tour(clients)
    response = web["scorekeeper"].post(f"/tours/{tour['id']}/stages/3/simulate/", follow=True)
    assert "This stage has no course" in _banner(response)
    response = web["scorekeeper"].post(f"/tours/{tour['id']}/stages/2/simulate/", follow=True)
    assert response.redirect_chain[-1][0] == f"/tours/{tour['id']}/stages/2/"
    assert "Stage 1 is not resolved yet" in _banner(response)
    assert all(_stage(tour, n).simulation_requested_at is None for n in (2, 3))


def test_a_pending_simulation_is_shown_instead_of_the_button(
    web: dict[str, Client], clients: Any
) -> None:
    tour = _tour(clients)
    web["scorekeeper"].post(f"/tours/{tour['id']}/stages/1/simulate/")  # on-commit not run
    assert _stage(tour, 1).simulation_requested_at is not None
    body = web["scorekeeper"].get(f"/tours/{tour['id']}/stages/1/").content.decode()
    assert "data-run-pending" in body and "/stages/1/simulate/" not in body
    page = web["scorekeeper"].get(f"/tours/{tour['id']}/").content.decode()
    assert "A simulation is under way" in page


def test_a_stage_being_resolved_offers_no_simulation(web: dict[str, Client], clients: Any) -> None:
    tour = _tour(clients)
    web["scorekeeper"].post(
        f"/tours/{tour['id']}/stages/1/results/",
        _form(tour),
    )
    assert _stage(tour, 1).status == Status.SUBMITTED  # on-commit (the resolution) not run
    body = web["scorekeeper"].get(f"/tours/{tour['id']}/stages/1/").content.decode()
    assert "The results are being resolved" in body and "Resolve again" not in body


def _form(tour: dict[str, Any]) -> dict[str, Any]:
    rows = stage_rows(tour)
    data: dict[str, Any] = {"form-TOTAL_FORMS": len(rows), "form-INITIAL_FORMS": len(rows)}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{i}-{key}"] = value
    return data


def _failed(tour: dict[str, Any]) -> Stage:
    """Stage 1 with results, failed (as after a database outage outlasted the retries)."""
    services.submit_results(
        kind=get_kind("tour"), competition_id=tour["id"], number=1, rows=stage_rows(tour), by=None
    )
    stage = _stage(tour, 1)
    services.fail_event(kind=get_kind("tour"), event_id=stage.pk, message="Database down.")
    stage.refresh_from_db()
    assert stage.status == Status.FAILED
    return stage


@pytest.mark.parametrize("role", ["organiser", "scorekeeper"])
def test_resolve_again_a_failed_stage(
    web: dict[str, Client], clients: Any, django_capture_on_commit_callbacks: Any, role: str
) -> None:
    tour = _tour(clients)
    _failed(tour)
    body = web[role].get(f"/tours/{tour['id']}/stages/1/").content.decode()
    assert "Database down." in body and f'action="/tours/{tour["id"]}/stages/1/resolve/"' in body
    with django_capture_on_commit_callbacks(execute=True):
        response = web[role].post(f"/tours/{tour['id']}/stages/1/resolve/", follow=True)
    assert _stage(tour, 1).status == Status.RESOLVED
    # The view answered before the captured on-commit resolution ran (as with a real worker).
    assert "Queued again: the worker resolves it shortly." in _banner(response)
    # Now resolved: nothing to resolve again.
    response = web[role].post(f"/tours/{tour['id']}/stages/1/resolve/", follow=True)
    assert "Only a failed event with results can be resolved again." in _banner(response)


def test_csrf_is_required(users: Any, clients: Any) -> None:
    tour = _tour(clients)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(users["scorekeeper"])
    assert strict.post(f"/tours/{tour['id']}/stages/1/simulate/").status_code == 403
    assert _stage(tour, 1).simulation_requested_at is None


def test_simulate_the_remaining_stages_in_order(
    web: dict[str, Client], clients: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tour = _tour(clients, courses=3)
    with django_capture_on_commit_callbacks(execute=True):
        response = web["organiser"].post(f"/tours/{tour['id']}/simulate-remaining/", follow=True)
    assert "The remaining events are queued" in _banner(response)  # before on-commit ran
    stages = Stage.objects.filter(competition_id=tour["id"]).order_by("number")
    assert [(s.status, s.source) for s in stages] == [(Status.RESOLVED, Source.SIMULATED)] * 3
    assert all(s.simulation_requested_at is None for s in stages)
    page = web["organiser"].get(f"/tours/{tour['id']}/").content.decode()
    assert "simulate-remaining" not in page and "data-run-pending" not in page  # nothing left
    standings = clients["anonymous"].get(f"/api/tours/{tour['id']}/standings/").json()
    assert standings["after_stage"] == 3


def test_the_remaining_run_stops_where_the_api_would_refuse(clients: Any) -> None:
    tour = _tour(clients, courses=2)
    played = play_remaining(kind=get_kind("tour"), competition_id=tour["id"], by=None)
    assert played == 2
    assert [_stage(tour, n).status for n in (1, 2, 3)] == [
        Status.RESOLVED,
        Status.RESOLVED,
        Status.PLANNED,
    ]


def test_the_remaining_run_needs_the_first_one_simulable(
    web: dict[str, Client], clients: Any
) -> None:
    tour = _tour(clients, courses=0)
    page = web["scorekeeper"].get(f"/tours/{tour['id']}/").content.decode()
    assert "The remaining events cannot be simulated now:" in page
    assert "Stage 1: This stage has no course" in page
    response = web["scorekeeper"].post(f"/tours/{tour['id']}/simulate-remaining/", follow=True)
    assert "This stage has no course" in _banner(response)
    assert _stage(tour, 1).simulation_requested_at is None


def test_other_games_event_pages(
    web: dict[str, Client], clients: Any, django_capture_on_commit_callbacks: Any
) -> None:
    champ = championships.create(clients["organiser"])
    page = web["scorekeeper"].get(f"/championships/{champ['id']}/races/1/").content.decode()
    assert f'action="/championships/{champ["id"]}/races/1/simulate/"' in page
    rally = rallies.create_rally(clients["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        web["scorekeeper"].post(f"/rallies/{rally['id']}/stages/1/simulate/")
    page = web["scorekeeper"].get(f"/rallies/{rally['id']}/stages/2/").content.decode()
    assert "This stage has no layout, so it cannot be simulated." in page
    league = leagues.create(clients["organiser"])
    page = web["scorekeeper"].get(f"/leagues/{league['id']}/races/1/").content.decode()
    assert "simulate" not in page.lower()  # leagues have no simulator (API.md)
    assert web["scorekeeper"].post(f"/leagues/{league['id']}/races/1/simulate/").status_code == 404
