"""A whole league of its own for the fault tests, run as ``league up`` runs it: an embedded PostgreSQL and
nats-server, every service as a child process, and the supervisor that starts again whatever exits. Its own servers,
because these tests kill them."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from shared.bus.auth import ADMIN
from shared.infra.embedded_nats import EmbeddedNats
from shared.infra.embedded_postgres import EmbeddedPostgres
from shared.infra.nats_auth import auth_config, nkey_file
from shared.infra.processes import SERVICES, ServiceProcess
from shared.infra.supervisor import RestartPolicy, Supervisor, supervising
from tests.closed_league import closed_postgres, healthz_status, services_env, until_healthy

POLICY = RestartPolicy(first_delay=0.2, longest_delay=2.0)


@dataclass
class League:
    postgres: EmbeddedPostgres
    nats: EmbeddedNats
    services: dict[str, ServiceProcess]
    secrets_dir: Path
    supervisor: Supervisor | None = None
    said: list[str] = field(default_factory=list)

    @property
    def admin_nkey(self) -> str:
        """The tests' own NATS connections: every subject (the league's NATS is closed, as league up's)."""
        return str(nkey_file(self.secrets_dir, ADMIN))

    @property
    def gateway(self) -> str:
        return self.services["gateway"].url

    def healthz(self) -> dict[str, int]:
        """Each service's /healthz status now (0: no answer)."""
        return {name: healthz_status(service.url) for name, service in self.services.items()}

    async def all_healthy(self, timeout: float = 90) -> None:
        await until_healthy(self.healthz, timeout)

    def kill(self, name: str) -> int:
        """kill -9 of a service, of nats-server, or of PostgreSQL (its whole process group); returns the pid."""
        if name == "postgresql":
            pid = self.postgres.pid
            os.killpg(pid, signal.SIGKILL)
        else:
            pid = self.nats.pid if name == "nats-server" else self.services[name].pid
            os.kill(pid, signal.SIGKILL)
        return pid

    def pid(self, name: str) -> int | None:
        if name == "postgresql":
            return self.postgres.pid
        return self.nats.pid if name == "nats-server" else self.services[name].pid


@contextmanager
def running_league(data: Path) -> Iterator[League]:
    secrets_dir = data / "secrets"
    postgres = closed_postgres(data, secrets_dir)
    nats = EmbeddedNats(data / "nats", auth_config(secrets_dir, [""]))
    services: dict[str, ServiceProcess] = {}
    try:
        env = services_env(data, secrets_dir, postgres.start(), nats.start())
        for name in SERVICES:
            services[name] = ServiceProcess(name, env, data / f"{name}.log")
            services[name].start()
        for service in services.values():
            service.wait_healthy(90)
        league = League(postgres, nats, services, secrets_dir)
        with supervising([postgres, nats, *services.values()], POLICY, say=league.said.append) as supervisor:
            league.supervisor = supervisor
            yield league
    finally:
        for service in services.values():
            service.stop()
        nats.stop()
        postgres.stop()
