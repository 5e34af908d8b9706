"""Each service's PostgreSQL login: a LOGIN role with its own password, member of the service's NOLOGIN role
(``league_<service>``) to which the migrations grant the least it needs (eventstore 0004 and each service's own).
A session switches to that role at start-up; ``RESET ROLE`` or ``SET ROLE`` can reach nothing more, since the
login is a member of nothing else. Migrations and this module run as the database owner."""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import asyncpg
import msgspec

from shared.bus.namespace import SERVICES
from shared.infra.secrets import write_secret
from shared.logging import get_logger

LOGINS = (*SERVICES, "auditor")
"""``auditor``: reads the log and nothing else (``league audit``, ``replay``, ``export``)."""
MAX_ROLE_NAME = 63
log = get_logger(__name__)


class DatabaseLogin(msgspec.Struct, frozen=True, kw_only=True):
    user: str
    password: str
    role: str
    """The role the session switches to at start-up (``SET ROLE``): what it creates belongs to the service."""


class RolesRefused(Exception):
    """The connecting user may not create roles: the league runs as that user, switched to ``league_app``."""


def group_role(login: str) -> str:
    return f"league_{login}"


def login_name(login: str, database: str) -> str:
    """Per database, since roles belong to the whole server and test runs share one."""
    name = f"league_{login}_{database}"
    if len(name) > MAX_ROLE_NAME:
        name = f"league_{login}_{hashlib.sha256(database.encode()).hexdigest()[:16]}"
    return name


def login_of(user: str, database: str) -> str | None:
    """The login (one of ``LOGINS``) whose session runs as ``user`` in ``database``: its login name there, or its
    group role (what a session is after its switch at start-up); None for any other user."""
    for login in LOGINS:
        if user in (login_name(login, database), group_role(login)):
            return login
    return None


def login_file(secrets_dir: Path, login: str) -> Path:
    return secrets_dir / f"{login}.database"


def read_login(path: Path) -> DatabaseLogin:
    return msgspec.json.decode(path.read_bytes(), type=DatabaseLogin)


def url_with_login(url: str, login: DatabaseLogin) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{quote(login.user, safe='')}:{quote(login.password, safe='')}@{host}"))


def url_without_login(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


async def provision_logins(owner_url: str, secrets_dir: Path) -> dict[str, DatabaseLogin]:
    """Create (or bring up to date) every login of the database ``owner_url`` names, with the password in its file
    under ``secrets_dir`` (made there the first time). Raises RolesRefused when the owner may not."""
    conn = await asyncpg.connect(owner_url)
    try:
        database = await conn.fetchval("SELECT current_database()")
        logins = {}
        for login in LOGINS:
            path = login_file(secrets_dir, login)
            if path.exists():
                logins[login] = read_login(path)
            else:
                logins[login] = DatabaseLogin(user=login_name(login, database), password=secrets.token_urlsafe(24),
                                              role=group_role(login))
            try:
                await _ensure_login(conn, database, logins[login])
            except asyncpg.InsufficientPrivilegeError as error:
                raise RolesRefused(f"{await conn.fetchval('SELECT current_user')} may not create the services'"
                                   f" logins: {error}") from error
            if not path.exists():
                write_secret(path, msgspec.json.encode(logins[login]).decode())
        await _hand_over_standings_tables(conn)
        return logins
    finally:
        await conn.close()


async def _execute(conn: asyncpg.Connection, template: str, *names: str) -> None:
    """A utility statement (no bind parameters there) built by the server's own ``format``: %I and %L quote."""
    arguments = ", ".join(f"${n}::text" for n in range(1, len(names) + 1))
    await conn.execute(await conn.fetchval(f"SELECT format('{template}', {arguments})", *names))


async def _ensure_login(conn: asyncpg.Connection, database: str, login: DatabaseLogin) -> None:
    limits = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT"
    if await conn.fetchval("SELECT 1 FROM pg_roles WHERE rolname = $1", login.user):
        await _execute(conn, f"ALTER ROLE %I {limits} PASSWORD %L", login.user, login.password)
    else:
        await _execute(conn, f"CREATE ROLE %I {limits} PASSWORD %L", login.user, login.password)
    await _execute(conn, "GRANT %I TO %I", login.role, login.user)
    await _execute(conn, "GRANT CONNECT ON DATABASE %I TO %I", database, login.user)


async def _hand_over_standings_tables(conn: asyncpg.Connection) -> None:
    """Before service logins, standings made its tables as ``league_app``: they become its own role's."""
    owned = await conn.fetchval("SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner"
                                " WHERE r.rolname = 'league_app' AND c.relname LIKE 'standings\\_%'")
    if owned:
        await conn.execute("REASSIGN OWNED BY league_app TO league_standings")
        log.info("roles.standings-tables.handed-over", tables=owned)


async def drop_logins(owner_url: str, logins: dict[str, DatabaseLogin]) -> None:
    """A test run's logins, once its database is gone."""
    conn = await asyncpg.connect(owner_url)
    try:
        for login in logins.values():
            await _execute(conn, "DROP ROLE IF EXISTS %I", login.user)
    finally:
        await conn.close()
