"""A whole league of its own for the fault tests, run as ``league up`` runs it: an embedded PostgreSQL and
nats-server, every service as a child process, and the supervisor that starts again whatever exits. Its own servers,
because these tests kill them."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from shared.bus.auth import ADMIN
from shared.cli.migrate import prepare_database, services_database_url
from shared.infra.embedded_nats import EmbeddedNats
from shared.infra.embedded_postgres import EmbeddedPostgres
from shared.infra.nats_auth import auth_config, nkey_file
from shared.infra.processes import SERVICES, ServiceProcess
from shared.infra.secrets import kept_secret
from shared.infra.supervisor import RestartPolicy, Supervisor, supervising

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
        return {name: _status(f"{service.url}/healthz") for name, service in self.services.items()}

    async def all_healthy(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while True:
            statuses = await asyncio.to_thread(self.healthz)
            if all(status == 200 for status in statuses.values()):
                return
            assert time.monotonic() < deadline, f"not every service healthy within {timeout}s: {statuses}"
            await asyncio.sleep(0.25)

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


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


@contextmanager
def running_league(data: Path) -> Iterator[League]:
    # Durable, as `league up` runs it: with synchronous_commit off (the tests' fast setting) a killed PostgreSQL
    # loses its last commits, which the relay may have published already.
    # Closed, as league up's: PostgreSQL asks a password, NATS an nkey, each service has its own login and user.
    secrets_dir = data / "secrets"
    password = kept_secret(secrets_dir / "postgres.password", lambda: secrets.token_urlsafe(24))
    postgres = EmbeddedPostgres(data / "postgres", durable=True, password=password)
    nats = EmbeddedNats(data / "nats", auth_config(secrets_dir, [""]))
    services: dict[str, ServiceProcess] = {}
    try:
        database_url = postgres.start()
        nats_url = nats.start()
        logins = asyncio.run(prepare_database(database_url, secrets_dir))
        env = {"DATABASE_URL": services_database_url(database_url, logins), "NATS_URL": nats_url,
               "SECRETS_DIR": str(secrets_dir), "ENVIRONMENT": "test", "LOG_LEVEL": "warning",
               "DATA_DIR": str(data / "keys"), "RESCAN_SECONDS": "2", "NOTARY_SECONDS": "1"}
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
