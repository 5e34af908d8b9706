"""Real PostgreSQL and NATS for the tests: embedded on free ports in a temp dir, or DATABASE_URL / NATS_URL.

Either way each run gets its own database and its own NATS namespace, so runs never see each other's data.
"""

from __future__ import annotations

import asyncio
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import nats

from shared.bus.namespace import Namespace
from shared.infra.local import start_infra
from shared.keyfiles import new_key_text


@dataclass(frozen=True)
class RunInfra:
    database_url: str
    admin_url: str
    nats_url: str
    namespace: Namespace
    tmp: Path
    rng_seed_key: str = field(default_factory=new_key_text)
    rng_engine_key: str = field(default_factory=new_key_text)

    @property
    def env(self) -> dict[str, str]:
        """What a service started by a test needs to join this run."""
        return {
            "DATABASE_URL": self.database_url,
            "NATS_URL": self.nats_url,
            "NATS_SUBJECT_PREFIX": self.namespace.prefix,
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


async def _create_database(server_url: str, name: str) -> None:
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


async def _drop_database(server_url: str, name: str) -> None:
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def _delete_stream(nats_url: str, ns: Namespace) -> None:
    nc = await nats.connect(nats_url)
    try:
        try:
            await nc.jetstream().delete_stream(ns.events_stream)
        except nats.js.errors.NotFoundError:
            pass
    finally:
        await nc.close()


def running_infra(*, durable: bool = False) -> Iterator[RunInfra]:
    with tempfile.TemporaryDirectory(prefix="league-test-") as tmp:
        local = start_infra(Path(tmp), durable=durable)
        suffix = uuid.uuid4().hex[:12]
        database = f"league_test_{suffix}"
        ns = Namespace(f"t{suffix}")
        try:
            asyncio.run(_create_database(local.database_url, database))
            yield RunInfra(with_database(local.database_url, database), local.database_url, local.nats_url, ns,
                            Path(tmp))
        finally:
            try:
                asyncio.run(_drop_database(local.database_url, database))
                asyncio.run(_delete_stream(local.nats_url, ns))
            finally:
                local.stop()
