"""The one place that decides which PostgreSQL and NATS a process uses.

``DATABASE_URL`` / ``NATS_URL`` when set; otherwise an embedded server started here, with its data under
``data_dir`` (``.data/`` for ``make run``, a temporary folder for tests), stopped by ``stop()``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from shared.infra.embedded_nats import EmbeddedNats
from shared.infra.embedded_postgres import EmbeddedPostgres


@dataclass
class LocalInfra:
    database_url: str
    nats_url: str
    embedded: list[EmbeddedPostgres | EmbeddedNats] = field(default_factory=list)

    def stop(self) -> None:
        for server in reversed(self.embedded):
            server.stop()
        self.embedded.clear()


def start_infra(data_dir: Path, *, durable: bool) -> LocalInfra:
    embedded: list[EmbeddedPostgres | EmbeddedNats] = []
    try:
        database_url = os.environ.get("DATABASE_URL")
        if not database_url:
            postgres = EmbeddedPostgres(data_dir / "postgres", durable=durable)
            embedded.append(postgres)
            database_url = postgres.start()
        nats_url = os.environ.get("NATS_URL")
        if not nats_url:
            nats = EmbeddedNats(data_dir / "nats")
            embedded.append(nats)
            nats_url = nats.start()
    except BaseException:
        for server in reversed(embedded):
            server.stop()
        raise
    return LocalInfra(database_url, nats_url, embedded)
