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


# --- an unexpected error during resolution (issue #13, item 8) -------------------------------


def test_an_unexpected_error_ends_the_stage_failed_with_a_message_and_a_traceback(
    tour, clients, caplog
):
    """A team left without riders (the admin used to allow it) made the team classification
    raise ValueError (min of nothing): the stage stayed ``submitted`` with no error, for good."""
    from tournament.tours.models import Rider

    team = tour["teams"][0]
    Rider.objects.filter(team_id=team["id"]).delete()
    rows = [
        row for row in stage_rows(tour) if row["rider"] not in {r["id"] for r in team["riders"]}
    ]
    for position, row in enumerate(rows, start=1):
        row["position"] = position
    url = f"/api/tours/{tour['id']}/stages/1/results/"
    with caplog.at_level("ERROR", logger="tournament.competitions.tasks"):
        answer = clients["scorekeeper"].post(url, {"results": rows}, format="json")
    assert answer.status_code == 202, answer.content
    stage = clients["anonymous"].get(f"/api/tours/{tour['id']}/stages/1/").json()
    assert stage["status"] == "failed"
    assert "could not be computed" in stage["error"] and "ValueError" in stage["error"]
    assert "set-up" in stage["error"]  # what to check, and what to do next
    logged = [r for r in caplog.records if "failed unexpectedly" in r.getMessage()]
    assert logged and logged[0].exc_info and logged[0].exc_info[0] is ValueError
    # Failed, not pending: the sweeper leaves it alone.
    Stage.objects.filter(pk=_pk(tour, 1)).update(submitted_at=timezone.now() - timedelta(hours=1))
    assert sweep_pending() == 0


def _pk(tour: dict[str, Any], number: int) -> int:
    return int(Stage.objects.get(competition_id=tour["id"], number=number).pk)


def test_every_path_refuses_a_team_without_riders(clients, tour):
    from tests.conftest import tour_payload

    organiser = clients["organiser"]
    payload = tour_payload()
    payload["teams"][0]["riders"] = []
    created = organiser.post("/api/tours/", payload, format="json")
    assert created.status_code == 400 and created.json()["teams"][0]["riders"]
    patched = organiser.patch(
        f"/api/tours/{tour['id']}/", {"teams": payload["teams"]}, format="json"
    )
    assert patched.status_code == 400 and patched.json()["teams"][0]["riders"]
    document = organiser.get(f"/api/tours/{tour['id']}/export/").json()
    document["competition"]["teams"][0]["riders"] = []
    imported = organiser.post(
        "/api/tours/import/", {"club": "velo-lisboa", "document": document}, format="json"
    )
    assert imported.status_code == 400
    assert imported.json()["document"]["competition"]["teams"][0]["riders"]


# --- a requested simulation is a stored fact (issue #13, items 5 and 6) ----------------------


def test_a_requested_simulation_is_stored_and_the_sweeper_plays_it(db_tour, tour, users):
    """The broker never got the message (no on-commit run here): the request is on the stage,
    and the sweeper queues it once it is older than a lease."""
    from django.conf import settings

    from tournament.competitions.simulation import request_simulation

    stage = _stage(db_tour, 1)
    request_simulation(kind=KIND, competition=db_tour, event=stage, by=users["scorekeeper"])
    stage.refresh_from_db()
    assert stage.simulation_requested_at is not None and stage.simulation_version == 0
    assert stage.simulation_requested_by == users["scorekeeper"]
    assert (stage.status, stage.version) == ("planned", 0)
    assert sweep_pending() == 0  # too fresh: its own message may still be on the way
    old = timezone.now() - settings.PODIUM_SIMULATION_LEASE - timedelta(seconds=1)
    Stage.objects.filter(pk=stage.pk).update(simulation_requested_at=old)
    assert sweep_pending() == 1  # played eagerly; its resolution is queued on commit
    stage.refresh_from_db()
    assert (stage.status, stage.version, stage.source) == ("submitted", 1, "simulated")
    assert stage.simulation_requested_at is None and stage.simulation_lease_until is None
    assert stage.versions.get().created_by == users["scorekeeper"]
    assert sweep_pending() == 0


def test_a_simulation_is_played_once_however_often_it_is_delivered(db_tour, tour, users):
    from tournament.competitions.simulation import request_simulation
    from tournament.competitions.tasks import simulate_event_task

    stage = _stage(db_tour, 1)
    request_simulation(kind=KIND, competition=db_tour, event=stage, by=users["organiser"])
    assert simulate_event_task.delay("tour", stage.pk).get() == "submitted"
    # A redelivered message (a worker died after storing it), and a late sweep.
    assert simulate_event_task.delay("tour", stage.pk).get() == "skipped"
    assert sweep_pending() == 0  # the request is forgotten once played
    stage.refresh_from_db()
    assert stage.version == 1 and stage.versions.count() == 1


def test_a_live_lease_keeps_a_second_worker_off_and_an_expired_one_does_not(db_tour, tour, users):
    from tournament.competitions.simulation import request_simulation
    from tournament.competitions.tasks import simulate_event_task

    stage = _stage(db_tour, 1)
    request_simulation(kind=KIND, competition=db_tour, event=stage, by=users["organiser"])
    now = timezone.now()
    # Another worker is playing it (its lease is live): this delivery stays off.
    assert Stage.objects.take_simulation_lease(stage.pk, now, now + timedelta(minutes=1))
    assert simulate_event_task.delay("tour", stage.pk).get() == "skipped"
    assert _stage(db_tour, 1).version == 0
    # That worker died: once its lease has expired, the next delivery plays it.
    Stage.objects.filter(pk=stage.pk).update(simulation_lease_until=now - timedelta(seconds=1))
    assert simulate_event_task.delay("tour", stage.pk).get() == "submitted"
    assert _stage(db_tour, 1).version == 1


def test_a_submission_after_the_request_supersedes_it(db_tour, tour, users):
    from tournament.competitions.simulation import request_simulation
    from tournament.competitions.tasks import simulate_event_task

    stage = _stage(db_tour, 1)
    request_simulation(kind=KIND, competition=db_tour, event=stage, by=users["organiser"])
    _submit(db_tour, tour, 1, user=users["scorekeeper"])  # typed in before a worker got to it
    assert simulate_event_task.delay("tour", stage.pk).get() == "skipped"
    stage.refresh_from_db()
    assert (stage.version, stage.source) == (1, "submitted")
    assert stage.simulation_requested_at is None  # forgotten: nothing left for the sweeper


def test_standings_changes_are_announced_after_commit_with_a_rising_version(
    db_tour, tour, users, django_capture_on_commit_callbacks
):
    from tournament.competitions.signals import standings_changed

    seen = []

    def receiver(sender, change, **kwargs):
        seen.append(change)

    standings_changed.connect(receiver)
    try:
        one = _submit(db_tour, tour, 1, user=users["scorekeeper"])
        with django_capture_on_commit_callbacks(execute=True):
            services.resolve_event(kind=KIND, event_id=one.pk)
        assert [(c.kind, c.version, c.after, c.outcome) for c in seen] == [
            ("tour", 1, 1, "resolved")
        ]
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            _submit(db_tour, tour, 1, order=[2, 3, 4, 5, 0, 1], user=users["scorekeeper"])
        [c.__call__() for c in callbacks if "send" in getattr(c, "__qualname__", "")]
        assert [(c.version, c.after, c.outcome) for c in seen[1:]] == [(2, None, "corrected")]
    finally:
        standings_changed.disconnect(receiver)
    db_tour.refresh_from_db()
    assert db_tour.standings_version == 2
