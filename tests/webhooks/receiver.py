"""A tiny HTTP receiver on 127.0.0.1 for the webhook tests: it answers the statuses it is told
to (then 200) and keeps each request's path, headers and raw body."""

from __future__ import annotations

import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    statuses: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)


@contextmanager
def receiver(
    statuses: list[int] | None = None, tls: ssl.SSLContext | None = None
) -> Iterator[Receiver]:
    """A receiver on 127.0.0.1; with ``tls`` (a server context), an https one."""
    state = Receiver(url="", statuses=list(statuses or []))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            state.received.append(Received(self.path, dict(self.headers.items()), body))
            code = state.statuses.pop(0) if state.statuses else 200
            self.send_response(code)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    # serve_forever checks for shutdown() every poll_interval (0.5 s by default): every test
    # with a receiver waited that long at its end.
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    scheme = "https" if tls is not None else "http"
    state.url = f"{scheme}://127.0.0.1:{server.server_address[1]}/hook"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
