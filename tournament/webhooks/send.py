"""One POST to a checked address (``guard.check``), with short timeouts and no redirects.

The connection goes to the IP address that was checked, with the URL's host name in the
``Host`` header and, for https, in SNI and the certificate check: a host name that resolves
elsewhere a moment later is never called. Redirects are not followed at all: a 3xx answer is a
failed attempt like any non-2xx answer.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from tournament.webhooks.guard import Target

#: Most of a receiver's answer kept for the error message.
ANSWER_BYTES = 300


@dataclass(frozen=True)
class Answer:
    status: int | None
    error: str
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
        self.address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(target: Target, body: bytes, headers: dict[str, str], timeout: float) -> Answer:
    """POST ``body``; the answer's status, or the error (a timeout, a refused connection)."""
    cls = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    connection = cls(target, timeout)
    started = time.monotonic()
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read(ANSWER_BYTES).decode("utf-8", "replace").strip()
        status = response.status
    except (OSError, http.client.HTTPException) as exc:
        error = "timed out" if isinstance(exc, TimeoutError | socket.timeout) else str(exc)
        return Answer(None, error or type(exc).__name__, _ms(started))
    finally:
        connection.close()
    error = "" if 200 <= status < 300 else f"HTTP {status}" + (f": {text}" if text else "")
    return Answer(status, error, _ms(started))


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
