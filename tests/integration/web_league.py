"""The services a person's browser talks to, as real processes: the standings service (dashboards, public lists)
and the gateway that serves the play page and knows where the standings are (STANDINGS_URL); matchmaking too when
tournaments are played. The engine and the RNG service are the session's ``game_services``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra


@dataclass(frozen=True)
class WebLeague:
    gateway: str
    standings: str


@contextmanager
def web_league(infra: RunInfra, name: str, *, matchmaking: bool = False) -> Iterator[WebLeague]:
    """Started in order, each healthy before the next; all stopped at the end, whatever happened (a clean stop is
    checked only when the block itself went well)."""
    env = {**infra.env, "LOG_LEVEL": "warning"}
    standings = ServiceProcess("standings", env, infra.tmp / f"{name}-standings.log")
    services = [standings]
    if matchmaking:
        services.append(ServiceProcess("matchmaking", env, infra.tmp / f"{name}-matchmaking.log"))
    services.append(ServiceProcess("gateway", {**env, "STANDINGS_URL": standings.url},
                                   infra.tmp / f"{name}-gateway.log"))
    started: list[ServiceProcess] = []
    ok = False
    try:
        for service in services:
            service.start()
            started.append(service)
            service.wait_healthy(60)
        yield WebLeague(gateway=services[-1].url, standings=standings.url)
        ok = True
    finally:
        codes = [service.stop() for service in reversed(started)]
    if ok:
        assert codes == [0] * len(started), f"a service did not stop cleanly: {codes}"
