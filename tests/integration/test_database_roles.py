"""Least privilege in PostgreSQL: each service's own login may do its work and is refused the rest, by the database
itself (not by the service's code): no UPDATE or DELETE of events for anyone, no way back to a stronger role, no
writing another service's tables or checkpoints."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import asyncpg
import pytest

from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool
from shared.eventstore.roles import login_file, read_login, url_with_login
from tests.infra import RunInfra
from tests.integration.helpers import event, new_stream

DENIED = asyncpg.InsufficientPrivilegeError


@pytest.fixture(scope="module")
def logins(migrated: RunInfra) -> RunInfra:
    if not migrated.logins:
        pytest.skip("this PostgreSQL's owner may not create roles: the services run as league_app")
    return migrated


async def connect_as(infra: RunInfra, login: str) -> asyncpg.Connection:
    """As the service connects: its login, switched to its role at start-up."""
    found = read_login(login_file(infra.secrets_dir, login))
    return await asyncpg.connect(url_with_login(infra.database_url, found), server_settings={"role": found.role})


@pytest.fixture
async def stored(store: EventStore) -> AsyncIterator[str]:
    stream = new_stream("roles")
    await store.append(stream, [event(1), event(2)])
    yield stream


@pytest.mark.parametrize("login", ["relay", "rng", "engine", "matchmaking", "standings", "gateway", "auditor"])
async def test_no_login_may_change_or_remove_an_event(logins: RunInfra, stored: str, login: str) -> None:
    conn = await connect_as(logins, login)
    try:
        assert await conn.fetchval("SELECT count(*) FROM events WHERE stream_id = $1", stored) == 2
        for statement in ("UPDATE events SET data = '{}' WHERE stream_id = $1",
                          "DELETE FROM events WHERE stream_id = $1"):
            with pytest.raises(DENIED):
                await conn.execute(statement, stored)
        with pytest.raises(DENIED):
            await conn.execute("TRUNCATE events")
    finally:
        await conn.close()


@pytest.mark.parametrize("login", ["relay", "standings", "auditor"])
async def test_readers_of_the_log_may_not_append(logins: RunInfra, login: str) -> None:
    found = read_login(login_file(logins.secrets_dir, login))
    pool = await create_pool(url_with_login(logins.database_url, found), role=found.role, max_size=1)
    try:
        with pytest.raises(DENIED):
            await EventStore(pool).append(new_stream("forged"), [event(1)])
    finally:
        await pool.close()


@pytest.mark.parametrize("login", ["relay", "rng", "engine", "matchmaking", "standings", "gateway", "auditor"])
async def test_no_login_gets_a_stronger_role_back(logins: RunInfra, stored: str, login: str) -> None:
    conn = await connect_as(logins, login)
    try:
        await conn.execute("RESET ROLE")
        assert not await conn.fetchval("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        with pytest.raises(DENIED):
            await conn.execute("DELETE FROM events WHERE stream_id = $1", stored)
        for stronger in ("postgres", "league_app", "league_engine" if login != "engine" else "league_gateway"):
            with pytest.raises(DENIED):
                await conn.execute(f'SET ROLE "{stronger}"')
        with pytest.raises(DENIED):
            await conn.execute('SET SESSION AUTHORIZATION "postgres"')
        with pytest.raises(DENIED):
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
    finally:
        await conn.close()


OTHERS_WRITES = [
    ("engine", "INSERT INTO player_tokens (player_id, name, token_hash) VALUES ('p-evil', 'x', '\\x00')"),
    ("engine", "INSERT INTO rng_seeds (game_id, sealed) VALUES ('g-evil', '\\x00')"),
    ("engine", "SELECT sealed FROM rng_seeds"),
    ("gateway", "SELECT sealed FROM rng_seeds"),
    ("gateway", "INSERT INTO rejected_commands (game_id, code, message) VALUES ('g', 'c', 'm')"),
    ("gateway", "DELETE FROM player_tokens"),
    ("gateway", "UPDATE player_tokens SET player_id = 'p-other'"),
    ("matchmaking", "UPDATE player_tokens SET revoked_at = now()"),
    ("rng", "INSERT INTO player_ratings (player_id, mu, sigma) VALUES ('p', 25, 8)"),
    ("standings", "INSERT INTO quickplay_waiting (player_id, game, seats, options, rating) VALUES ('p','g',2,'{}',0)"),
    ("relay", "INSERT INTO standings_feed VALUES (1, 1, now(), '{}')"),
    ("relay", "CREATE TABLE relay_own (x int)"),
    ("auditor", "SELECT * FROM player_tokens"),
    ("auditor", "INSERT INTO checkpoints (name, tx, position) VALUES ('relay', '1', 1)"),
]


@pytest.mark.parametrize(("login", "statement"), OTHERS_WRITES)
async def test_a_login_may_not_touch_another_services_tables(logins: RunInfra, login: str, statement: str) -> None:
    conn = await connect_as(logins, login)
    try:
        with pytest.raises(DENIED):
            await conn.execute(statement)
    finally:
        await conn.close()


async def test_each_consumer_moves_only_its_own_checkpoint(logins: RunInfra, superuser: asyncpg.Connection) -> None:
    relay_name = f"relay-{uuid.uuid4().hex[:8]}"
    await superuser.execute("INSERT INTO checkpoints (name, tx, position) VALUES ($1, '5', 5)", relay_name)
    standings = await connect_as(logins, "standings")
    relay = await connect_as(logins, "relay")
    try:
        assert await standings.fetchval("SELECT count(*) FROM checkpoints WHERE name = $1", relay_name) == 0
        assert await standings.execute("UPDATE checkpoints SET position = 0 WHERE name = $1", relay_name) == "UPDATE 0"
        with pytest.raises(asyncpg.InsufficientPrivilegeError, match="row-level security"):
            await standings.execute("SELECT save_checkpoint($1, 1, 1)", relay_name)
        await relay.execute("SELECT save_checkpoint($1, 9, 9)", relay_name)
        assert await superuser.fetchval("SELECT position FROM checkpoints WHERE name = $1", relay_name) == 9
    finally:
        await standings.close()
        await relay.close()


async def test_a_login_works_only_with_its_password(logins: RunInfra) -> None:
    """Meaningful where the server asks passwords (the embedded one does; a trust-auth server lets anyone in)."""
    found = read_login(login_file(logins.secrets_dir, "engine"))
    conn = await asyncpg.connect(url_with_login(logins.database_url, found))
    await conn.close()
    if urlsplit(logins.admin_url).password is not None:
        wrong = type(found)(user=found.user, password="not-" + found.password, role=found.role)
        with pytest.raises(asyncpg.InvalidPasswordError):
            await asyncpg.connect(url_with_login(logins.database_url, wrong))
