"""The shared workflow's guarantees, driven through the services (tasks not run on commit)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.conftest import stage_rows
from tournament.competitions import services
from tournament.competitions.kinds import get_kind
from tournament.competitions.tasks import sweep_pending
from tournament.tours.models import Stage, StageStandings, Tour

pytestmark = pytest.mark.django_db
KIND = get_kind("tour")


@pytest.fixture
def db_tour(tour: dict[str, Any]) -> Tour:
    return Tour.objects.get(pk=tour["id"])


def _submit(
    db_tour: Tour,
    tour: dict[str, Any],
    number: int,
    order: list[int] | None = None,
    user: Any = None,
) -> Stage:
    # No on-commit capture here: the resolve task is not run, as if the broker were down.
    return services.submit_results(
        kind=get_kind("tour"),
        competition_id=db_tour.pk,
        number=number,
        rows=stage_rows(tour, order=order),
        by=user,
    )


def _stage(db_tour: Tour, number: int) -> Stage:
    return Stage.objects.get(competition=db_tour, number=number)


def test_resolving_twice_changes_nothing(db_tour, tour, users):
    stage = _submit(db_tour, tour, 1, user=users["scorekeeper"])
    assert _stage(db_tour, 1).status == "submitted"
    assert services.resolve_event(kind=KIND, event_id=stage.pk) == "resolved"
    first = StageStandings.objects.get(competition=db_tour, number=1)
    assert services.resolve_event(kind=KIND, event_id=stage.pk) == "noop"
    again = StageStandings.objects.get(competition=db_tour, number=1)
    assert (again.pk, again.computed_at, again.data) == (first.pk, first.computed_at, first.data)
    assert StageStandings.objects.filter(competition=db_tour).count() == 1


def test_a_later_stage_waits_for_the_earlier_one_then_cascades(db_tour, tour, users):
    one = _submit(db_tour, tour, 1, user=users["scorekeeper"])
    two = _submit(db_tour, tour, 2, order=[5, 4, 3, 2, 1, 0], user=users["scorekeeper"])
    assert services.resolve_event(kind=KIND, event_id=two.pk) == "waiting"
    assert _stage(db_tour, 2).status == "submitted"
    assert services.resolve_event(kind=KIND, event_id=one.pk) == "resolved"
    assert [_stage(db_tour, n).status for n in (1, 2, 3)] == ["resolved", "resolved", "planned"]
    db_tour.refresh_from_db()
    assert db_tour.standings_through == 2
    assert services.resolve_event(kind=KIND, event_id=two.pk) == "noop"


def test_correction_hides_stale_standings_until_resolved(db_tour, tour, users):
    one = _submit(db_tour, tour, 1, user=users["scorekeeper"])
    _submit(db_tour, tour, 2, user=users["scorekeeper"])
    services.resolve_event(kind=KIND, event_id=one.pk)
    before = StageStandings.objects.get(competition=db_tour, number=2).data
    _submit(db_tour, tour, 1, order=[2, 3, 4, 5, 0, 1], user=users["scorekeeper"])
    db_tour.refresh_from_db()
    assert db_tour.standings_through is None  # stage 1 is submitted again: no consecutive run
    assert services.standings(kind=KIND, competition=db_tour, after=None)["after_stage"] is None
    assert services.resolve_event(kind=KIND, event_id=one.pk) == "resolved"
    db_tour.refresh_from_db()
    assert db_tour.standings_through == 2
    after = StageStandings.objects.get(competition=db_tour, number=2).data
    assert after != before
    # Rui R: 0:00 in the corrected stage 1 and 0:20 in stage 2 leads on 20 seconds.
    assert after["general"][0]["rider"] == tour["teams"][1]["riders"][0]["id"]
    assert after["general"][0]["time"] == 20


def test_a_later_stage_that_no_longer_validates_fails_and_blocks_the_next(db_tour, tour, users):
    one = _submit(db_tour, tour, 1, user=users["scorekeeper"])
    _submit(db_tour, tour, 2, user=users["scorekeeper"])
    _submit(db_tour, tour, 3, user=users["scorekeeper"])
    services.resolve_event(kind=KIND, event_id=one.pk)
    assert db_tour.stages.filter(status="resolved").count() == 3
    # Stage 2's stored rows become invalid (a hand edit in the database); correcting stage 1
    # re-validates every later stage, in order.
    broken = list(_stage(db_tour, 2).results)
    broken[0] = {**broken[0], "seconds": 7}
    Stage.objects.filter(competition=db_tour, number=2).update(results=broken)
    _submit(db_tour, tour, 1, order=[1, 0, 2, 3, 4, 5], user=users["scorekeeper"])
    assert services.resolve_event(kind=KIND, event_id=one.pk) == "resolved"
    two, three = _stage(db_tour, 2), _stage(db_tour, 3)
    assert two.status == "failed" and "Timing tile" in two.error
    assert three.status == "submitted"
    assert list(
        StageStandings.objects.filter(competition=db_tour).values_list("number", flat=True)
    ) == [1]
    db_tour.refresh_from_db()
    assert db_tour.standings_through == 1


def test_sweeper_resolves_what_the_broker_never_got(db_tour, tour, users):
    stage = _submit(db_tour, tour, 1, user=users["scorekeeper"])
    assert sweep_pending() == 0  # too fresh: its own task may still be on the way
    Stage.objects.filter(pk=stage.pk).update(submitted_at=timezone.now() - timedelta(minutes=5))
    assert sweep_pending() == 1  # eager in tests: queued and run
    assert _stage(db_tour, 1).status == "resolved"


def test_fail_event_after_retries_marks_failed_with_message(db_tour, tour, users):
    stage = _submit(db_tour, tour, 1, user=users["scorekeeper"])
    services.fail_event(kind=KIND, event_id=stage.pk, message="database unavailable")
    stage.refresh_from_db()
    assert (stage.status, stage.error) == ("failed", "database unavailable")
