from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable, Iterable
from pathlib import Path

PICKED_FROM = range(15000, 25000)
"""Where ``free_port`` picks: below Linux's ephemeral range (32768-60999 by default) and the IANA one (49152-)."""
_handed_out: set[int] = set()
_random = random.SystemRandom()


def ephemeral_range() -> range:
    """The ports the kernel gives outgoing connections as their own."""
    try:
        low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        low, high = 49152, 65535
    return range(low, high + 1)


def free_port() -> int:
    """A port a server can listen on now, for a process started later (and started again there after a crash).

    It is picked outside the ephemeral range: a port of that range may meanwhile become an outgoing connection's
    own (a client reconnecting while the server is down), and the server could not listen on it. The kernel's pick
    of port 0 comes from that range, so it is only the last resort. A process is not handed a port twice, from here
    or from ``preferred_port``."""
    ephemeral = ephemeral_range()
    candidates = [port for port in PICKED_FROM if port not in ephemeral and port not in _handed_out]
    for port in _random.sample(candidates, min(len(candidates), 200)):
        if port_is_free(port):
            return _claimed(port)
    for _ in range(100):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port not in _handed_out:
            return _claimed(port)
    raise OSError("no free port for a server")


def reserve(ports: Iterable[int]) -> None:
    """Ports this process will have servers listen on later: ``free_port`` does not hand them out meanwhile."""
    _handed_out.update(ports)


def _claimed(port: int) -> int:
    _handed_out.add(port)
    return port


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a server could listen on ``port`` now. The test bind uses SO_REUSEADDR, as the services' own
    listening sockets do (asyncio's default): a port held only by connections in TIME_WAIT (a server stopped a
    moment ago) is free to them, and must be to this test too."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
            sock.listen(1)
        except OSError:
            return False
    return True


def preferred_port(port: int, what: str = "", say: Callable[[str], None] | None = None) -> int:
    """``port`` when a server can listen on it (one handed out before too), else any free port, announced through
    ``say`` (naming ``what``). Neither is handed out by ``free_port`` after."""
    if port_is_free(port):
        return _claimed(port)
    other = free_port()
    if say is not None:
        say(f"league: WARNING port {port} is taken by another program: {what or 'the service'} listens on {other} "
            f"instead")
    return other


def wait_for_port(port: int, timeout: float, what: str, exited: Callable[[], int | None] = lambda: None) -> None:
    """Until a server listens on ``port``; ``exited`` (the server's exit status, None while it runs) ends the wait
    early when the server gave up, instead of at the timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (status := exited()) is not None:
            raise RuntimeError(f"{what} exited (status {status}) before listening on 127.0.0.1:{port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"{what} did not open 127.0.0.1:{port} within {timeout:.0f}s")
