"""What the fault and cluster suites' leagues share: servers of their own, closed as ``league up``'s are (PostgreSQL
asks a password, NATS an nkey, each service has its own login and user) and durable (with synchronous_commit off a
killed PostgreSQL loses its last commits, which the relay may have published already)."""

from __future__ import annotations

import asyncio
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from shared.cli.migrate import prepare_database, services_database_url
from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool
from shared.infra.embedded_postgres import EmbeddedPostgres
from shared.infra.secrets import kept_secret


def closed_postgres(data: Path, secrets_dir: Path) -> EmbeddedPostgres:
    password = kept_secret(secrets_dir / "postgres.password", lambda: secrets.token_urlsafe(24))
    return EmbeddedPostgres(data / "postgres", durable=True, password=password)


def services_env(data: Path, secrets_dir: Path, database_url: str, nats_url: str) -> dict[str, str]:
    """Migrates the database and makes each service's login; what every service of the league is started with."""
    logins = asyncio.run(prepare_database(database_url, secrets_dir))
    return {"DATABASE_URL": services_database_url(database_url, logins), "NATS_URL": nats_url,
            "SECRETS_DIR": str(secrets_dir), "ENVIRONMENT": "test", "LOG_LEVEL": "warning",
            "DATA_DIR": str(data / "keys"), "RESCAN_SECONDS": "2", "NOTARY_SECONDS": "1"}


def healthz_status(url: str) -> int:
    """A service's /healthz status now (0: no answer)."""
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


async def until_healthy(statuses: Callable[[], dict[str, int]], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        now = await asyncio.to_thread(statuses)
        if all(status == 200 for status in now.values()):
            return
        assert time.monotonic() < deadline, f"not every service healthy within {timeout}s: {now}"
        await asyncio.sleep(0.25)


@asynccontextmanager
async def store_as(database_url: str, role: str, max_size: int) -> AsyncIterator[EventStore]:
    """The league's log as ``role`` (``league_standings`` owns the projections' tables: what a rebuild uses)."""
    pool = await create_pool(database_url, role=role, max_size=max_size)
    try:
        yield EventStore(pool)
    finally:
        await pool.close()
