"""The engine's record of the commands it refused (``rejected_commands``, for referees and abuse reports), written
behind the answer in batches.

A refusal changes no game, so the player's answer does not wait for its record, and a burst of them (two bots
racing for the same roll, or a client sending moves it may not) costs one write and one commit per batch, not per
refusal: a flood of illegal moves cannot turn into a flood of commits. The time recorded is the refusal's. What a
crash of the engine catches unwritten is lost from the table but not from the engine's log (``engine.rejected``);
while PostgreSQL is out of reach, up to ``most_waiting`` records wait and are written once it is back.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import TracebackType
from typing import NamedTuple

import asyncpg

from shared.logging import get_logger
from shared.unavailable import unavailable

log = get_logger(__name__)
INSERT = """
    INSERT INTO rejected_commands (game_id, command, code, message, correlation_id, actor, rejected_at)
    SELECT * FROM unnest($1::text[], $2::jsonb[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
"""
MOST_WAITING = 10_000
MAX_BATCH = 1_000
RETRY_SECONDS = 1.0


class Rejection(NamedTuple):
    game_id: str
    command: bytes
    code: str
    message: str
    correlation_id: str | None
    actor: str | None
    rejected_at: datetime


class RejectionLog:
    def __init__(self, pool: asyncpg.Pool, *, most_waiting: int = MOST_WAITING) -> None:
        self.pool = pool
        self.most_waiting = most_waiting
        self.written = 0
        self.dropped = 0
        """Records given up because too many were waiting (PostgreSQL out of reach for long)."""
        self._waiting: list[Rejection] = []
        self._more = asyncio.Event()
        self._closing = False
        self._writer: asyncio.Task[None] | None = None

    async def __aenter__(self) -> RejectionLog:
        self._writer = asyncio.create_task(self._write(), name="rejections")
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        self._closing = True
        self._more.set()
        if self._writer is not None:
            await self._writer

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def record(self, game_id: str, command: bytes, code: str, message: str, correlation_id: str | None,
               actor: str | None) -> None:
        if len(self._waiting) >= self.most_waiting:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.warning("engine.rejections.dropped", dropped=self.dropped, waiting=len(self._waiting))
            return
        self._waiting.append(Rejection(game_id, command, code, message, correlation_id, actor, datetime.now(UTC)))
        self._more.set()

    async def _write(self) -> None:
        while True:
            await self._more.wait()
            self._more.clear()
            while self._waiting:
                batch = self._waiting[:MAX_BATCH]
                try:
                    await self._insert(batch)
                except Exception as error:
                    if unavailable(error) is None and not isinstance(error, OSError | asyncpg.InterfaceError):
                        await self._one_by_one(batch)  # a record PostgreSQL refuses: the others still go in
                        del self._waiting[:len(batch)]
                        continue
                    if self._closing:
                        log.warning("engine.rejections.unwritten", records=len(self._waiting),
                                    error=f"{type(error).__name__}: {error}")
                        return
                    log.warning("engine.rejections.waiting", records=len(self._waiting),
                                error=f"{type(error).__name__}: {error}")
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                del self._waiting[:len(batch)]
                self.written += len(batch)
            if self._closing:
                return

    async def _one_by_one(self, batch: list[Rejection]) -> None:
        for rejection in batch:
            try:
                await self._insert([rejection])
                self.written += 1
            except Exception as error:
                log.error("engine.rejections.refused", game_id=rejection.game_id, code=rejection.code,
                          error=f"{type(error).__name__}: {error}")

    async def _insert(self, batch: list[Rejection]) -> None:
        async with self.pool.acquire() as conn:
            await conn.execute(INSERT, *(list(column) for column in zip(*batch, strict=True)))
