from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra


@pytest.fixture(scope="session")
async def game_services(migrated: RunInfra) -> AsyncIterator[dict[str, ServiceProcess]]:
    """The RNG service and the engine, as real processes over NATS."""
    env = {**migrated.env, "LOG_LEVEL": "warning", "RESCAN_SECONDS": "2"}
    services = {name: ServiceProcess(name, env, migrated.tmp / f"{name}.log") for name in ("rng", "engine")}
    try:
        for service in services.values():
            service.start()
        for service in services.values():
            service.wait_healthy(60)
    except BaseException:
        for service in services.values():
            service.stop()  # one that failed to start must not leave the others running after the tests
        raise
    yield services
    for service in services.values():
        assert service.stop() == 0
