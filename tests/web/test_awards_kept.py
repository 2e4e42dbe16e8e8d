"""The tour page's awards are kept per process (tournament/tours/awards.py) only for the results
they were computed from: a correction of a finished tour shows the corrected awards."""

from __future__ import annotations

from typing import Any

from tests.conftest import riders_of, stage_rows


def _submit(clients: dict[str, Any], tour: dict[str, Any], number: int, **rows: Any) -> None:
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/{number}/results/",
        {"results": stage_rows(tour, **rows)},
        format="json",
    )
    assert response.status_code == 202, response.content


def _awards(client: Any, url: str) -> str:
    page = client.get(url).content.decode()
    section = page[page.index('id="awards-h"') :]
    return section[: section.index("</section>")]


def test_a_correction_changes_the_kept_awards(clients: dict[str, Any], tour: dict[str, Any]):
    riders = riders_of(tour)
    for number in (1, 2, 3):
        _submit(clients, tour, number)
    url = f"/tours/{tour['id']}/"
    awards = _awards(clients["anonymous"], url)
    assert f"{riders[0]['name']} won 3 stages." in awards
    assert _awards(clients["anonymous"], url) == awards  # kept: the same awards
    order = [1, 0, *range(2, len(riders))]  # stage 3 corrected: the second rider won it
    _submit(clients, tour, 3, order=order)
    awards = _awards(clients["anonymous"], url)
    assert f"{riders[0]['name']} won 2 stages." in awards
    assert f"{riders[0]['name']} won 3 stages." not in awards
