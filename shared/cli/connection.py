"""Which database a CLI command reads: DATABASE_URL, else the league that ``league up`` is running."""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg

from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool

ENV_FILE = "league.env"


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
    raise NoLeague(f"no league to reach: set {name}, or start one with `make run` (it writes .data/league.env)")


def database_url(data_dir: Path) -> str:
    return _setting(data_dir, "DATABASE_URL")


def gateway_url(data_dir: Path) -> str:
    return _setting(data_dir, "GATEWAY_URL")


def nats_url(data_dir: Path) -> str:
    return _setting(data_dir, "NATS_URL")


def nats_subject_prefix(data_dir: Path) -> str:
    try:
        return _setting(data_dir, "NATS_SUBJECT_PREFIX")
    except NoLeague:
        return ""


async def open_store(data_dir: Path) -> EventStore:
    url = database_url(data_dir)
    try:
        pool = await create_pool(url, role="league_app", max_size=2)
    except (OSError, asyncpg.PostgresError) as error:
        raise NoLeague(f"cannot reach the league's database at {url}: {error}") from error
    return EventStore(pool)
