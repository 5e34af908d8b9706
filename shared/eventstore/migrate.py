"""Plain SQL migrations applied in file-name order, each recorded once; re-running is a no-op."""

from __future__ import annotations

import hashlib
from pathlib import Path

import asyncpg

EVENTSTORE_MIGRATIONS = Path(__file__).parent / "migrations"
LOCK_KEY = 0x1EA6_0E  # pg_advisory_xact_lock key: one migrator at a time


class MigrationError(Exception):
    pass


async def _all_recorded(conn: asyncpg.Connection, sets: dict[str, Path]) -> bool:
    """Read only, as a service's own login may: every file of ``sets`` is recorded with its checksum."""
    try:
        recorded = dict(await conn.fetch("SELECT name, checksum FROM schema_migrations"))
    except (asyncpg.UndefinedTableError, asyncpg.InsufficientPrivilegeError):
        return False
    return all(recorded.get(f"{set_name}/{path.name}") == hashlib.sha256(path.read_text().encode()).hexdigest()
               for set_name, folder in sets.items() for path in folder.glob("*.sql"))


async def apply_migrations(dsn: str, sets: dict[str, Path] | None = None) -> list[str]:
    """Apply every SQL file not yet recorded, per named set of folders; returns the names applied now."""
    sets = sets or {"eventstore": EVENTSTORE_MIGRATIONS}
    applied_now: list[str] = []
    conn = await asyncpg.connect(dsn)
    try:
        if await _all_recorded(conn, sets):
            return []
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK_KEY)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
        for set_name, folder in sets.items():
            for path in sorted(folder.glob("*.sql")):
                name = f"{set_name}/{path.name}"
                sql = path.read_text()
                checksum = hashlib.sha256(sql.encode()).hexdigest()
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK_KEY)
                    recorded = await conn.fetchval("SELECT checksum FROM schema_migrations WHERE name = $1", name)
                    if recorded == checksum:
                        continue
                    if recorded is not None:
                        raise MigrationError(f"{name} was changed after it was applied; add a new migration instead")
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)", name, checksum)
                    applied_now.append(name)
    except asyncpg.InsufficientPrivilegeError as error:
        raise MigrationError(f"migrations are pending and this login may not apply them: run `league migrate` as the"
                             f" database owner ({error})") from error
    finally:
        await conn.close()
    return applied_now
