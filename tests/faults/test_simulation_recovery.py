"""A requested simulation is never lost: the broker down at the request, its worker killed.

Issue #13, item 5: ``POST .../simulate/`` answered 202 while Redis was down, and the stage stayed
``planned`` for good (the sweeper re-queued only resolutions). Item 6: the two simulations a
worker had taken when it was killed (SIGKILL) waited for the 600 s visibility timeout. A request
is now stored on the event and its worker holds a lease it renews; the sweeper queues a request
that no live worker holds. Both tests end with every simulation stored exactly once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.conftest import tour_payload
from tests.faults.conftest import (
    LockHolder,
    PrivateRedis,
    assert_consistent,
    elapsed,
    kinds,
    start_beat,
    table,
    wait_for,
    wait_for_lock_waiter,
)
from tests.faults.conftest import _championship_payload as championship_payload
from tests.faults.test_broker_down import stack  # noqa: F401  (fixture)
from tests.rallies.helpers import rally_payload
from tournament.competitions.kinds import GameKind, get_kind
from tournament.competitions.models import AuditAction, AuditEntry

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

RECOVERY_LIMIT_SECONDS = 60  # "seconds to a minute"
LEASE_SECONDS = "2"  # short, so the tests do not wait the production 15 s


@dataclass(frozen=True)
class SimCase:
    """A game whose event 1 the engine can play (a course, a circuit, a layout)."""

    label: str
    collection: str
    events: str
    payload: Callable[[], dict[str, Any]]

    @property
    def kind(self) -> GameKind:
        return get_kind(self.label)  # type: ignore[return-value]

    def create(self, api: Any) -> int:
        response = api.post(f"/api/{self.collection}/", self.payload(), format="json")
        assert response.status_code == 201, response.content
        return int(response.json()["id"])

    def simulate_url(self, cid: int) -> str:
        return f"/api/{self.collection}/{cid}/{self.events}/1/simulate/"

    def event(self, cid: int) -> Any:
        return self.kind.event_model.objects.get(competition_id=cid, number=1)


CASES = [
    pytest.param(SimCase("tour", "tours", "stages", tour_payload), id="tour"),
    pytest.param(
        SimCase("championship", "championships", "races", championship_payload),
        id="championship",
    ),
    pytest.param(SimCase("rally", "rallies", "stages", rally_payload), id="rally"),
]


def _simulated_once(case: SimCase, cid: int) -> bool:
    event = case.event(cid)
    return event.status == "resolved" and event.version == 1


def _assert_exactly_once(case: SimCase, cids: list[int]) -> None:
    for cid in cids:
        event = case.event(cid)
        assert (event.version, event.source, event.status) == (1, "simulated", "resolved")
        assert case.kind.version_model.objects.filter(event=event).count() == 1
        assert event.simulation_requested_at is None and event.simulation_lease_until is None
        simulated = AuditEntry.objects.filter(
            competition_kind=case.label,
            competition_id=cid,
            action=AuditAction.RESULTS_SIMULATED,
        )
        assert simulated.count() == 1
        assert_consistent(_results_case(case), cid)


def _results_case(case: SimCase) -> Any:
    """assert_consistent reads only ``kind`` from its case."""
    return type("Case", (), {"kind": case.kind})()


@pytest.mark.parametrize("case", kinds("rally", CASES))
def test_a_simulation_asked_for_while_redis_is_down_is_played_once_it_is_back(
    case: SimCase,
    cast: dict[str, Any],
    private_redis: PrivateRedis,
    stack: dict[str, Any],  # noqa: F811
    workers: Any,
    figures: Any,
) -> None:
    web = stack["web"]
    token = Token.objects.create(user=cast["scorekeeper"]).key
    cids = [case.create(cast["api"]) for _ in range(2)]

    private_redis.stop()
    for cid in cids:
        code, body = web.request("POST", case.simulate_url(cid), token=token)
        assert code == 202, body
    time.sleep(1.5)
    for cid in cids:
        event = case.event(cid)
        # Not played (no broker), but not forgotten either: the request is on the event.
        assert (event.status, event.version) == ("planned", 0)
        assert event.simulation_requested_at is not None
        assert event.simulation_requested_by == cast["scorekeeper"]

    private_redis.start()  # empty: the outage lost the simulation messages
    back = time.monotonic()
    env = {**stack["env"], "PODIUM_SIMULATION_LEASE_SECONDS": LEASE_SECONDS}
    workers(stack["queue"], env, name=f"{stack['queue']}-w")
    stack["started"].append(start_beat(stack["queue"], env, stack["tmp"] / "beat"))
    wait_for(lambda: all(_simulated_once(case, c) for c in cids), timeout=RECOVERY_LIMIT_SECONDS)
    played_in = elapsed(back)
    _assert_exactly_once(case, cids)
    figures(requests=len(cids), simulated_after_broker_back_s=played_in)


@pytest.mark.parametrize("case", kinds("tour", CASES))
def test_simulations_taken_by_a_killed_worker_are_played_within_a_minute_exactly_once(
    case: SimCase,
    cast: dict[str, Any],
    stack: dict[str, Any],  # noqa: F811
    workers: Any,
    lock_holder: LockHolder,
    figures: Any,
) -> None:
    """The production visibility timeout (600 s) stays: before the fix the killed worker's
    simulations waited for it; now the lease it stopped renewing expires and a sweep queues
    them again. The broker is a private Redis, so the killed worker's unacknowledged messages
    go with it after the test."""
    web, queue = stack["web"], stack["queue"]
    env = {**stack["env"], "PODIUM_SIMULATION_LEASE_SECONDS": LEASE_SECONDS}
    assert "CELERY_VISIBILITY_TIMEOUT" not in env
    token = Token.objects.create(user=cast["scorekeeper"]).key
    first = workers(queue, env, name=f"{queue}-a")
    cids = [case.create(cast["api"]) for _ in range(3)]
    # The first competition's row is held: the worker plays the engine, then waits to store;
    # the other two wait behind it (one reserved by the worker, one in the queue).
    lock_holder.execute(
        f"SELECT id FROM {table(case.kind.competition_model)} WHERE id = %s FOR UPDATE",
        [cids[0]],
    )
    for cid in cids:
        code, body = web.request("POST", case.simulate_url(cid), token=token)
        assert code == 202, body
    wait_for_lock_waiter("FOR UPDATE", timeout=30)
    assert case.event(cids[0]).simulation_lease_until is not None  # taken, mid-simulation
    first.kill()
    killed_at = time.monotonic()
    lock_holder.release()
    for cid in cids:
        assert case.event(cid).version == 0  # nothing stored by the killed worker

    # A restarted machine: a new worker and beat's sweeper.
    workers(queue, env, name=f"{queue}-b")
    stack["started"].append(start_beat(queue, env, stack["tmp"] / "beat"))
    wait_for(lambda: all(_simulated_once(case, c) for c in cids), timeout=RECOVERY_LIMIT_SECONDS)
    recovered_in = elapsed(killed_at)
    time.sleep(3)  # more sweeps and deliveries: still one version each
    _assert_exactly_once(case, cids)
    figures(simulations=len(cids), recovered_after_kill_s=recovered_in)
