"""Fan-out of live messages to the viewers of one process, fed from Redis or in-process.

Every web process keeps one :class:`Hub`: each open stream subscribes to its competition's key
(``tour:3``) and gets every message published for it. Where messages come from:

- with ``REDIS_URL`` (any deployment with a worker), :func:`publish` sends a message on a Redis
  pub/sub channel, and one :class:`RedisBridge` thread per web process, started with its first
  viewer, listens to every Podium channel (one pattern subscription) and hands each message to
  the hub. A worker, a gunicorn process or this one may publish: any process serves any viewer.
- without ``REDIS_URL`` (tasks run eagerly in the web process, ``dev.py run``), the message is
  handed to this process's hub directly.

Pub/sub delivers only to listeners connected at that moment, so whenever the bridge
(re)subscribes, after a start or a lost connection, it sends :data:`RESYNC` to every viewer,
which then re-reads its competition's version from the database (``tournament.live.stream``):
a change made while Redis was away reaches the screen once Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

import redis
from django.conf import settings

log = logging.getLogger(__name__)

#: Messages a viewer keeps unread before the oldest is dropped (a later standings message
#: supersedes an earlier one, so a slow viewer loses nothing that matters).
QUEUE_SIZE: Final = 16


@dataclass(frozen=True)
class Message:
    """One Server-Sent Event: its name, its JSON data and, for standings, its ``id``."""

    event: str
    data: dict[str, Any] = field(default_factory=dict)
    id: int | None = None

    def encode(self) -> str:
        """The event in the text/event-stream format (the data is one line of JSON)."""
        lines = [f"event: {self.event}"]
        if self.id is not None:
            lines.append(f"id: {self.id}")
        lines.append("data: " + json.dumps(self.data, separators=(",", ":"), sort_keys=True))
        return "\n".join(lines) + "\n\n"


#: Re-read the competition's state: the bridge may have missed messages (see the module text).
RESYNC: Final = Message("resync")


class Subscriber(Protocol):
    def deliver(self, message: Message) -> None:
        """Take ``message``; called from any thread, must not block."""


def _put_latest(target: queue.Queue[Message] | asyncio.Queue[Message], message: Message) -> None:
    """Queue ``message``, dropping the oldest one when the queue is full."""
    try:
        target.put_nowait(message)
    except (queue.Full, asyncio.QueueFull):
        with contextlib.suppress(queue.Empty, asyncio.QueueEmpty):
            target.get_nowait()
        target.put_nowait(message)


class AsyncSubscriber:
    """A viewer served by an event loop (the ASGI process)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[Message] = asyncio.Queue(QUEUE_SIZE)

    def deliver(self, message: Message) -> None:
        with contextlib.suppress(RuntimeError):  # a closed loop: the viewer is gone
            self.loop.call_soon_threadsafe(_put_latest, self.queue, message)


class ThreadSubscriber:
    """A viewer served by a thread of its own (``runserver``: one thread per request)."""

    def __init__(self) -> None:
        self.queue: queue.Queue[Message] = queue.Queue(QUEUE_SIZE)
        self._put_lock = threading.Lock()

    def deliver(self, message: Message) -> None:
        # Several threads deliver to one viewer (the bridge, and without Redis every thread that
        # publishes). Dropping the oldest and putting must be one step: another producer's put
        # in between fills the queue again and the second put_nowait raises queue.Full in the
        # publisher (under load, churning threads died that way with their viewer still in the
        # hub). The reader only takes, so it cannot fill the queue; it needs no lock.
        with self._put_lock:
            _put_latest(self.queue, message)


