"""The https path of a delivery (``send.post``): TLS to the checked address, the URL's host name
in SNI and in the certificate check, against a local receiver with a self-signed certificate.

The certificate is trusted through ``SSL_CERT_FILE``, which ``ssl.create_default_context`` (the
context of every attempt) reads: no test-only setting in the code.
"""

from __future__ import annotations

import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.webhooks.receiver import receiver
from tournament.webhooks.guard import Target
from tournament.webhooks.send import post

HOST = "hooks.podium.test"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for HOST (an EC key: quick to make) and its key."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1", "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=DNS:{HOST}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def https_receiver(certificate: tuple[Path, Path]) -> Iterator[Any]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*certificate)
    with receiver(tls=context) as got:
        yield got


def target(url: str, host: str = HOST) -> Target:
    """The receiver's address as the guard would have checked it for ``host``."""
    parts = urlsplit(url)
    return Target("https", host, parts.port or 443, parts.path, "127.0.0.1")


def test_https_reaches_the_checked_address_with_the_host_name(
    https_receiver: Any, certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    answer = post(target(https_receiver.url), b'{"n":1}', {"Content-Type": "application/json"}, 5)
    assert (answer.status, answer.error, answer.ok) == (200, "", True)
    [request] = https_receiver.received
    assert request.body == b'{"n":1}' and request.path == "/hook"
    assert request.headers["Host"] == f"{HOST}:{urlsplit(https_receiver.url).port}"


def test_a_certificate_for_another_name_or_untrusted_is_refused(
    https_receiver: Any, certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    other = post(target(https_receiver.url, "elsewhere.podium.test"), b"{}", {}, 5)
    assert other.status is None and "certificate" in other.error.lower()
    monkeypatch.delenv("SSL_CERT_FILE")
    monkeypatch.setenv("SSL_CERT_DIR", str(certificate[0].parent / "none"))
    untrusted = post(target(https_receiver.url), b"{}", {}, 5)
    assert untrusted.status is None and "certificate verify failed" in untrusted.error
    assert https_receiver.received == []  # nothing was sent over a connection it could not trust
