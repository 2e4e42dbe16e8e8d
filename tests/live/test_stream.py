"""The never-ending streams: ASGI (Django's async handler, as under uvicorn) and the WSGI
stream of ``runserver``; each gets the ``standings`` of a resolution committed while it is
open, and keep-alive comments while nothing happens.

With ``REDIS_URL`` the message goes through Redis and this process's bridge, as between a
worker and the live service; without it, through the in-process hub (``dev.py run``).
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from tests.conftest import stage_rows
from tests.rallies.helpers import create_rally, sheet
from tests.rallies.helpers import submit as submit_rally
from tournament.live.hub import (
    QUEUE_SIZE,
    RESYNC,
    Hub,
    Message,
    ThreadSubscriber,
    bridge,
    decode,
    hub,
    redis_url,
)
from tournament.live.state import LiveState, Target
from tournament.live.stream import Follower

pytestmark = pytest.mark.django_db

WAIT = 10.0  # seconds: far beyond the 2 s of API.md, only a broken stream takes this long


def parse(chunk: str) -> dict[str, Any]:
    """The fields of one event (``event``, ``id``, ``data`` decoded)."""
    fields: dict[str, Any] = {}
    for line in chunk.strip().splitlines():
        name, _, value = line.partition(": ")
        fields[name] = json.loads(value) if name == "data" else value
    return fields


async def next_chunk(chunks: Any) -> str:
    chunk = await asyncio.wait_for(anext(chunks), WAIT)
    return chunk.decode() if isinstance(chunk, bytes) else str(chunk)


def submit_stage(client: Any, tour: dict[str, Any], number: int = 1) -> None:
    response = client.post(
        f"/api/tours/{tour['id']}/stages/{number}/results/",
        {"results": stage_rows(tour)},
        format="json",
    )
    assert response.status_code == 202, response.content


async def until_standings(chunks: Any, got: list[str]) -> dict[str, Any]:
    while not got[-1].startswith("event: standings"):
        got.append(await next_chunk(chunks))
    return parse(got[-1])


def bridge_ready() -> None:
    """Wait for this process's Redis bridge: its first subscription resyncs every viewer, which
    would turn the message a test waits for into a catch-up read (the same data, once)."""
    if redis_url():
        bridge.ensure_started()
        assert bridge.subscribed.wait(WAIT)


def test_the_asgi_stream_sends_the_resolutions_it_sees(clients, tour, settings):
    settings.PODIUM_LIVE_KEEPALIVE_SECONDS = 0.2
    scorekeeper = clients["scorekeeper"]
    bridge_ready()

    async def scenario() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        response = await AsyncClient().get(
            f"/api/tours/{tour['id']}/events/?since=0", headers={"Accept": "text/event-stream"}
        )
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        chunks = aiter(response.streaming_content)
        got = [await next_chunk(chunks)]  # the prelude; the stream is subscribed from here
        waiting = asyncio.ensure_future(next_chunk(chunks))
        # Committed while the stream reads its state: sent once, as a catch-up or a message.
        await sync_to_async(submit_stage)(scorekeeper, tour, 1)
        got.append(await waiting)
        first = await until_standings(chunks, got)
        # Now certainly a message: published by the resolution, relayed by the hub.
        await sync_to_async(submit_stage)(scorekeeper, tour, 2)
        got.append(await next_chunk(chunks))
        second = await until_standings(chunks, got)
        got.append(await next_chunk(chunks))  # then, nothing happening: a keep-alive comment
        await chunks.aclose()
        return got, first, second

    got, first, second = async_to_sync(scenario)()
    assert got[0].startswith("retry: ")
    assert first["event"] == "standings" and first["id"] == "1"
    assert {"after_stage": 1, "version": 1}.items() <= first["data"].items()
    assert second["id"] == "2"
    assert second["data"] == {"after_stage": 2, "version": 2, "event": 2, "outcome": "resolved"}
    assert got[-1] == ": keep-alive\n\n"
    assert hub.count(f"tour:{tour['id']}") == 0  # the closed stream left the hub


def test_the_wsgi_stream_of_runserver(clients, tour, settings):
    settings.PODIUM_LIVE_WSGI_STREAM = True
    settings.PODIUM_LIVE_KEEPALIVE_SECONDS = 0.2
    bridge_ready()
    response = clients["anonymous"].get(f"/api/tours/{tour['id']}/events/?since=0")
    chunks = iter(response.streaming_content)
    assert next(chunks).decode().startswith("retry: ")
    assert next(chunks).decode() == ": keep-alive\n\n"  # nothing new since version 0
    submit_stage(clients["scorekeeper"], tour)
    received = next(chunks).decode()
    while received == ": keep-alive\n\n":
        received = next(chunks).decode()
    assert parse(received)["data"]["version"] == 1
    response.close()
    assert hub.count(f"tour:{tour['id']}") == 0


def test_a_rally_change_reaches_its_championships(clients):
    rally = create_rally(clients["organiser"])
    cup = (
        clients["organiser"]
        .post(
            "/api/rally-championships/",
            {"club": "velo-lisboa", "name": "Taça", "rallies": [rally["id"]]},
            format="json",
        )
        .json()
    )
    subscriber = ThreadSubscriber()
    bridge_ready()
    hub.add(f"rally-championship:{cup['id']}", subscriber)
    try:
        for number, times in enumerate(((300, 312, "5:20"), (301, 299, 350), (280, 290, 300)), 1):
            submit_rally(clients["scorekeeper"], rally["id"], number, sheet(rally, *times))
        messages = []
        while len(messages) < 3:
            message = subscriber.queue.get(timeout=WAIT)
            if message is not RESYNC:
                messages.append(message)
    finally:
        hub.remove(f"rally-championship:{cup['id']}", subscriber)
    assert [m.event for m in messages] == ["standings"] * 3
    assert [m.data["version"] for m in messages] == [1, 2, 3]
    # The rally counts once its three stages are resolved.
    assert [m.data["after_rally"] for m in messages] == [None, None, 1]


def test_the_follower_sends_each_version_once():
    follower = Follower(Target("tour", 1), since=3)
    state = LiveState("after_stage", 2, 3)
    assert follower.on_state(state) == ""  # the client already shows version 3
    fresh = Message("standings", {"after_stage": 3, "version": 4}, id=4)
    assert follower.on_message(fresh).startswith("event: standings\nid: 4\n")
    assert follower.on_message(fresh) == ""  # a resync read it too, or Redis repeated it
    assert follower.on_state(LiveState("after_stage", 3, 4)) == ""
    assert follower.on_message(Message("forecast", {"version": 4})).startswith("event: forecast")
    assert Follower(Target("tour", 1), since=None).on_state(state) == ""  # a fresh client


def test_only_podium_messages_are_decoded():
    assert decode(b"not json") is None
    assert decode(json.dumps({"key": 1, "event": "x", "data": {}, "id": None})) is None
    assert decode(json.dumps({"key": "tour:1", "event": "x", "data": [], "id": None})) is None
    assert decode(json.dumps({"key": "tour:1", "event": "x", "data": {}, "id": "7"})) is None
    assert decode(json.dumps({"key": "tour:1", "event": "s", "data": {"v": 1}, "id": 1})) == (
        "tour:1",
        Message("s", {"v": 1}, 1),
    )


def test_a_full_queue_keeps_the_newest_messages():
    subscriber = ThreadSubscriber()
    for version in range(100):
        subscriber.deliver(Message("standings", {"version": version}, id=version))
    kept = [subscriber.queue.get_nowait().id for _ in range(subscriber.queue.qsize())]
    assert kept == list(range(100 - len(kept), 100)) and len(kept) > 1


def run_together(work: Any, count: int) -> list[BaseException]:
    """Run ``work(i)`` in ``count`` threads released at once; the errors they raised.

    A barrier, not a sleep, lines them up, so that they contend whatever the machine's load; the
    generous timeouts only bound a deadlock.
    """
    start = threading.Barrier(count)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            start.wait(WAIT)
            work(index)
        except BaseException as exc:  # reported by the test, not lost in a thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "deadlocked"
    return errors


def test_the_hub_is_safe_across_threads():
    # A hub of the test's own: the process's hub may hold other viewers (a live server's).
    own = Hub()
    subscribers = [ThreadSubscriber() for _ in range(8)]

    def churn(index: int) -> None:
        for number in range(200):
            own.add("tour:0", subscribers[index])
            own.deliver("tour:0", Message("ping", {"from": index, "n": number}))
            own.remove("tour:0", subscribers[index])

    assert run_together(churn, len(subscribers)) == []
    assert own.count() == 0
    # Each one got at least its own 200 pings while subscribed: a full queue, oldest dropped.
    assert [s.queue.qsize() for s in subscribers] == [QUEUE_SIZE] * len(subscribers)


def test_a_viewer_fed_by_many_threads_keeps_the_newest_messages():
    # The race behind the hub's failure under load: one producer refilling the queue between
    # another's drop and put made that put raise queue.Full in the producer.
    subscriber = ThreadSubscriber()

    def feed(index: int) -> None:
        for number in range(500):
            subscriber.deliver(Message("ping", {"from": index, "n": number}))

    assert run_together(feed, 8) == []
    kept = [subscriber.queue.get_nowait() for _ in range(subscriber.queue.qsize())]
    assert len(kept) == QUEUE_SIZE
    # The very last delivery (some producer's 500th) is kept; each producer's are in order.
    assert any(m.data["n"] == 499 for m in kept)
    for index in range(8):
        numbers = [m.data["n"] for m in kept if m.data["from"] == index]
        assert numbers == sorted(numbers)
