"""Two (or eight) scorekeepers at once: threads post to the same stage through the API together.

Each thread has its own database session (PostgreSQL), as separate web workers would; the stage
ends with one complete set of results, every version kept, standings equal to a fresh computation.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.faults.conftest import (
    KindCase,
    assert_consistent,
    client_for,
    elapsed,
    kinds,
    run_together,
    wait_for,
)
from tournament.competitions.models import AuditEntry, IdempotencyKey

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _post(user: Any, url: str, body: dict[str, Any], **headers: Any) -> Any:
    def call() -> tuple[int, dict[str, Any]]:
        response = client_for(user).post(url, body, format="json", **headers)
        return response.status_code, response.json()

    return call


def _settled(case: KindCase, competition_id: int, numbers: list[int]) -> bool:
    events = case.kind.event_model.objects.filter(competition_id=competition_id, number__in=numbers)
    return all(e.status == "resolved" for e in events)


@pytest.mark.parametrize("case", kinds("rally"))
def test_concurrent_corrections_keep_every_version_and_one_complete_set(
    case: KindCase, real_worker: dict[str, Any], cast: dict[str, Any], figures: Any
) -> None:
    detail = case.create(cast["api"])
    cid = detail["id"]
    for number in (1, 2):
        body = {"results": case.rows(detail, 0)}
        assert (
            cast["api"].post(case.results_url(cid, number), body, format="json").status_code == 202
        )
    wait_for(lambda: _settled(case, cid, [1, 2]))

    # Six corrections of stage 1 and four of stage 2, by both roles, released at the same moment.
    plan = [(1, variant) for variant in range(1, 7)] + [(2, variant) for variant in range(7, 11)]
    sent = [{"results": case.rows(detail, variant)} for _number, variant in plan]
    users = [cast["scorekeeper"], cast["organiser"]]
    calls = [
        _post(users[i % 2], case.results_url(cid, number), sent[i])
        for i, (number, _variant) in enumerate(plan)
    ]
    started = time.monotonic()
    answers = run_together(calls)
    answered_in = elapsed(started)
    assert [code for code, _body in answers] == [202] * len(plan)

    kind = case.kind
    for number, expected_versions in ((1, 7), (2, 5)):
        event = kind.event_model.objects.get(competition_id=cid, number=number)
        assert event.version == expected_versions
        # Each accepted answer names its own version; together they are 2..n, no gaps, no repeats.
        mine = [
            (body["version"], sent[i])
            for i, (code, body) in enumerate(answers)
            if plan[i][0] == number
        ]
        assert sorted(v for v, _ in mine) == list(range(2, expected_versions + 1))
        stored = dict(kind.version_model.objects.filter(event=event).values_list("number", "rows"))
        for version, body in mine:
            # Stored exactly as that request sent it: never a mix of two.
            assert case.stored_as_sent(stored[version], body["results"])
        assert event.results == stored[event.version]
    audit = AuditEntry.objects.filter(competition_kind=case.label, competition_id=cid)
    assert audit.filter(action="results_corrected").count() == len(plan)

    started = time.monotonic()
    wait_for(lambda: _settled(case, cid, [1, 2]), timeout=30)
    settled_in = elapsed(started)
    summary = assert_consistent(case, cid)
    standings = cast["api"].get(f"/api/{case.collection}/{cid}/standings/").json()
    assert standings[case.kind.after_param] == 2
    figures(requests=len(plan), answered_s=answered_in, resolved_s=settled_in, **summary)


@pytest.mark.parametrize("case", kinds("tour"))
def test_stale_version_is_a_409_with_the_current_version(
    case: KindCase, real_worker: dict[str, Any], cast: dict[str, Any], figures: Any
) -> None:
    detail = case.create(cast["api"])
    cid = detail["id"]
    url = case.results_url(cid, 1)
    first = cast["api"].post(url, {"results": case.rows(detail, 0), "version": 0}, format="json")
    assert first.status_code == 202 and first.json()["version"] == 1

    # Six clients edited version 1 and send their corrections at once: one wins.
    users = [cast["scorekeeper"], cast["organiser"]]
    calls = [
        _post(users[i % 2], url, {"results": case.rows(detail, i + 1), "version": 1})
        for i in range(6)
    ]
    answers = run_together(calls)
    codes = sorted(code for code, _body in answers)
    assert codes == [202] + [409] * 5
    winner = next(body for code, body in answers if code == 202)
    assert winner["version"] == 2
    for code, body in answers:
        if code == 409:
            assert body["detail"] == "version conflict"
            assert body["current"]["version"] == 2
            assert body["current"]["results"] == winner["results"]
    event = case.kind.event_model.objects.get(competition_id=cid, number=1)
    assert event.version == 2
    assert case.kind.version_model.objects.filter(event=event).count() == 2
    # The losers retry against the version they were shown: accepted.
    retry = cast["api"].post(url, {"results": case.rows(detail, 9), "version": 2}, format="json")
    assert retry.status_code == 202 and retry.json()["version"] == 3
    wait_for(lambda: _settled(case, cid, [1]))
    assert_consistent(case, cid)
    figures(requests=6, accepted=1, conflicts=5)


@pytest.mark.parametrize("case", kinds("championship"))
def test_concurrent_retries_with_one_idempotency_key_store_one_version(
    case: KindCase, real_worker: dict[str, Any], cast: dict[str, Any], figures: Any
) -> None:
    detail = case.create(cast["api"])
    cid = detail["id"]
    url = case.results_url(cid, 1)
    body = {"results": case.rows(detail, 3)}
    calls = [
        _post(cast["scorekeeper"], url, body, HTTP_IDEMPOTENCY_KEY="phone-retry-1")
        for _ in range(6)
    ]
    answers = run_together(calls)
    assert [code for code, _body in answers] == [202] * 6
    # Every retry got the first answer, byte for byte (status "submitted", version 1).
    assert all(answer == answers[0][1] for _code, answer in answers)
    assert answers[0][1]["version"] == 1
    event = case.kind.event_model.objects.get(competition_id=cid, number=1)
    assert event.version == 1
    assert case.kind.version_model.objects.filter(event=event).count() == 1
    assert IdempotencyKey.objects.filter(key="phone-retry-1").count() == 1
    wait_for(lambda: _settled(case, cid, [1]))
    assert_consistent(case, cid)
    figures(requests=6, versions=1)
