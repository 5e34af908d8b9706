"""An Idempotency-Key names one command: a retry with the same body gets the first result, the same key with a
different command is refused. The check reads what the game stream recorded for the key (its CommandAccepted), so
it holds whichever gateway replica saw the first request and survives restarts."""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

from shared.messages.engine import CommandAccepted, CreateGame, GameOpened
from shared.messages.games import command_decoder
from shared.messages.registry import message_name, registry

ACCEPTED = message_name(CommandAccepted)
OPENED = message_name(GameOpened)
FIRST_COMMAND = ("SELECT schema_version, data FROM events WHERE stream_id = $1 AND type = $2"
                 " AND metadata->>'command_id' = $3 ORDER BY version LIMIT 1")


async def same_command(pool: asyncpg.Pool, game_id: str, command_id: str, command: Any) -> bool:
    """Whether ``command`` is the command the game accepted under ``command_id`` (compared as decoded commands,
    so whitespace and key order do not matter). True when nothing was recorded under it: nothing to differ from."""
    async with pool.acquire() as conn:
        row = await conn.fetchrow(FIRST_COMMAND, game_id, ACCEPTED, command_id)
    if row is None:
        return True
    accepted = registry.decode(ACCEPTED, row[0], row[1])
    assert isinstance(accepted, CommandAccepted)
    game = game_id.split("-", 1)[0]
    first = command_decoder(game).decode(accepted.command)
    return bool(first == command)


async def same_opening(pool: asyncpg.Pool, create: CreateGame) -> bool:
    """Whether the game opened under ``create.command_id`` was opened with what ``create`` asks for."""
    async with pool.acquire() as conn:
        row = await conn.fetchrow(FIRST_COMMAND, create.game_id, OPENED, create.command_id)
    if row is None:
        return True
    opened = registry.decode(OPENED, row[0], row[1])
    assert isinstance(opened, GameOpened)
    asked = (create.game, create.seats, create.players, create.bots, create.turn_seconds, create.client_seed_seconds)
    return (opened.game, opened.seats, opened.players, opened.bots, opened.turn_seconds,
            opened.client_seed_seconds) == asked and \
        msgspec.json.decode(opened.options) == msgspec.json.decode(create.options)


async def opened_under(pool: asyncpg.Pool, game_ids: list[str]) -> str | None:
    """The first of these games that exists: one key names one game, whatever game type a retry asks for."""
    async with pool.acquire() as conn:
        found: str | None = await conn.fetchval(
            "SELECT stream_id FROM events WHERE stream_id = ANY($1::text[]) AND version = 1 LIMIT 1", game_ids)
    return found
