"""Which database a CLI command reads: DATABASE_URL, else the league that ``league up`` is running."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import asyncpg
from nats.aio.client import Client

from shared.bus.auth import ADMIN
from shared.bus.connect import connect
from shared.bus.namespace import Namespace
from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool
from shared.eventstore.roles import login_file, read_login, url_with_login
from shared.infra.nats_auth import nkey_file

ENV_FILE = "league.env"
CONNECT_SECONDS = 10.0


class NoLeague(Exception):
    pass


def write_env_file(data_dir: Path, values: dict[str, str]) -> Path:
    path = data_dir / ENV_FILE
    path.write_text("".join(f"{key}={value}\n" for key, value in values.items()))
    return path


def _setting(data_dir: Path, name: str) -> str:
    if value := os.environ.get(name):
        return value
    path = data_dir / ENV_FILE
    if path.exists():
        for line in path.read_text().splitlines():
            key, _, value = line.partition("=")
            if key == name:
                return value
    raise NoLeague(f"no league running at {path.parent}: start one with `make run` (or `league up`), or name it "
                   f"with --league-dir or LEAGUE_DIR, or set {name}")


def database_url(data_dir: Path) -> str:
    return _setting(data_dir, "DATABASE_URL")


def gateway_url(data_dir: Path) -> str:
    return _setting(data_dir, "GATEWAY_URL")


def nats_url(data_dir: Path) -> str:
    return _setting(data_dir, "NATS_URL")


def nkey_of(data_dir: Path, user: str) -> str:
    """The nkey a command connects to NATS with as ``user`` (none when the league's NATS asks none)."""
    folder = secrets_dir(data_dir)
    found = nkey_file(folder, user) if folder is not None else None
    return str(found) if found is not None and found.exists() else ""


def operator_nkey(data_dir: Path) -> str:
    """An organiser's command (``league abandon``, ending an interrupted demo) acts as the admin user."""
    return nkey_of(data_dir, ADMIN)


async def connect_as(data_dir: Path, user: str, name: str) -> Client:
    """NATS as ``user`` (its nkey from the league's secrets). nats-py keeps trying a server that refuses the
    credentials: a command gives up after ``CONNECT_SECONDS`` and says what a closed NATS needs."""
    url = nats_url(data_dir)
    try:
        inbox = Namespace(nats_subject_prefix(data_dir)).inbox(user)  # replies where only ``user`` may read them
        return await asyncio.wait_for(connect(url, name=name, attempts=1, nkey_file=nkey_of(data_dir, user),
                                              inbox_prefix=inbox), CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        why = str(error) or "no answer"
        raise NoLeague(f"cannot reach the league's NATS at {url} as {user} within {CONNECT_SECONDS:.0f}s ({why}; a "
                       "closed NATS needs the league's secrets: SECRETS_DIR or --league-dir)") from error


def nats_subject_prefix(data_dir: Path) -> str:
    try:
        return _setting(data_dir, "NATS_SUBJECT_PREFIX")
    except NoLeague:
        return ""


def secrets_dir(data_dir: Path) -> Path | None:
    try:
        return Path(_setting(data_dir, "SECRETS_DIR"))
    except NoLeague:
        return None


async def open_store(data_dir: Path, login: str = "auditor") -> EventStore:
    """As ``login`` (``auditor`` reads the log only; ``standings`` rebuilds its projections) when the league has
    logins, else as DATABASE_URL's user switched to ``league_app``."""
    url, role = database_url(data_dir), "league_app"
    folder = secrets_dir(data_dir)
    if folder is not None and login_file(folder, login).exists():
        found = read_login(login_file(folder, login))
        url, role = url_with_login(url, found), found.role
    try:
        pool = await create_pool(url, role=role, max_size=2)
    except (OSError, asyncpg.PostgresError) as error:
        raise NoLeague(f"cannot reach the league's database at {database_url(data_dir)}: {error}") from error
    return EventStore(pool)
