"""The services a person's browser talks to, as real processes: the standings service (dashboards, public lists)
and the gateway that serves the play page and knows where the standings are (STANDINGS_URL); matchmaking too when
tournaments are played. The engine and the RNG service are the session's ``game_services``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.helpers import service_running


@dataclass(frozen=True)
class WebLeague:
    gateway: str
    standings: str


@contextmanager
def web_league(infra: RunInfra, name: str, *, matchmaking: bool = False) -> Iterator[WebLeague]:
    env = {**infra.env, "LOG_LEVEL": "warning"}
    with ExitStack() as stack:
        standings: ServiceProcess = stack.enter_context(
            service_running("standings", env, infra.tmp / f"{name}-standings.log"))
        if matchmaking:
            stack.enter_context(service_running("matchmaking", env, infra.tmp / f"{name}-matchmaking.log"))
        gateway: ServiceProcess = stack.enter_context(service_running(
            "gateway", {**env, "STANDINGS_URL": standings.url}, infra.tmp / f"{name}-gateway.log"))
        yield WebLeague(gateway=gateway.url, standings=standings.url)
