"""Follows the global log: each ended game of a tournament is recorded in it (which may start the next round or
finish it), and every ended game updates the ratings read model, in the transaction that moves the checkpoint.

Recording is idempotent (a result already in the tournament adds nothing), so after a crash the follower may see
a batch again; ratings are applied only for events past the checkpoint read under a row lock, so two replicas
never count a game twice."""

from __future__ import annotations

from contextlib import aclosing

import asyncpg

from services.matchmaking.ratings import rate_game
from services.matchmaking.tournaments import Tournaments
from shared.bus.replies import RejectedError
from shared.eventstore import Checkpoint, EventStore, RecordedEvent
from shared.eventstore.checkpoints import load_checkpoint, save_checkpoint
from shared.eventstore.types import Page
from shared.logging import correlation, get_logger
from shared.messages.engine import GameAbandoned, GameEnded, GameOpened
from shared.messages.readable import UnreadableEvent, read
from shared.messages.registry import message_name
from shared.refusals import Refusal
from shared.tournaments.commands import RecordResult

CHECKPOINT = "matchmaking"
READ_INTERVAL = 0.25
"""A busy log is read at most this often: a round's results wait a quarter second, and each read covers more."""
GAME_ENDED = message_name(GameEnded)
GAME_ABANDONED = message_name(GameAbandoned)
log = get_logger(__name__)


async def follow(store: EventStore, pool: asyncpg.Pool, tournaments: Tournaments) -> None:
    await tournaments.resume()
    async with pool.acquire() as conn:
        after = await load_checkpoint(conn, CHECKPOINT)
    # aclosing: cancelled in the loop's body, the generator still leaves its wake-ups (store.wakeups, which
    # shared.service.app wires to the writers' NATS messages) at once.
    async with aclosing(store.pages(after, min_interval=READ_INTERVAL, types=(GAME_ENDED, GAME_ABANDONED))) as pages:
        async for page in pages:
            await handle(store, pool, tournaments, page)


async def handle(store: EventStore, pool: asyncpg.Pool, tournaments: Tournaments, page: Page) -> None:
    ended = []
    for event in page.events:
        if event.type == GAME_ABANDONED:
            await abandoned(store, tournaments, event)
            continue
        try:
            opened = await opened_of(store, event.stream_id)
            result = read(event)
        except UnreadableEvent as error:  # damaged behind the store's back: named, and the rest goes on
            log.error("game.unreadable", game_id=event.stream_id, reason=error.message)
            continue
        assert isinstance(result, GameEnded)
        if opened is None:
            continue
        ended.append((event, opened, result))
        if opened.tournament_id:
            with correlation(event.metadata.correlation_id):  # the tournament's events follow from the game's end
                await record(tournaments, opened.tournament_id, event.stream_id, result.winners)
    await save(pool, page.end, ended)


async def abandoned(store: EventStore, tournaments: Tournaments, event: RecordedEvent) -> None:
    """An abandoned tournament game counts as played with no winner (the tournament goes on: the next round, or the
    series' next game); nobody's rating moves."""
    opened = await opened_of(store, event.stream_id)
    if opened is not None and opened.tournament_id:
        with correlation(event.metadata.correlation_id):
            await record(tournaments, opened.tournament_id, event.stream_id, ())


async def record(tournaments: Tournaments, tournament_id: str, game_id: str, winners: tuple[int, ...]) -> None:
    try:
        await tournaments.execute(tournament_id, RecordResult(game_id=game_id, winners=winners))
    except RejectedError as error:
        if error.code == Refusal.TOURNAMENT_BUSY:
            raise  # transient: the supervisor restarts the follower from its checkpoint, and recording is idempotent
        log.error("tournament.result-refused", tournament_id=tournament_id, game_id=game_id, code=error.code,
                  reason=error.message)


async def save(pool: asyncpg.Pool, end: Checkpoint,
               ended: list[tuple[RecordedEvent, GameOpened, GameEnded]]) -> None:
    async with pool.acquire() as conn, conn.transaction():
        row = await conn.fetchrow("SELECT tx::text::bigint, position FROM checkpoints WHERE name = $1 FOR UPDATE",
                                  CHECKPOINT)
        done = Checkpoint(row[0], row[1]) if row else Checkpoint()
        for event, opened, result in ended:
            if event.checkpoint > done:
                await rate_game(conn, opened.players, result.winners)
        if end > done:
            await save_checkpoint(conn, CHECKPOINT, end)


async def opened_of(store: EventStore, game_id: str) -> GameOpened | None:
    first = await store.read_stream(game_id, 1, 1)
    event = read(first[0]) if first else None
    return event if isinstance(event, GameOpened) else None
