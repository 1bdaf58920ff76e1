"""Where this server can be reached: what ``tabletape serve`` prints as its last lines, and the
address the pages put in the links handed out at the table, which the other phones must reach.

A server listening on loopback (127.0.0.1, the default) is reached from this machine only; one
listening on every address (``--host 0.0.0.0``) is reached by the other phones at the local
network's address of this machine, which is found by asking the system which address it would
send from (a UDP socket "connected" to an address of the documentation range sends nothing).
"""

from __future__ import annotations

import ipaddress
import socket

# Hosts that name every address of the machine.
EVERY_ADDRESS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, an IPv6 one in brackets or not) is this machine
    alone."""
    bare = host.strip("[]").lower()
    if bare == "localhost" or bare.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def local_network_address() -> str | None:
    """This machine's address on the local network (the one it would send from), or None when
    it has none but loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def network_origin(listen_host: str, port: int) -> str | None:
    """The address other machines open a server listening on ``listen_host``:``port`` at, as
    ``http://192.168.1.20:8000``; None when it listens on loopback only (no other machine
    reaches it) or the machine has no network address."""
    if is_loopback(listen_host):
        return None
    host = local_network_address() if listen_host in EVERY_ADDRESS else listen_host
    if host is None:
        return None
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"
