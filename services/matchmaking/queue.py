"""The quick-play queue, kept in PostgreSQL so that replicas share it: a pass locks the waiting players, forms
tables (``shared.tournaments.quickplay``), records them and takes their players off the queue in one transaction,
then opens their games."""

from __future__ import annotations

import uuid
from collections import defaultdict

import asyncpg

from services.matchmaking.opener import Opener, create_game
from services.matchmaking.ratings import ratings_of
from services.matchmaking.seats import seat_range
from shared.bus.replies import RejectedError
from shared.messages.games import requested_options
from shared.messages.tournaments import JoinQueue, QueueTicket
from shared.refusals import Refusal
from shared.tournaments.quickplay import Banding, Waiting, form_tables

BOTS = ("greedy", "random")


class Queue:
    def __init__(self, pool: asyncpg.Pool, opener: Opener, banding: Banding) -> None:
        self.pool = pool
        self.opener = opener
        self.banding = banding

    async def join(self, request: JoinQueue) -> QueueTicket:
        options = requested_options(request.game, request.options, Refusal.QUEUE_INVALID)
        seats = seat_range(request.game, options)
        if seats is None or not seats[0] <= request.seats <= seats[1]:
            raise RejectedError(Refusal.QUEUE_INVALID, f"{request.game} cannot be played by {request.seats}")
        if request.bot is not None and request.bot not in BOTS:
            raise RejectedError(Refusal.QUEUE_INVALID, f"bot must be one of {', '.join(BOTS)}")
        async with self.pool.acquire() as conn:
            rating = (await ratings_of(conn, [request.player_id]))[request.player_id]
            await conn.execute(
                "INSERT INTO quickplay_waiting (player_id, game, seats, options, bot, rating)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player_id) DO NOTHING",
                request.player_id, request.game, request.seats, bytes(request.options).decode(), request.bot,
                rating.ordinal)
        return await self.status(request.player_id)

    async def leave(self, player_id: str) -> QueueTicket:
        async with self.pool.acquire() as conn:
            await conn.execute("DELETE FROM quickplay_waiting WHERE player_id = $1", player_id)
        return await self.status(player_id)

    async def status(self, player_id: str) -> QueueTicket:
        async with self.pool.acquire() as conn:
            if await conn.fetchval("SELECT 1 FROM quickplay_waiting WHERE player_id = $1", player_id):
                return QueueTicket(player_id=player_id, status="waiting")
            row = await conn.fetchrow("SELECT game_id, opened FROM quickplay_games WHERE players @> ARRAY[$1]"
                                      " ORDER BY formed_at DESC LIMIT 1", player_id)
        if row is None:
            return QueueTicket(player_id=player_id, status="absent")
        return QueueTicket(player_id=player_id, status="seated" if row[1] else "waiting", game_id=row[0])

    async def form(self) -> int:
        """One pass: form what tables the queue allows, then open every formed game not yet opened."""
        formed = 0
        async with self.pool.acquire() as conn, conn.transaction():
            now = await conn.fetchval("SELECT extract(epoch FROM clock_timestamp())::float8")
            rows = await conn.fetch("SELECT player_id, game, seats, options, bot, rating,"
                                    " extract(epoch FROM joined_at)::float8 FROM quickplay_waiting FOR UPDATE")
            queues: dict[tuple[str, int, str], list[Waiting]] = defaultdict(list)
            for row in rows:
                queues[(row[1], row[2], row[3])].append(
                    Waiting(player_id=row[0], rating=row[5], since=row[6], bot=row[4]))
            for (game, seats, options), waiting in queues.items():
                for table in form_tables(waiting, seats, now, self.banding):
                    players = [w.player_id for w in table]
                    await conn.execute(
                        "INSERT INTO quickplay_games (game_id, game, options, players, bots)"
                        " VALUES ($1, $2, $3, $4, $5)",
                        f"{game}-q{uuid.uuid4().hex[:20]}", game, options, players, [w.bot for w in table])
                    await conn.execute("DELETE FROM quickplay_waiting WHERE player_id = ANY($1)", players)
                    formed += 1
        async with self.pool.acquire() as conn:
            pending = await conn.fetch("SELECT game_id, game, options, players, bots FROM quickplay_games"
                                       " WHERE NOT opened")
        for row in pending:
            await self.opener.open(create_game(row[1], row[0], row[3], row[4], row[2].encode()))
            async with self.pool.acquire() as conn:
                await conn.execute("UPDATE quickplay_games SET opened = true WHERE game_id = $1", row[0])
        return formed
