"""The ports ``league up`` gives its services: the gateway and the dashboard on the ports the README promises
(``LEAGUE_GATEWAY_PORT``, ``LEAGUE_STANDINGS_PORT`` to choose others), every other service on a free one."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

from shared.infra.ports import free_port, preferred_port, reserve

DEFAULT_PORTS = {"gateway": 8080, "standings": 8081}


def wanted_ports(environ: Mapping[str, str]) -> dict[str, int]:
    wanted = dict(DEFAULT_PORTS)
    for name in DEFAULT_PORTS:
        variable = f"LEAGUE_{name.upper()}_PORT"
        if text := environ.get(variable):
            if not text.isdigit() or not 1 <= int(text) <= 65535:
                raise SystemExit(f"league: {variable}={text!r} is not a port (1-65535)")
            wanted[name] = int(text)
    return wanted


def reserve_wanted_ports(environ: Mapping[str, str] | None = None) -> None:
    """Before the embedded PostgreSQL and nats-server pick their ports: never one the gateway or the dashboard wants
    (a league started again with ``LEAGUE_GATEWAY_PORT`` in ``free_port``'s range could find its gateway's port
    taken by its own database)."""
    reserve(wanted_ports(os.environ if environ is None else environ).values())


def service_ports(names: Iterable[str], say: Callable[[str], None],
                  environ: Mapping[str, str] | None = None) -> dict[str, int]:
    wanted = wanted_ports(os.environ if environ is None else environ)
    return {name: preferred_port(wanted[name], name, say) if name in wanted else free_port() for name in names}
