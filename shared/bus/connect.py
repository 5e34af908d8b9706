from __future__ import annotations

import asyncio

import nats
from nats.aio.client import Client

from shared.logging import get_logger

log = get_logger(__name__)
DRAIN_SECONDS = 5
"""At shutdown, in-flight requests get this long to finish before the connection closes."""


async def connect(url: str, *, name: str, attempts: int = 30, delay: float = 0.5) -> Client:
    """Connect, retrying while the server comes up; once connected nats-py reconnects by itself."""
    for attempt in range(1, attempts + 1):
        try:
            return await nats.connect(
                url, name=name, connect_timeout=2, max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                allow_reconnect=True, drain_timeout=DRAIN_SECONDS,
            )
        except (OSError, TimeoutError, nats.errors.NoServersError) as error:
            if attempt == attempts:
                raise
            log.warning("nats.connect.retry", url=url, attempt=attempt, error=str(error))
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")
