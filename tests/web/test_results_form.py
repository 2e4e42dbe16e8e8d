"""The scorekeeper form: access per role, validation from the service, the live status after."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import stage_rows
from tests.web.conftest import ROLES, WRITERS
from tournament.competitions.kinds import get_kind
from tournament.competitions.services import resolve_event
from tournament.tours.models import Stage, StageResultVersion


def form_data(rows: list[dict[str, Any]], version: int = 0) -> dict[str, Any]:
    """The POST body of the results formset for ``rows``."""
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": str(len(rows)),
        "form-INITIAL_FORMS": str(len(rows)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "version": str(version),
    }
    for index, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{index}-{key}"] = "" if value is None else str(value)
    return data


def url(detail: dict[str, Any], number: int = 1) -> str:
    return f"/tours/{detail['id']}/stages/{number}/results/"


@pytest.mark.parametrize("role", ROLES)
def test_access_on_a_public_tour(web, tour, role):
    response = web[role].get(url(tour))
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"] == f"/login/?next={url(tour)}"
    else:
        assert response.status_code == (200 if role in WRITERS else 403)


@pytest.mark.parametrize("role", ROLES)
def test_access_on_a_private_tour(web, private_tour, role):
    response = web[role].get(url(private_tour, 2))
    expected = {"anonymous": 302, "outsider": 404, "bystander": 404}.get(role, 200)
    assert response.status_code == expected


def test_post_needs_the_role_too(web, tour):
    response = web["outsider"].post(url(tour), form_data(stage_rows(tour)))
    assert response.status_code == 403
    assert StageResultVersion.objects.count() == 0


def test_form_has_one_row_per_rider_with_the_timing_tile(web, tour):
    html = web["scorekeeper"].get(url(tour)).content.decode()
    assert html.count('<fieldset class="rider') == 6
    assert "Seconds come from the Timing tile: 50, 40, 30, 20, 10, 0." in html
    assert html.count('<select id="id_form-0-seconds"') == 1


def test_bad_row_shows_field_errors_and_stores_nothing(web, tour):
    rows = stage_rows(tour)
    rows[1]["position"] = 1  # two riders in position 1, nobody in 2
    response = web["scorekeeper"].post(url(tour), form_data(rows))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'aria-invalid="true" aria-describedby="id_form-1-position-err"' in html
    assert "Ana S has position 1, which another rider already has" in html
    assert "Positions must be exactly 1 to 6; missing: 2." in html
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    assert stage.version == 0 and stage.status == "planned"
    assert StageResultVersion.objects.count() == 0


def test_a_box_that_is_not_a_number_is_an_error_on_that_box(web, tour):
    rows = stage_rows(tour)
    rows[2]["minutes"] = "soon"
    html = web["scorekeeper"].post(url(tour), form_data(rows)).content.decode()
    assert 'id="id_form-2-minutes-err"' in html
    assert StageResultVersion.objects.count() == 0


def test_submit_then_status_polls_until_resolved(web, tour):
    response = web["scorekeeper"].post(url(tour), form_data(stage_rows(tour)))
    assert response.status_code == 302
    assert response["Location"] == f"/tours/{tour['id']}/stages/1/"
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    assert stage.status == "submitted" and stage.version == 1
    html = web["scorekeeper"].get(response["Location"]).content.decode()
    assert "Results stored; the stage is being resolved." in html
    live = f"/tours/{tour['id']}/stages/1/live/"
    assert f'data-poll="{live}"' in html
    assert 'data-poll="' in web["anonymous"].get(live).content.decode()
    # The worker resolves the stage; the next poll carries the standings and stops polling.
    assert resolve_event(kind=get_kind("tour"), event_id=stage.pk) == "resolved"
    fragment = web["anonymous"].get(live).content.decode()
    assert "data-poll" not in fragment
    assert "Standings after stage 1" in fragment and 'id="live-general"' in fragment
    assert f"/tours/{tour['id']}/?after_stage=1" in fragment


def test_submit_resolves_on_commit_and_a_correction_adds_a_version(
    web, tour, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = web["organiser"].post(url(tour), form_data(stage_rows(tour)))
    assert response.status_code == 302
    assert Stage.objects.get(competition_id=tour["id"], number=1).status == "resolved"
    corrected = stage_rows(tour, order=[1, 0, 2, 3, 4, 5])
    with django_capture_on_commit_callbacks(execute=True):
        response = web["scorekeeper"].post(url(tour), form_data(corrected, version=1))
    assert response.status_code == 302
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    assert (stage.version, stage.status) == (2, "resolved")
    html = web["anonymous"].get(f"/tours/{tour['id']}/stages/1/").content.decode()
    assert "Earlier versions" in html


def test_stale_version_is_refused_with_a_hint(web, resolved_tour):
    response = web["scorekeeper"].post(url(resolved_tour), form_data(stage_rows(resolved_tour)))
    assert response.status_code == 200
    assert "Someone changed these results meanwhile" in response.content.decode()
    assert Stage.objects.get(competition_id=resolved_tour["id"], number=1).version == 1


def test_results_out_of_order_are_refused(web, tour):
    response = web["scorekeeper"].post(url(tour, 2), form_data(stage_rows(tour)))
    assert response.status_code == 200
    assert "Stage 1 has no results yet; results are accepted in order." in (
        response.content.decode()
    )
    assert StageResultVersion.objects.count() == 0


def test_failed_stage_shows_its_error(web, tour):
    stage = Stage.objects.get(competition_id=tour["id"], number=1)
    Stage.objects.filter(pk=stage.pk).update(status="failed", error="The database was away.")
    fragment = web["anonymous"].get(f"/tours/{tour['id']}/stages/1/live/").content.decode()
    assert "The database was away." in fragment and "data-poll" not in fragment
