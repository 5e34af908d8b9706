"""Real PostgreSQL and NATS for the tests: embedded on free ports in a temp dir, or DATABASE_URL / NATS_URL.

Either way each run gets its own database and its own NATS namespace, so runs never see each other's data. The
database is migrated and every service has its own login before any test runs; an embedded NATS is closed (nkeys,
per-user permissions for the run's namespaces), and the tests' own connections use its admin user.
"""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import nats

from shared.bus.auth import ADMIN
from shared.bus.namespace import Namespace
from shared.cli.migrate import prepare_database, services_database_url
from shared.eventstore.roles import LOGINS, drop_logins, login_file, read_login
from shared.infra.local import start_infra
from shared.infra.nats_auth import nkey_file
from shared.keyfiles import new_key_text

SPARE_NAMESPACES = 3
"""Namespaces besides the run's own that its NATS users may use (tests that want services apart, on one server)."""


@dataclass(frozen=True)
class RunInfra:
    database_url: str
    """The run's database, as its owner."""
    admin_url: str
    nats_url: str
    namespace: Namespace
    tmp: Path
    secrets_dir: Path
    logins: bool
    """Every service has its own database login in ``secrets_dir`` (False: the owner may not make them)."""
    nats_closed: bool
    spare_namespaces: tuple[Namespace, ...] = ()
    rng_seed_key: str = field(default_factory=new_key_text)
    rng_engine_key: str = field(default_factory=new_key_text)

    @property
    def admin_nkey(self) -> str:
        """The tests' own NATS connections: every subject (empty when NATS asks no credentials)."""
        return str(nkey_file(self.secrets_dir, ADMIN)) if self.nats_closed else ""

    @property
    def env(self) -> dict[str, str]:
        """What a service started by a test needs to join this run (its credentials it finds in SECRETS_DIR)."""
        return {
            "DATABASE_URL": services_database_url(self.database_url, self.logins),
            "NATS_URL": self.nats_url,
            "NATS_SUBJECT_PREFIX": self.namespace.prefix,
            "SECRETS_DIR": str(self.secrets_dir),
            "ENVIRONMENT": "test",
            "RNG_SEED_KEY": self.rng_seed_key,
            "RNG_ENGINE_KEY": self.rng_engine_key,
            "DATA_DIR": str(self.tmp / "data"),
            "NOTARY_SECONDS": "1",
            "HTTP_CONNECTIONS_PER_CLIENT": "100000",  # every client of a test or a benchmark is 127.0.0.1
        }


def with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


@asynccontextmanager
async def database_of_its_own(server_url: str, prefix: str, secrets_dir: Path) -> AsyncIterator[str]:
    """A new empty database on the run's server (its URL, as the server's owner), dropped after: for a test that a
    service following the shared database's log must not see, or whose many rows would slow the others."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    await _create_database(server_url, name)
    try:
        yield with_database(server_url, name)
    finally:
        await _drop_database(server_url, name, secrets_dir)


async def _create_database(server_url: str, name: str) -> None:
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def _drop_database(server_url: str, name: str, secrets_dir: Path) -> None:
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()
    made = {login: read_login(login_file(secrets_dir, login)) for login in LOGINS
            if login_file(secrets_dir, login).exists()}
    await drop_logins(server_url, made)


async def _delete_streams(nats_url: str, ns: Namespace, nkey: str) -> None:
    nc = await nats.connect(nats_url, **({"nkeys_seed": nkey} if nkey else {}))
    try:
        for stream in (ns.events_stream, ns.private_events_stream):
            try:
                await nc.jetstream().delete_stream(stream)
            except nats.js.errors.NotFoundError:
                pass
    finally:
        await nc.close()


def running_infra(*, durable: bool = False, pg_settings: Sequence[str] = ()) -> Iterator[RunInfra]:
    with tempfile.TemporaryDirectory(prefix="league-test-") as tmp:
        suffix = uuid.uuid4().hex[:12]
        database = f"league_test_{suffix}"
        ns = Namespace(f"t{suffix}")
        spares = tuple(Namespace(f"{ns.prefix}s{n}") for n in range(SPARE_NAMESPACES))
        local = start_infra(Path(tmp), durable=durable, prefixes=[ns.prefix, *(s.prefix for s in spares)],
                            pg_settings=pg_settings)
        run: RunInfra | None = None
        try:
            asyncio.run(_create_database(local.database_url, database))
            url = with_database(local.database_url, database)
            logins = asyncio.run(prepare_database(url, local.secrets_dir))
            run = RunInfra(url, local.database_url, local.nats_url, ns, Path(tmp), local.secrets_dir, logins,
                           local.nats_closed, spares)
            yield run
        finally:
            try:
                asyncio.run(_drop_database(local.database_url, database, local.secrets_dir))
                asyncio.run(_delete_streams(local.nats_url, ns, run.admin_nkey if run else ""))
            finally:
                local.stop()
