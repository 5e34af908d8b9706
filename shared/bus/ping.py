"""Whether NATS answers now: a PING and its PONG, for /healthz. A wedged server (SIGSTOPped, say) keeps the TCP
connection open, so nats-py still says connected; only a round trip tells.

nats-py's ``flush(timeout)`` cannot be used for it: on its timeout it cancels the PONG's future but leaves it queued,
and the PONG that comes later fails the client's read loop (InvalidStateError), for good. So one ping at a time is
left waiting as long as it takes (the client's own stale-connection check reconnects long before ``flush`` would
give up), and each look only asks whether its answer came."""

from __future__ import annotations

import asyncio

from nats.aio.client import Client

GIVE_UP_SECONDS = 3600
"""Longer than nats-py's own stale check (ping_interval x max_outstanding): a reconnect drops the old PONG queue
first, so the ping's future is never cancelled while still queued."""


class NatsPing:
    def __init__(self, nc: Client) -> None:
        self.nc = nc
        self._ping: asyncio.Task[None] | None = None
        self._sent_at = 0.0
        self._reconnects = 0

    async def problem(self, wait: float = 1.0) -> str | None:
        """None when the server answered a ping within ``wait`` seconds (or the one before, still fresh)."""
        if not self.nc.is_connected:
            return "not connected to NATS"
        loop = asyncio.get_running_loop()
        reconnects = self.nc.stats["reconnects"]
        if self._ping is not None and not self._ping.done() and reconnects != self._reconnects:
            self._ping.cancel()  # sent on the connection before: its PONG will never come
            self._ping = None
        if self._ping is None or self._ping.done():
            self._ping = asyncio.ensure_future(self.nc.flush(timeout=GIVE_UP_SECONDS))
            self._sent_at, self._reconnects = loop.time(), reconnects
        done, _ = await asyncio.wait({self._ping}, timeout=wait)
        if not done:
            return f"NATS has not answered a ping for {loop.time() - self._sent_at:.1f}s"
        error = self._ping.exception() if not self._ping.cancelled() else None
        return None if error is None else f"NATS ping failed: {type(error).__name__}: {error}"
