"""One holder at a time per key (a game, a tournament) inside a process; waiters go in the order they came."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


@dataclass
class _Queue:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class KeyedLocks:
    def __init__(self) -> None:
        self._queues: dict[str, _Queue] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        queue = self._queues.setdefault(key, _Queue())
        queue.users += 1
        try:
            async with queue.lock:
                yield
        finally:
            queue.users -= 1
            if queue.users == 0:
                del self._queues[key]
