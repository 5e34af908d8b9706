"""The one place that decides which PostgreSQL and NATS a process uses.

``DATABASE_URL`` / ``NATS_URL`` when set; otherwise an embedded server started here, with its data under
``data_dir`` (``.data/`` for ``make run``, a temporary folder for tests), stopped by ``stop()``. An embedded server
is closed: PostgreSQL asks a password over TCP (the superuser's in ``<secrets>/postgres.password``) and NATS an nkey
of a known user (``<secrets>/<user>.nkey``), each allowed only what ``shared/bus/namespace.py`` grants it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from shared.infra.embedded_nats import EmbeddedNats
from shared.infra.embedded_postgres import EmbeddedPostgres
from shared.infra.nats_auth import auth_config
from shared.infra.secrets import kept_secret


@dataclass
class LocalInfra:
    database_url: str
    """The owner's: migrations and roles. Services connect with their own logins (``shared/eventstore/roles.py``)."""
    nats_url: str
    secrets_dir: Path
    nats_closed: bool = False
    """The embedded NATS asks credentials: every user's nkey seed is in ``secrets_dir``."""
    embedded: list[EmbeddedPostgres | EmbeddedNats] = field(default_factory=list)

    def stop(self) -> None:
        for server in reversed(self.embedded):
            server.stop()
        self.embedded.clear()


def start_infra(data_dir: Path, *, durable: bool, prefixes: Iterable[str] = ("",),
                pg_settings: Sequence[str] = ()) -> LocalInfra:
    """``prefixes``: the subject prefixes the embedded NATS lets the league's users use (one per league);
    ``pg_settings``: more settings of an embedded PostgreSQL (``name=value``)."""
    secrets_dir = data_dir / "secrets"
    embedded: list[EmbeddedPostgres | EmbeddedNats] = []
    try:
        database_url = os.environ.get("DATABASE_URL")
        if not database_url:
            password = kept_secret(secrets_dir / "postgres.password", lambda: secrets.token_urlsafe(24))
            postgres = EmbeddedPostgres(data_dir / "postgres", durable=durable, password=password,
                                        settings=pg_settings)
            embedded.append(postgres)
            database_url = postgres.start()
        nats_url = os.environ.get("NATS_URL")
        nats_closed = not nats_url
        if not nats_url:
            nats = EmbeddedNats(data_dir / "nats", auth_config(secrets_dir, prefixes))
            embedded.append(nats)
            nats_url = nats.start()
    except BaseException:
        for server in reversed(embedded):
            server.stop()
        raise
    return LocalInfra(database_url, nats_url, secrets_dir, nats_closed, embedded)
