from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from shared.infra.processes import ServiceProcess, services_running
from tests.infra import RunInfra
from tests.integration.helpers import service_running


@pytest.fixture(scope="session")
async def game_services(migrated: RunInfra) -> AsyncIterator[dict[str, ServiceProcess]]:
    """The RNG service and the engine, as real processes over NATS."""
    env = {**migrated.env, "LOG_LEVEL": "warning", "RESCAN_SECONDS": "2"}
    with services_running("rng", "engine", env=env, log=lambda name: migrated.tmp / f"{name}.log") as services:
        yield services


@pytest.fixture(scope="module")
async def gateway(migrated: RunInfra, game_services: dict[str, ServiceProcess]) -> AsyncIterator[str]:
    """A relay (with its notary) and a gateway in front of the session's game services: the gateway's URL."""
    env = {**migrated.env, "LOG_LEVEL": "warning"}
    with services_running("relay", "gateway", env=env, log=lambda name: migrated.tmp / f"{name}-gw.log") as services:
        yield services["gateway"].url


@pytest.fixture(scope="module")
async def matchmaking(migrated: RunInfra) -> AsyncIterator[None]:
    with service_running("matchmaking", {**migrated.env, "LOG_LEVEL": "warning"}, migrated.tmp / "mm-gw.log"):
        yield


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as client_session:
        yield client_session
