"""A league spread as a deployment spreads it, on this machine: a 3-node nats-server cluster (the event streams kept
on all three), one PostgreSQL, two engine and two gateway replicas and one of each other service, each a child
process. Its own servers, because the cluster test kills some of them; nothing restarts them but the test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from shared.bus.auth import ADMIN
from shared.infra.embedded_postgres import EmbeddedPostgres
from shared.infra.nats_auth import auth_config, nkey_file
from shared.infra.nats_cluster import EmbeddedNatsCluster
from shared.infra.processes import SERVICES, ServiceProcess
from tests.closed_league import closed_postgres, healthz_status, services_env, until_healthy

REPLICAS = {"engine": 2, "gateway": 2}


@dataclass
class ClusterLeague:
    postgres: EmbeddedPostgres
    nats: EmbeddedNatsCluster
    processes: dict[str, ServiceProcess]
    """By replica name: ``engine-1``, ``engine-2``, ``gateway-1``, ..., ``relay``."""
    secrets_dir: Path

    @property
    def admin_nkey(self) -> str:
        return str(nkey_file(self.secrets_dir, ADMIN))

    def replicas(self, service: str) -> list[ServiceProcess]:
        return [process for process in self.processes.values() if process.name == service]

    def statuses(self) -> dict[str, int]:
        """Each live process's /healthz status now (0: no answer)."""
        return {name: healthz_status(process.url) for name, process in self.processes.items() if process.alive()}

    async def all_healthy(self, timeout: float = 90) -> None:
        await until_healthy(self.statuses, timeout)


def replica_names(service: str) -> list[str]:
    count = REPLICAS.get(service, 1)
    return [service] if count == 1 else [f"{service}-{n + 1}" for n in range(count)]


@contextmanager
def running_cluster_league(data: Path) -> Iterator[ClusterLeague]:
    secrets_dir = data / "secrets"
    postgres = closed_postgres(data, secrets_dir)
    nats = EmbeddedNatsCluster(data / "nats", auth_config(secrets_dir, [""]))
    processes: dict[str, ServiceProcess] = {}
    try:
        env = {**services_env(data, secrets_dir, postgres.start(), nats.start()),
               "JETSTREAM_REPLICAS": str(len(nats.servers)), "HTTP_CONNECTIONS_PER_CLIENT": "100000"}
        for service in SERVICES:
            for name in replica_names(service):
                processes[name] = ServiceProcess(service, env, data / f"{name}.log")
                processes[name].start()
        for process in processes.values():
            process.wait_healthy(90)
        yield ClusterLeague(postgres, nats, processes, secrets_dir)
    finally:
        for process in processes.values():
            process.stop()
        nats.stop()
        postgres.stop()
