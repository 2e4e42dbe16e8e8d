"""The address guard without a network: host names answered by a stand-in resolver."""

from __future__ import annotations

import socket

import pytest

from tournament.webhooks import guard


def _resolver(addresses):
    def getaddrinfo(host, port, *args, **kwargs):
        family = {True: socket.AF_INET6, False: socket.AF_INET}
        return [(family[":" in a], socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    return getaddrinfo


@pytest.mark.parametrize(
    ("answers", "ok"),
    [
        (["93.184.216.34"], True),
        (["2606:2800:220:1:248:1893:25c8:1946"], True),
        (["93.184.216.34", "10.0.0.5"], False),  # one private answer among public ones
        (["127.0.0.2"], False),
        (["172.16.4.4"], False),
        (["100.64.0.1"], False),  # shared address space (carrier-grade NAT)
        (["fd00::1"], False),  # unique local
        (["fe80::1"], False),
        (["ff02::1"], False),
        (["240.0.0.1"], False),  # reserved
    ],
)
def test_a_name_is_refused_if_any_address_is_not_public(monkeypatch, settings, answers, ok):
    settings.PODIUM_WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(socket, "getaddrinfo", _resolver(answers))
    if ok:
        target = guard.check("https://hooks.example.org:8443/in?x=1")
        assert (target.host, target.port, target.path) == ("hooks.example.org", 8443, "/in?x=1")
        assert target.address == answers[0]  # the connection goes to the checked address
    else:
        with pytest.raises(guard.Refused):
            guard.check("https://hooks.example.org/in")


def test_an_unknown_host_is_refused(monkeypatch, settings):
    def fail(*args, **kwargs):
        raise socket.gaierror("no such host")

    monkeypatch.setattr(socket, "getaddrinfo", fail)
    with pytest.raises(guard.Refused, match="could not be found"):
        guard.check("https://nowhere.invalid/")
