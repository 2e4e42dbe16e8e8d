"""Pages read numbers typed as text in ASCII digits only (#13 item 9).

``int()`` and ``str.isdigit()`` take any Unicode decimal digit: ``?after_stage=١`` showed stage 1
and a rally sheet's time ``٣٠٠`` was stored as 300 s.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.rallies.helpers import create_rally, ids
from tests.rallies.test_pages import form_data
from tests.rallies.test_pages import url as sheet_url
from tournament.rallies.models import RallyStageResultVersion

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("after", ["١", "１", " 1", "1_0"])
def test_an_after_stage_in_other_digits_is_a_400(web, resolved_tour, after):
    url = f"/tours/{resolved_tour['id']}/"
    assert web["anonymous"].get(url, {"after_stage": "1"}).status_code == 200
    assert web["anonymous"].get(url, {"after_stage": after}).status_code == 400


def _row(driver: int, **fields: str) -> dict[str, Any]:
    blank = {"time": "", "log": "", "penalties": ""}
    return {"driver": driver, "status": "finished", **blank, **fields}


def test_a_rally_sheet_refuses_times_logs_and_penalties_in_other_digits(web, clients):
    rally = create_rally(clients["organiser"])
    ana, rui, sara = ids(rally)
    rows = [
        _row(ana, time="٣٠٠"),
        _row(rui, log="1 ٣"),
        _row(sara, time="300", penalties="١٠ jump start"),
    ]
    response = web["scorekeeper"].post(sheet_url(rally), form_data(rows))
    assert response.status_code == 200
    formset = response.context["formset"]
    assert formset.forms[0].errors["time"]
    assert formset.forms[1].errors["log"]
    assert formset.forms[2].errors["penalties"]
    assert not RallyStageResultVersion.objects.exists()
    # The same sheet in the digits 0-9 is stored.
    rows = [_row(ana, time="300"), _row(rui, log="1 3"), _row(sara, time="300", penalties="10 x")]
    response = web["scorekeeper"].post(sheet_url(rally), form_data(rows))
    assert response.status_code == 302
    assert RallyStageResultVersion.objects.count() == 1


def test_the_live_preview_reads_a_time_in_the_digits_0_9_only(web, clients):
    rally = create_rally(clients["organiser"], rules={"token_seconds": 2})
    base = f"/rallies/{rally['id']}/stages/1/preview/"
    log = "1 2 3 4 5 5 4 3 4 5 6 t4"  # 257 s net
    assert web["scorekeeper"].get(base, {"log": log, "time": "257"}).json()["mismatch"] is False
    assert web["scorekeeper"].get(base, {"log": log, "time": "4:17"}).json()["mismatch"] is False
    assert web["scorekeeper"].get(base, {"log": log, "time": "300"}).json()["mismatch"] is True
    # "٣٠٠" was read as 300 s (a mismatch shown); it is no time at all, so nothing is compared.
    assert web["scorekeeper"].get(base, {"log": log, "time": "٣٠٠"}).json()["mismatch"] is False
    assert web["scorekeeper"].get(base, {"log": log, "time": "٥:٠٠"}).json()["mismatch"] is False
