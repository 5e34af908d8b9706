"""Readers of the event log woken over core NATS instead of a NOTIFY per insert (DESIGN.md "The hot path").

A writer calls ``WakeupPublisher.notify`` after each commit; every process that follows the log holds one
``Wakeups`` subscribed to the same subject, which sets each waiting reader's event. The message carries nothing:
the reader reads the table, and polls anyway, so a lost or late message only costs latency.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from shared.bus.namespace import Namespace
from shared.logging import get_logger

log = get_logger(__name__)


class Wakeups:
    """Subscribed when a reader first waits: a process that never reads the log (the engine, the gateway) is not
    woken by every commit of the league. Until the subscription stands, the reader's poll covers what it misses."""

    def __init__(self, nc: Client | None = None, subject: str = "") -> None:
        self._waiters: set[asyncio.Event] = set()
        self.received = 0
        self._nc, self._subject = nc, subject
        self._subscription: Subscription | None = None
        self._subscribing: asyncio.Task[None] | None = None

    @classmethod
    async def over_nats(cls, nc: Client, ns: Namespace) -> Wakeups:
        return cls(nc, ns.events_appended)

    @property
    def subscribed(self) -> bool:
        return self._subscription is not None

    async def _subscribe(self) -> None:
        assert self._nc is not None
        try:
            self._subscription = await self._nc.subscribe(self._subject, cb=self._on_message)
        except Exception as error:  # the readers poll meanwhile; the next one to wait tries again
            log.warning("wakeups.subscribe.failed", error=f"{type(error).__name__}: {error}")
            self._subscribing = None

    async def _on_message(self, msg: Msg) -> None:
        self.received += 1
        self.wake()

    def wake(self) -> None:
        for event in self._waiters:
            event.set()

    @contextmanager
    def waiter(self) -> Iterator[asyncio.Event]:
        """An event of the caller's own, set by every wake-up while the block runs."""
        if self._nc is not None and self._subscribing is None:
            self._subscribing = asyncio.get_running_loop().create_task(self._subscribe(), name="wakeups-subscribe")
        event = asyncio.Event()
        self._waiters.add(event)
        try:
            yield event
        finally:
            self._waiters.discard(event)

    async def close(self) -> None:
        if self._subscribing is not None:
            await self._subscribing
            self._subscribing = None
        if self._subscription is not None:
            await self._subscription.unsubscribe()
            self._subscription = None


MIN_INTERVAL = 0.02
"""A writer sends at most one wake-up this often: the first commit after a quiet spell is announced at once, the
commits that follow within the interval by one message at its end. Readers read a busy log at most every 50 ms
anyway, and each message wakes every process that follows the log."""


class WakeupPublisher:
    """``notify`` is synchronous (an ``on_commit`` hook); commits that come while a message is on its way, or within
    ``min_interval`` of the last one, are covered by one more message, not one each."""

    def __init__(self, nc: Client, ns: Namespace, *, min_interval: float = MIN_INTERVAL) -> None:
        self.nc = nc
        self.subject = ns.events_appended
        self.min_interval = min_interval
        self.sent = 0
        self._task: asyncio.Task[None] | None = None
        self._again = False

    def notify(self) -> None:
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.get_running_loop().create_task(self._publish(), name="wakeup-publish")

    async def _publish(self) -> None:
        while True:
            self._again = False
            try:
                await self.nc.publish(self.subject, b"")
                self.sent += 1
            except Exception as error:  # readers poll: a wake-up that cannot go out is only latency
                log.debug("wakeup.publish.failed", error=f"{type(error).__name__}: {error}")
            await asyncio.sleep(self.min_interval)
            if not self._again:
                return

    async def close(self) -> None:
        if self._task is not None:
            try:
                await self._task
            finally:
                self._task = None
