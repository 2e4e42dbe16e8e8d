"""End-of-tour awards in the tour detail (`awards`) and on the tour page (docs/tour-awards.md)."""

from __future__ import annotations

from typing import Any

from tests.conftest import riders_of, stage_rows


def _submit(clients: dict[str, Any], tour: dict[str, Any], number: int) -> None:
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/{number}/results/",
        {"results": stage_rows(tour)},
        format="json",
    )
    assert response.status_code == 202, response.content


def test_awards_appear_once_the_tour_is_over(clients: dict[str, Any], tour: dict[str, Any]) -> None:
    riders = riders_of(tour)
    _submit(clients, tour, 1)
    _submit(clients, tour, 2)
    url = f"/api/tours/{tour['id']}/"
    assert clients["anonymous"].get(url).json()["awards"] == []
    _submit(clients, tour, 3)
    awards = {a["award"]: a for a in clients["anonymous"].get(url).json()["awards"]}
    assert awards["most_stage_wins"] == {
        "award": "most_stage_wins",
        "title": "Stage hunter",
        "text": f"{riders[0]['name']} won 3 stages.",
        "figure": 3,
        "rider": riders[0]["id"],
        "team": None,
        "stage": None,
    }
    assert awards["most_second_places"]["rider"] == riders[1]["id"]
    # the last rider lost 2:30 on each of the three stages: no single worst day.
    assert "biggest_stage_loss" not in awards
    assert awards["lanterne_rouge"]["rider"] == riders[-1]["id"]
    assert awards["lanterne_rouge"]["figure"] == 3 * 150
    listed = clients["anonymous"].get("/api/tours/").json()
    items = listed["results"] if isinstance(listed, dict) else listed
    assert all(item["awards"] is None for item in items)  # detail only: no query per tour

    translated = clients["anonymous"].get(url, HTTP_ACCEPT_LANGUAGE="pt").json()["awards"]
    assert {a["award"]: a["title"] for a in translated}["lanterne_rouge"] == "Lanterna vermelha"

    page = clients["anonymous"].get(f"/tours/{tour['id']}/").content.decode()
    assert 'id="awards-h"' in page
    assert 'data-award="most_stage_wins"' in page
    assert f"{riders[0]['name']} won 3 stages." in page


def test_no_awards_section_before_the_end(clients: dict[str, Any], tour: dict[str, Any]) -> None:
    _submit(clients, tour, 1)
    page = clients["anonymous"].get(f"/tours/{tour['id']}/").content.decode()
    assert 'id="awards-h"' not in page
