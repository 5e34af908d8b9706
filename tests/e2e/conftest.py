from __future__ import annotations

from collections.abc import Iterator

import pytest

from shared.infra.processes import SERVICES, ServiceProcess
from tests.infra import RunInfra


@pytest.fixture(scope="session")
def league(migrated: RunInfra) -> Iterator[dict[str, ServiceProcess]]:
    """Every service of a league as a real process, as ``league up`` runs them (without the demo)."""
    env = {**migrated.env, "LOG_LEVEL": "warning"}
    services = {name: ServiceProcess(name, env, migrated.tmp / f"{name}-league.log") for name in SERVICES}
    try:
        for service in services.values():
            service.start()
        for service in services.values():
            service.wait_healthy(90)
        yield services
    finally:
        for service in reversed(services.values()):
            service.stop()
