"""The text/event-stream of one target, served three ways.

- **ASGI** (uvicorn, the ``live`` service): an async generator; an idle viewer costs a queue and
  a suspended generator, no thread, so one process holds hundreds (``bench/bench_live.py``).
- **WSGI with** ``PODIUM_LIVE_WSGI_STREAM`` (default: on under ``DEBUG``, so ``runserver`` and
  ``dev.py run``): a plain generator that holds its request's thread; fine for development,
  where every request has a thread of its own.
- **WSGI otherwise** (gunicorn, when the proxy sends the route there by mistake): a short answer
  that never holds a worker: the catch-up event if the client is behind, and ``retry`` with
  the polling interval, so the browser's EventSource reconnects and polls through the stream.

Every stream starts with ``retry`` and a comment, sends a comment line every
``PODIUM_LIVE_KEEPALIVE_SECONDS`` (15: under the 30 s of API.md, and under the proxies' usual
60 s read timeout), and sends ``standings`` only for a version newer than the client's: the
``Last-Event-ID`` it reconnects with, or ``?since=`` (the version its page shows).
"""

from __future__ import annotations

import asyncio
import queue
from collections.abc import AsyncIterator, Iterator
from typing import Final

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import StreamingHttpResponse

from tournament.live.hub import RESYNC, AsyncSubscriber, Message, ThreadSubscriber, hub
from tournament.live.state import LiveState, Target

CONTENT_TYPE: Final = "text/event-stream"
KEEPALIVE: Final = ": keep-alive\n\n"


def keepalive_seconds() -> float:
    return float(getattr(settings, "PODIUM_LIVE_KEEPALIVE_SECONDS", 15))


def poll_seconds() -> int:
    return int(getattr(settings, "PODIUM_LIVE_POLL_SECONDS", 10))


def read_state(target: Target) -> LiveState:
    """The target's state, read on a connection closed right after (outside a transaction).

    An open stream must not hold a database connection: hundreds of viewers would exhaust the
    server's ``max_connections``. The async stream reads in the shared thread pool
    (``thread_sensitive=False``), not in its request's own thread, and closes each time; the
    reads are rare (a connection, a reconnection of the bridge).
    """
    try:
        return target.state()
    finally:
        if not connection.in_atomic_block:
            connection.close()


def release_connection() -> None:
    """Close this thread's database connection before a long stream (not inside a test's
    transaction, or a request's ``ATOMIC_REQUESTS``): Django closes it only when the response
    ends, which for a stream may be hours later."""
    if not connection.in_atomic_block:
        connection.close()


def prelude(retry_ms: int) -> str:
    # The comment also makes proxies and browsers see the stream open at once.
    return f"retry: {retry_ms}\n: podium live updates\n\n"


class Follower:
    """What one viewer has been sent; decides what to send next."""

    def __init__(self, target: Target, since: int | None) -> None:
        self.target = target
        self.last = since

    def on_state(self, state: LiveState) -> str:
        """The catch-up event when the stored version is newer than the client's, else ''."""
        if self.last is None:
            self.last = state.version  # a client with no version gets only what follows
            return ""
        if state.version <= self.last:
            return ""
        self.last = state.version
        return Message("standings", state.as_json(), id=state.version).encode()

    def on_message(self, message: Message) -> str:
        if message.event == "standings" and message.id is not None:
            if self.last is not None and message.id <= self.last:
                return ""  # already sent (a catch-up read it first) or out of order
            self.last = message.id
        return message.encode()


async def follow_async(target: Target, since: int | None) -> AsyncIterator[str]:
    subscriber = AsyncSubscriber(asyncio.get_running_loop())
    # Subscribe before reading the state: a change committed in between is then read or
    # received (or both: the follower sends each version once).
    hub.add(target.key, subscriber)
    read = sync_to_async(read_state, thread_sensitive=False)
    follower = Follower(target, since)
    try:
        yield prelude(poll_seconds() * 1000)
        caught_up = follower.on_state(await read(target))
        if caught_up:
            yield caught_up
        while True:
            try:
                message = await asyncio.wait_for(subscriber.queue.get(), keepalive_seconds())
            except TimeoutError:
                yield KEEPALIVE
                continue
            out = (
                follower.on_state(await read(target))
                if message is RESYNC
                else follower.on_message(message)
            )
            if out:
                yield out
    finally:
        hub.remove(target.key, subscriber)


def follow_sync(target: Target, since: int | None) -> Iterator[str]:
    subscriber = ThreadSubscriber()
    hub.add(target.key, subscriber)
    follower = Follower(target, since)
    try:
        yield prelude(poll_seconds() * 1000)
        # read_state closes the thread's connection after each read: a stream that waits for
        # hours (or a live server's thread the browser left) holds no database session.
        yield follower.on_state(read_state(target)) or KEEPALIVE
        while True:
            try:
                message = subscriber.queue.get(timeout=keepalive_seconds())
            except queue.Empty:
                yield KEEPALIVE  # also how a closed connection is noticed: the write fails
                continue
            out = (
                follower.on_state(read_state(target))
                if message is RESYNC
                else follower.on_message(message)
            )
            if out:
                yield out
    finally:
        hub.remove(target.key, subscriber)


def answer_once(target: Target, since: int | None) -> Iterator[str]:
    """A stream that ends at once: reconnect (and so poll) every ``poll_seconds``."""
    yield prelude(poll_seconds() * 1000)
    caught_up = Follower(target, since).on_state(target.state())
    if caught_up:
        yield caught_up


def response(target: Target, since: int | None, *, asgi: bool) -> StreamingHttpResponse:
    if asgi:
        release_connection()
        content: AsyncIterator[str] | Iterator[str] = follow_async(target, since)
    elif getattr(settings, "PODIUM_LIVE_WSGI_STREAM", settings.DEBUG):
        release_connection()
        content = follow_sync(target, since)
    else:
        content = answer_once(target, since)
    answer = StreamingHttpResponse(content, content_type=CONTENT_TYPE)
    answer["Cache-Control"] = "no-cache"
    # nginx buffers proxied answers unless told not to (README, reverse proxy).
    answer["X-Accel-Buffering"] = "no"
    return answer
