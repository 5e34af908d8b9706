"""``league migrate``: every migration, then the services' PostgreSQL logins, as the database owner. ``league up``
and the tests do the same before any service starts; deploy runs it as a one-shot job."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from services.migrations import MIGRATIONS
from shared.eventstore.migrate import apply_migrations
from shared.eventstore.roles import RolesRefused, provision_logins, url_without_login


async def prepare_database(owner_url: str, secrets_dir: Path) -> bool:
    """True when every service has its own login (in ``secrets_dir``); False when the owner may not make logins,
    and the services then connect as the owner, switched to ``league_app``."""
    await apply_migrations(owner_url, MIGRATIONS)
    try:
        await provision_logins(owner_url, secrets_dir)
    except RolesRefused as error:
        print(f"league: {error}; services connect as that user, switched to role league_app", file=sys.stderr)
        return False
    return True


def services_database_url(owner_url: str, logins: bool) -> str:
    """What services are given as ``DATABASE_URL``: with logins, no user or password (each adds its own)."""
    return url_without_login(owner_url) if logins else owner_url


async def migrate_command(secrets_dir: Path) -> int:
    owner_url = os.environ.get("DATABASE_URL")
    if not owner_url:
        print("league: set DATABASE_URL to the database owner's connection", file=sys.stderr)
        return 2
    return 0 if await prepare_database(owner_url, secrets_dir) else 1
