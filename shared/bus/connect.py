from __future__ import annotations

import asyncio

import nats
from nats.aio.client import Client

from shared.logging import get_logger

log = get_logger(__name__)
DRAIN_SECONDS = 5
"""At shutdown, in-flight requests get this long to finish before the connection closes."""


async def _log_error(error: Exception) -> None:
    """nats-server's refusals (a permissions violation) and lost connections, in the service's own log."""
    log.warning("nats.error", error=f"{type(error).__name__}: {error}")


def server_urls(url: str) -> list[str]:
    """``NATS_URL`` as nats-py takes it: one URL, or a cluster's, comma-separated."""
    return [part.strip() for part in url.split(",") if part.strip()]


async def connect(url: str, *, name: str, attempts: int = 30, delay: float = 0.5, nkey_file: str = "",
                  inbox_prefix: str | None = None) -> Client:
    """Connect, retrying while the server comes up; once connected nats-py reconnects by itself. ``url`` may name
    several servers of one cluster, comma-separated (as nats-server's own tools take them): any that answers will
    do, and the client learns the rest from it. ``nkey_file`` holds the user's nkey seed (none: connect without
    credentials, to a server that asks none); replies come on subjects under ``inbox_prefix``, which nats-server
    lets only this user read."""
    credentials = {"nkeys_seed": nkey_file} if nkey_file else {}
    servers = server_urls(url)
    for attempt in range(1, attempts + 1):
        try:
            return await nats.connect(
                servers, name=name, connect_timeout=2, max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                allow_reconnect=True, drain_timeout=DRAIN_SECONDS, error_cb=_log_error,
                inbox_prefix=inbox_prefix or "_INBOX", **credentials,
            )
        except (OSError, TimeoutError, nats.errors.NoServersError) as error:
            if attempt == attempts:
                raise
            log.warning("nats.connect.retry", url=url, attempt=attempt, error=str(error))
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")