class Hub:
    """The viewers of this process by key; thread-safe (the bridge runs in a thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Subscriber]] = {}

    def add(self, key: str, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.setdefault(key, set()).add(subscriber)
        if redis_url():
            bridge.ensure_started()

    def remove(self, key: str, subscriber: Subscriber) -> None:
        with self._lock:
            subscribers = self._subscribers.get(key)
            if subscribers is not None:
                subscribers.discard(subscriber)
                if not subscribers:
                    del self._subscribers[key]

    def deliver(self, key: str, message: Message) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(key, ()))
        for subscriber in subscribers:
            subscriber.deliver(message)

    def deliver_all(self, message: Message) -> None:
        with self._lock:
            subscribers = [s for group in self._subscribers.values() for s in group]
        for subscriber in subscribers:
            subscriber.deliver(message)

    def count(self, key: str | None = None) -> int:
        """The viewers of ``key``, or of every key."""
        with self._lock:
            if key is not None:
                return len(self._subscribers.get(key, ()))
            return sum(len(group) for group in self._subscribers.values())


hub = Hub()


# --- Redis ---------------------------------------------------------------------------------------


def redis_url() -> str:
    return str(getattr(settings, "REDIS_URL", "") or "")


def channel_prefix() -> str:
    """The prefix of this deployment's channels.

    Redis pub/sub channels are shared by every database of a server, so the prefix names the
    database of ``REDIS_URL`` and the cache's key prefix (one per test process under xdist):
    two deployments, or two test runs, on one Redis never see each other's messages.
    """
    configured = getattr(settings, "PODIUM_LIVE_CHANNEL_PREFIX", "")
    if configured:
        return str(configured)
    database = urlsplit(redis_url()).path.strip("/") or "0"
    key_prefix = settings.CACHES["default"].get("KEY_PREFIX", "") or "podium"
    return f"{key_prefix}:{database}:live"


def channel_of(key: str) -> str:
    return f"{channel_prefix()}:{key}"


_publisher: redis.Redis | None = None
_publisher_lock = threading.Lock()


def _publisher_client() -> redis.Redis:
    global _publisher
    with _publisher_lock:
        if _publisher is None:
            _publisher = redis.Redis.from_url(
                redis_url(), socket_connect_timeout=2, socket_timeout=2
            )
        return _publisher


def publish(key: str, message: Message) -> None:
    """Send ``message`` to every viewer of ``key`` in every process; never raises.

    A Redis outage loses the message, not the change: viewers re-read the version when the
    bridge reconnects (module text), and pages poll when their stream fails.
    """
    if not redis_url():
        hub.deliver(key, message)
        return
    body = json.dumps({"key": key, "event": message.event, "data": message.data, "id": message.id})
    try:
        _publisher_client().publish(channel_of(key), body)
    except redis.RedisError as exc:
        log.warning("live update for %s not published: %s", key, exc)


def decode(raw: bytes | str) -> tuple[str, Message] | None:
    """``(key, message)`` from a published body, or None for a body that is not ours."""
    try:
        body = json.loads(raw)
        key, event, data, number = body["key"], body["event"], body["data"], body["id"]
    except (ValueError, KeyError, TypeError):
        return None
    if not (isinstance(key, str) and isinstance(event, str) and isinstance(data, dict)):
        return None
    if number is not None and not isinstance(number, int):
        return None
    return key, Message(event, data, number)


class RedisBridge:
    """One thread per process: Redis pub/sub → the hub, reconnecting with back-off."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: Set while subscribed (tests and the benchmark wait for it).
        self.subscribed = threading.Event()

    def ensure_started(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="podium-live", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        delay = 0.5
        while True:
            try:
                self._listen()
            except (redis.RedisError, OSError) as exc:
                log.warning("live updates: Redis connection lost (%s); retry in %.1f s", exc, delay)
            # Back to a short wait after a connection that worked, doubling while none does.
            delay = 0.5 if self.subscribed.is_set() else min(delay * 2, 10.0)
            self.subscribed.clear()
            time.sleep(delay)

    def _listen(self) -> None:
        # health_check_interval: redis-py pings a quiet connection, so a dead one is noticed.
        client = redis.Redis.from_url(
            redis_url(), socket_connect_timeout=2, socket_keepalive=True, health_check_interval=20
        )
        pubsub = client.pubsub()
        try:
            pubsub.psubscribe(channel_of("*"))
            # The first answer confirms the subscription: from here on nothing is missed.
            while pubsub.get_message(timeout=5) is None:
                pass
            self.subscribed.set()
            hub.deliver_all(RESYNC)
            while True:
                raw = pubsub.get_message(timeout=10)
                if raw is None or raw.get("type") != "pmessage":
                    continue
                decoded = decode(raw["data"])
                if decoded is not None:
                    hub.deliver(*decoded)
        finally:
            pubsub.close()
            client.close()


bridge = RedisBridge()
