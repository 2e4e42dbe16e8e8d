"""Where a webhook may point: ``http``/``https`` URLs whose host resolves only to public addresses.

Loopback, private, link-local, multicast, reserved and unspecified addresses (IPv4 and IPv6,
IPv4-mapped IPv6 read as IPv4) are refused unless ``PODIUM_WEBHOOKS_ALLOW_PRIVATE`` is true. The
check runs when a webhook is saved and again before each attempt, and the attempt connects to the
very address that was checked (``send.py``), so a name that later resolves elsewhere (DNS
rebinding) cannot reach an inside address.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

SCHEMES = {"http": 80, "https": 443}
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(ValueError):
    """The URL may not be called; the message says why (shown to the organiser)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query string
    address: str  # the checked IP the connection goes to


def is_public(address: IPAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    # ``is_global`` also leaves out shared (100.64/10), documentation and benchmarking ranges.
    return address.is_global and not (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


def allow_private() -> bool:
    return bool(getattr(settings, "PODIUM_WEBHOOKS_ALLOW_PRIVATE", False))


def _split(url: str) -> tuple[str, str, int, str]:
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise Refused(_("Only http and https URLs are accepted."))
    try:
        port = parts.port or SCHEMES[parts.scheme]
    except ValueError:
        raise Refused(_("The URL's port is not a number from 1 to 65535.")) from None
    if not parts.hostname:
        raise Refused(_("The URL names no host."))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def _addresses(host: str, port: int) -> list[IPAddress]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise Refused(_("The URL's host %(host)s could not be found.") % {"host": host}) from None
    found: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    return found


def check(url: str) -> Target:
    """The URL's parts and a permitted address to connect to; ``Refused`` otherwise.

    Every address the host resolves to must be public (one private answer among public ones is
    refused too: a later lookup might pick it).
    """
    scheme, host, port, path = _split(url)
    addresses = _addresses(host, port)
    if not addresses:
        raise Refused(_("The URL's host %(host)s could not be found.") % {"host": host})
    if not allow_private():
        for address in addresses:
            if not is_public(address):
                raise Refused(
                    _(
                        "%(host)s is a private, loopback, link-local or multicast address: "
                        "webhooks may only call public addresses."
                    )
                    % {"host": host if str(address) == host.strip("[]") else f"{host} ({address})"}
                )
    return Target(scheme, host, port, path, str(addresses[0]))
