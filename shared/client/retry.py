"""When a client sends a request again: the league did not answer it (a connection refused or dropped, a service
restarting) or said it was too busy (502, 503, 504). Each try waits longer than the last (with jitter, or as long as
``Retry-After`` asks), until ``give_up_after`` seconds have gone by. A 500 is never retried: it is a bug to see."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import aiohttp

AGAIN = frozenset({502, 503, 504})
UNANSWERED: tuple[type[BaseException], ...] = (aiohttp.ClientConnectionError, asyncio.TimeoutError)
"""The request may or may not have been handled: only requests safe to send twice are sent again (the client
sends every state-changing request with an Idempotency-Key, or handles the "already done" answer)."""


@dataclass(frozen=True)
class Retry:
    give_up_after: float = 300.0
    first_delay: float = 0.2
    longest_delay: float = 5.0

    def delay(self, attempt: int, retry_after: str | None) -> float:
        wait = min(self.first_delay * 2.0 ** attempt, self.longest_delay) * random.uniform(0.5, 1.0)
        if retry_after is not None and retry_after.isdigit():
            wait = max(wait, min(float(retry_after), self.longest_delay))
        return wait


PATIENT = Retry()
"""A bot's: it rides out a service restarting, or the whole league restarting, for five minutes."""
NEVER = Retry(give_up_after=0.0)
