"""The gateway's and the dashboard's ports stay theirs across a quick restart: a port held only by connections in
TIME_WAIT is free to a server (SO_REUSEADDR, asyncio's default), and ``preferred_port`` must agree."""

from __future__ import annotations

import socket
import time

import pytest

from shared.cli.service_ports import reserve_wanted_ports
from shared.infra.ports import PICKED_FROM, ephemeral_range, free_port, port_is_free, preferred_port, wait_for_port


def leave_time_wait() -> int:
    """A port that a stopped server left in TIME_WAIT: the server closed its side of a connection first."""
    port = free_port()
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen()
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = listener.accept()
        accepted.close()  # the server's side closes first: it is the side that waits in TIME_WAIT
        client.recv(1)
        client.close()
    return port


def binds_without_reuse(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_a_port_in_time_wait_is_kept() -> None:
    port = leave_time_wait()
    assert not binds_without_reuse(port), "the test must leave the port in TIME_WAIT"
    said: list[str] = []
    assert port_is_free(port)
    assert preferred_port(port, "gateway", said.append) == port
    assert said == []


def test_a_port_really_taken_is_replaced_and_said() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        said: list[str] = []
        other = preferred_port(port, "gateway", said.append)
        assert other != port
        assert said == [f"league: WARNING port {port} is taken by another program: gateway listens on {other} "
                        "instead"]


@pytest.mark.parametrize("reuse", [True, False])
def test_a_bound_listener_of_any_kind_is_taken(reuse: bool) -> None:
    with socket.socket() as holder:
        if reuse:
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        assert not port_is_free(holder.getsockname()[1])


def test_free_ports_are_outside_the_ephemeral_range_free_and_each_handed_out_once() -> None:
    """An outgoing connection takes its own port from the ephemeral range: a port picked there could be taken
    before (or, for a server restarted after a crash, between) the server's binds."""
    if all(port in ephemeral_range() for port in PICKED_FROM):
        pytest.skip("this machine's ephemeral range covers every port free_port picks from")
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == 50
    assert not any(port in ephemeral_range() for port in ports)
    assert all(port_is_free(port) for port in ports)


def test_a_reserved_port_is_never_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """``league up`` starts PostgreSQL and nats-server on free ports before its services: the gateway's and the
    dashboard's wanted ports are reserved first, or the database could take the gateway's port (seen in
    test_league_up with ``LEAGUE_GATEWAY_PORT`` in ``free_port``'s range)."""
    wanted, other = free_port(), free_port()
    monkeypatch.setattr("shared.infra.ports._handed_out", set())
    monkeypatch.setattr("shared.infra.ports.PICKED_FROM", [wanted, other])
    reserve_wanted_ports({"LEAGUE_GATEWAY_PORT": str(wanted)})
    assert free_port() == other
    assert free_port() != wanted  # nothing left to pick from: the kernel's pick, never the reserved port
    assert preferred_port(wanted) == wanted  # the service itself still gets it


def test_waiting_for_a_server_that_exited_ends_at_once_with_its_status() -> None:
    started = time.monotonic()
    with pytest.raises(RuntimeError, match=r"the server exited \(status 1\) before listening"):
        wait_for_port(free_port(), 30, "the server", lambda: 1)
    assert time.monotonic() - started < 5
