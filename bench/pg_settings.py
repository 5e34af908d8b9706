"""The PostgreSQL settings a benchmark ran with, printed beside its figures: a rate means little without them."""

from __future__ import annotations

import asyncio
import os

import asyncpg

from bench.proc_cpu import read_stat

SETTINGS = ("server_version", "fsync", "synchronous_commit", "full_page_writes", "shared_buffers", "wal_level")


async def pg_settings(url: str) -> dict[str, str]:
    conn = await asyncpg.connect(url)
    try:
        return {name: str(await conn.fetchval(f"SHOW {name}")) for name in SETTINGS}
    finally:
        await conn.close()


def where() -> str:
    return "external (DATABASE_URL)" if os.environ.get("DATABASE_URL") else "embedded, durable"


def describe_settings(settings: dict[str, str]) -> str:
    return f"PostgreSQL {where()}: " + ", ".join(f"{name}={value}" for name, value in settings.items())


def durable(settings: dict[str, str]) -> bool:
    return settings.get("fsync") == "on" and settings.get("synchronous_commit") != "off"


def show_settings(url: str) -> dict[str, str]:
    """Print the settings a benchmark runs with (from a synchronous ``main``), and return them."""
    settings = asyncio.run(pg_settings(url))
    print(f"  {describe_settings(settings)}", flush=True)
    if not durable(settings):
        print("  WARNING: fsync or synchronous_commit is off: these rates are not those of a durable server")
    return settings


async def postmaster_pid(database_url: str) -> int | None:
    """The postmaster of our PostgreSQL: the parent of one of its backends, when it runs on this machine."""
    conn = await asyncpg.connect(database_url)
    try:  # read while the backend lives: it exits once the connection closes
        backend = read_stat(int(await conn.fetchval("SELECT pg_backend_pid()")))
    finally:
        await conn.close()
    if backend is None or backend.comm != "postgres":
        return None
    return backend.ppid
