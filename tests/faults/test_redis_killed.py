"""Redis killed (SIGKILL) under load: the worker keeps running and nothing is lost.

Issue #13, item 7: the worker exited with ``CRITICAL Unrecoverable error: AttributeError("'NoneType'
object has no attribute 'hostname'")`` in kombu's ``restore_unacked`` when Redis was killed under
load, and stages stayed ``submitted`` until someone restarted it. The first test reproduces the
mechanism directly (a channel holding unacknowledged messages closed after kombu detached its
transport) against kombu's own transport and against Podium's (``tournament/broker.py``). The
second kills a private Redis while a real web server takes results and a prefork worker (as in
docker/compose.yaml) resolves them, starts it again empty, and requires the same worker process
to carry on and every stage to end resolved (beat's sweeper queues what the kill lost).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis as redis_client
from kombu import Connection, Exchange, Queue
from kombu.transport import redis as kombu_redis
from rest_framework.authtoken.models import Token

from tests.faults.conftest import (
    CHAMPIONSHIP,
    RALLY,
    TOUR,
    PrivateRedis,
    assert_consistent,
    elapsed,
    start_beat,
    wait_for,
)
from tests.faults.test_broker_down import stack  # noqa: F401  (fixture)
from tournament.broker import Transport

pytestmark = [pytest.mark.integration]


def _channel_with_unacked_message(url: str, transport: Any) -> tuple[Any, Any]:
    """A consumer's channel that holds one delivered, unacknowledged message."""
    conn = Connection(url, transport=transport)
    queue = Queue("h4-restore", Exchange("h4-restore"), "h4-restore")
    with conn.Producer() as producer:
        producer.publish(
            {"n": 1}, exchange=queue.exchange, routing_key="h4-restore", declare=[queue]
        )
    channel = conn.channel()
    received: list[Any] = []
    consumer = conn.Consumer(queue, channel=channel, callbacks=[lambda b, m: received.append(m)])
    consumer.qos(prefetch_count=1)
    consumer.consume()
    conn.drain_events(timeout=5)
    assert len(received) == 1 and len(channel.qos._delivered) == 1
    return conn, channel


@pytest.mark.parametrize("transport", ["kombu", "podium"])
def test_closing_a_channel_after_its_transport_is_detached(
    transport: str, private_redis: PrivateRedis
) -> None:
    """What the worker's clean-up does when the connection is lost, reduced to its two steps."""
    conn, channel = _channel_with_unacked_message(
        private_redis.url, kombu_redis.Transport if transport == "kombu" else Transport
    )
    conn._do_close_transport()  # kombu on a lost connection: transport.client = None
    if transport == "kombu":
        # The upstream fault the worker died of. (If kombu ever fixes it, this fails: the
        # guard in tournament/broker.py can then go.)
        with pytest.raises(AttributeError, match="hostname"):
            channel.close()
        return
    channel.close()  # no error: the worker's clean-up carries on and it reconnects
    # Nothing lost: the message is still in Redis' unacknowledged set, and a worker's
    # visibility scan puts it back on its queue.
    broker = redis_client.Redis.from_url(private_redis.url)
    assert broker.hlen("unacked") == 1
    with Connection(
        private_redis.url, transport=Transport, transport_options={"visibility_timeout": 0}
    ) as fresh:
        fresh.default_channel.qos.restore_visible(num=10)
    assert broker.llen("h4-restore") == 1 and broker.hlen("unacked") == 0


@pytest.mark.django_db(transaction=True)
def test_redis_killed_under_load_the_worker_carries_on_and_nothing_is_lost(
    cast: dict[str, Any],
    private_redis: PrivateRedis,
    stack: dict[str, Any],  # noqa: F811
    workers: Any,
    figures: Any,
) -> None:
    web, queue, env = stack["web"], stack["queue"], stack["env"]
    # The prefork pool, as deployed (docker/compose.yaml): a parent that consumes and children
    # that run the tasks.
    worker = workers(queue, env, name=f"{queue}-w", pool="prefork")
    stack["started"].append(start_beat(queue, env, stack["tmp"] / "beat"))
    token = Token.objects.create(user=cast["scorekeeper"]).key
    cases = [TOUR, CHAMPIONSHIP, RALLY]
    competitions = [(case, case.create(cast["api"])) for case in cases for _ in range(2)]
    # Every competition's three events, then a correction of each first event: 24 submissions.
    posts = [
        (case, detail, number, number) for number in (1, 2, 3) for case, detail in competitions
    ]
    posts += [(case, detail, 1, 7) for case, detail in competitions]
    answers: list[int] = []
    killed = threading.Event()

    def post_all() -> None:
        for i, (case, detail, number, variant) in enumerate(posts):
            if i == len(posts) // 3:
                killed.set()  # the worker is busy with the first third
            body = {"results": case.rows(detail, variant)}
            code, _body = web.request(
                "POST", case.results_url(detail["id"], number), body, token=token
            )
            answers.append(code)
            time.sleep(0.05)

    poster = threading.Thread(target=post_all)
    poster.start()
    assert killed.wait(timeout=60)
    private_redis.kill()
    killed_at = time.monotonic()
    time.sleep(2)  # submissions go on: stored and answered, their messages lost
    private_redis.start()  # empty: the kill lost every queued and unacknowledged message
    poster.join(timeout=120)
    assert not poster.is_alive()
    assert answers == [202] * len(posts)

    def all_resolved() -> bool:
        return all(
            case.kind.event_model.objects.filter(competition_id=d["id"], version__gt=0)
            .exclude(status="resolved")
            .count()
            == 0
            for case, d in competitions
        )

    wait_for(all_resolved, timeout=90, interval=0.5)
    recovered_in = elapsed(killed_at)
    log = worker.log_text()
    assert worker.process.poll() is None, log[-3000:]  # the same worker, never restarted
    assert "Connection to broker lost" in log  # the fault did reach it
    assert "Unrecoverable error" not in log, log[-3000:]
    for case, detail in competitions:
        summary = assert_consistent(case, detail["id"])
        assert summary == {"events": 3, "snapshots": 3}
        first = case.kind.event_model.objects.get(competition_id=detail["id"], number=1)
        assert first.version == 2  # the correction too
    figures(
        submissions=len(posts),
        all_resolved_after_kill_s=recovered_in,
        worker_pid_unchanged=True,
    )
