"""Group commit: many writers' appends flushed together, one ``append_many`` call (one transaction, one durable
commit) for up to ``max_streams`` streams (DESIGN.md "The hot path").

A batch leaves as soon as a flight is free (at most ``max_in_flight`` flushes under way): what queued while the
flights were busy leaves together, so batches grow with the load and a lone append waits for nothing. What waits
is shared between the free flights (each is one PostgreSQL backend, so each can use a core). ``max_delay`` > 0
holds a batch that long after its first request for more to join (measured on the hot path: at a few hundred
commands/s it only added latency and a timer per flush).
A stream is never in two flushes at once, nor twice in one: a second append to a stream waits for the flush that
carries the first, so appends to one stream are made in the order they were asked for, each seeing the version the
one before left.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType

from shared.eventstore.appending import Item
from shared.eventstore.store import EventStore, OnCommit
from shared.eventstore.types import AppendResult, Expected, ExpectedVersion, NewEvent
from shared.logging import get_logger

log = get_logger(__name__)


@dataclass(slots=True)
class _Request:
    item: Item
    at: float
    future: asyncio.Future[AppendResult] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class GroupCommitClosed(RuntimeError):
    pass


class GroupCommit:
    def __init__(self, store: EventStore, *, max_streams: int = 256, max_delay: float = 0.0,
                 max_in_flight: int = 2, min_split: int = 16, on_commit: OnCommit | None = None) -> None:
        self.store = store
        self.max_streams = max_streams
        self.max_delay = max_delay
        self.max_in_flight = max_in_flight
        self.min_split = min_split
        """A flush takes at least this many of the waiting requests when it shares them with another free flight."""
        self.on_commit = on_commit
        """Called after each flush that added events (besides the store's own ``on_commit``)."""
        self.flushes = 0
        self.appended = 0
        self._queue: deque[_Request] = deque()
        self._busy: set[str] = set()
        self._flights: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()
        self._full = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self._closing = False

    async def __aenter__(self) -> GroupCommit:
        self.start()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    def start(self) -> None:
        if self._runner is None:
            self._runner = asyncio.get_running_loop().create_task(self._run(), name="group-commit")

    async def close(self) -> None:
        """Flush everything queued, wait for the flushes under way, then stop taking appends."""
        self._closing = True
        self._changed.set()
        self._full.set()
        if self._runner is not None:
            await self._runner
            self._runner = None

    async def append(self, stream_id: str, events: Sequence[NewEvent],
                     expected: Expected = ExpectedVersion.ANY, *, head: bytes | None = None) -> AppendResult:
        """``EventStore.append``, committed with whatever else is queued: the same result, the same errors."""
        if self._closing or self._runner is None:
            raise GroupCommitClosed("the group commit is not running")
        request = _Request(Item.of(stream_id, events, expected, head), asyncio.get_running_loop().time())
        self._queue.append(request)
        self._changed.set()
        if len(self._queue) >= self.max_streams:
            self._full.set()
        return await request.future

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue or not self._closing:
            self._changed.clear()
            free = self.max_in_flight - len(self._flights)
            if free <= 0 or not self._queue:
                await self._changed.wait()  # a new request, a finished flight, or close
                continue
            if self.max_delay > 0 and len(self._queue) < self.max_streams and not self._closing:
                # Give the batch a moment to fill: until max_delay after its oldest request was asked for.
                left = self._queue[0].at + self.max_delay - loop.time()
                if left > 0:
                    self._full.clear()
                    try:
                        await asyncio.wait_for(self._full.wait(), left)
                    except TimeoutError:
                        pass
            # Spread what is waiting over the free flights, so that both cores work on it.
            batch = self._take(min(self.max_streams, max(self.min_split, -(-len(self._queue) // free))))
            if not batch:
                await self._changed.wait()  # every stream waiting is in a flight: wait for one to land
                continue
            flight = loop.create_task(self._flush(batch), name="group-commit-flush")
            self._flights.add(flight)
        if self._flights:
            await asyncio.gather(*self._flights, return_exceptions=True)

    def _take(self, room: int | None = None) -> list[_Request]:
        """The oldest requests whose stream is in no flight nor already in this batch (so held back, a stream's
        later requests stay behind its earlier ones), up to ``room``."""
        room = self.max_streams if room is None else room
        batch: list[_Request] = []
        held: deque[_Request] = deque()
        while self._queue and len(batch) < room:
            request = self._queue.popleft()
            if request.future.done():
                continue  # its caller was cancelled before it left
            if request.item.stream_id in self._busy:
                held.append(request)
            else:
                batch.append(request)
                self._busy.add(request.item.stream_id)
        held.extend(self._queue)
        self._queue = held
        return batch

    async def _flush(self, batch: list[_Request]) -> None:
        try:
            found = await self.store.append_items([r.item for r in batch])
        except BaseException as error:
            for request in batch:
                if not request.future.done():
                    request.future.set_exception(error)
            if not isinstance(error, Exception):
                raise
            log.warning("group_commit.flush.failed", streams=len(batch), error=f"{type(error).__name__}: {error}")
        else:
            added = 0
            for request, outcome in zip(batch, found, strict=True):
                if isinstance(outcome, Exception):
                    if not request.future.done():
                        request.future.set_exception(outcome)
                    continue
                if not outcome.duplicate:
                    added += len(outcome.positions)
                if not request.future.done():
                    request.future.set_result(outcome)
            self.flushes += 1
            self.appended += added
            if added and self.on_commit is not None:
                try:
                    self.on_commit()
                except Exception:
                    log.exception("group_commit.on_commit.failed")
        finally:
            for request in batch:
                self._busy.discard(request.item.stream_id)
            self._flights.discard(asyncio.current_task())
            self._changed.set()
