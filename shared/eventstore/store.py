"""Append and read the event log (DESIGN.md "Event store")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager, aclosing, nullcontext

import asyncpg

from shared.eventstore.appending import AppendOutcome, Item, append_one
from shared.eventstore.chained import append_after_heads
from shared.eventstore.copying import copy_many
from shared.eventstore.errors import ConcurrencyError
from shared.eventstore.reading import COLUMNS, to_recorded_all
from shared.eventstore.types import (
    AppendResult,
    Checkpoint,
    Expected,
    ExpectedVersion,
    NewEvent,
    Page,
    RecordedEvent,
    WakeSource,
)
from shared.eventstore.verify import VerifyReport, verify_events
from shared.logging import get_logger

READ_ALL = f"""
    SELECT {COLUMNS} FROM events
    WHERE (tx, position) > ($1::xid8, $2::bigint)
      AND tx < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY events.tx, events.position
    LIMIT $3
"""
READ_HASHES = """
    SELECT tx, position, stream_id, hash FROM events
    WHERE (tx, position) > ($1::xid8, $2::bigint)
      AND tx < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY events.tx, events.position
    LIMIT $3
"""
READ_STREAM = f"SELECT {COLUMNS} FROM events WHERE stream_id = $1 AND version >= $2 ORDER BY version LIMIT $3"
READ_STREAMS = f"SELECT {COLUMNS} FROM events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, version"
SCAN_TYPES = """
    SELECT position, tx, type = ANY($4::text[]) FROM events
    WHERE (tx, position) > ($1::xid8, $2::bigint)
      AND tx < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY events.tx, events.position
    LIMIT $3
"""
READ_POSITIONS = f"SELECT {COLUMNS} FROM events WHERE position = ANY($1::bigint[]) ORDER BY tx, position"
READ_REST_OF_TRANSACTION = f"""
    SELECT {COLUMNS} FROM events WHERE tx = $1::xid8 AND position > $2::bigint ORDER BY events.tx, events.position
"""
ANY_RETRIES = 20
START = Checkpoint()

log = get_logger(__name__)

OnCommit = Callable[[], None]
"""Called (synchronously) after a call that added events has committed: a service publishes a wake-up with it."""


class EventStore:
    def __init__(self, pool: asyncpg.Pool, conn: asyncpg.Connection | None = None, *,
                 on_commit: OnCommit | None = None, wakeups: WakeSource | None = None) -> None:
        self.pool = pool
        self._conn = conn
        self.on_commit = on_commit
        """Set by the service once it can publish wake-ups (``shared.service.app``)."""
        self.wakeups = wakeups
        """What wakes ``batches`` when the caller names nothing else."""

    def on(self, conn: asyncpg.Connection) -> EventStore:
        """The same store, every call on ``conn`` (one the caller holds, e.g. with a lock on it)."""
        return EventStore(self.pool, conn, on_commit=self.on_commit, wakeups=self.wakeups)

    def connection(self) -> AbstractAsyncContextManager[asyncpg.Connection]:
        return nullcontext(self._conn) if self._conn is not None else self.pool.acquire()

    async def append(
        self, stream_id: str, events: Sequence[NewEvent], expected: Expected = ExpectedVersion.ANY, *,
        head: bytes | None = None,
    ) -> AppendResult:
        """Append ``events`` to one stream atomically, or not at all.

        Raises ConcurrencyError when the stream is not at ``expected``. Re-appending the same event ids returns
        the original places and adds nothing. ``head``: the hash of the stream's event at ``expected`` (GENESIS for
        a new stream), when the writer knows it: a cheaper append (``shared.eventstore.chained``), same outcome.
        """
        outcome = (await self.append_items([Item.of(stream_id, events, expected, head)]))[0]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def append_many(
        self, items: Sequence[tuple[str, Sequence[NewEvent], Expected]]
    ) -> list[AppendOutcome]:
        """Append to many streams in one transaction, each item exactly as ``append`` would on its own: its own
        expected version, its own outcome (an AppendResult, or the ConcurrencyError / IdempotencyConflict that
        ``append`` would raise), one item's failure never failing another's. The items commit together, unless
        another writer raced for one of their streams: then the call is split, and the parts commit apart.

        Raises ValueError / InvalidStreamId for a malformed item before anything is sent, and whatever fails the
        call as a whole (a lost connection: whether it committed is then unknown, and re-appending the same event
        ids is the safe retry)."""
        return await self.append_items([Item.of(stream_id, events, expected) for stream_id, events, expected in items])

    async def append_items(self, encoded: Sequence[Item]) -> list[AppendOutcome]:
        """``append_many`` of items already encoded (``Item.of``), as the group commit queues them."""
        encoded = list(encoded)
        found: list[AppendOutcome | None] = [None] * len(encoded)
        if chained := [n for n, item in enumerate(encoded) if item.after is not None]:
            await self._after_heads(encoded, chained, found)
        if pending := [n for n, outcome in enumerate(found) if outcome is None]:
            await self._settle(encoded, pending, found)
        if self.on_commit is not None and any(isinstance(o, AppendResult) and not o.duplicate for o in found):
            if self._conn is None or not self._conn.is_in_transaction():
                self._committed()
        assert all(o is not None for o in found)
        return found  # type: ignore[return-value]

    def _committed(self) -> None:
        assert self.on_commit is not None
        try:
            self.on_commit()
        except Exception:  # a wake-up is a hint: readers poll anyway
            log.exception("eventstore.on_commit.failed")

    async def _after_heads(self, encoded: list[Item], chained: list[int], found: list[AppendOutcome | None]) -> None:
        """The items whose writer named the head they build on, in one call (``append_after_heads``); what it
        leaves undecided (a head that moved, a version or an id stored already) goes the slow way, which names the
        outcome. So does a call that deadlocked with another writer's (each inserts in its own order: a stale owner
        and the new one writing the same games), which PostgreSQL rolled back whole."""
        try:
            async with self.connection() as conn:
                if conn.is_in_transaction():  # the caller's: a failed statement must not abort it
                    async with conn.transaction():
                        decided = await append_after_heads(conn, [encoded[n] for n in chained])
                else:
                    decided = await append_after_heads(conn, [encoded[n] for n in chained])
        except (asyncpg.UniqueViolationError, asyncpg.DeadlockDetectedError):
            return
        for n, outcome in zip(chained, decided, strict=True):
            found[n] = outcome

    async def _settle(self, encoded: list[Item], pending: list[int], found: list[AppendOutcome | None]) -> None:
        for _attempt in range(ANY_RETRIES):
            items = [encoded[i] for i in pending]
            try:
                async with self.connection() as conn:
                    decided = await copy_many(conn, items) if len(items) > 1 else [await append_one(conn, items[0])]
            except asyncpg.PostgresError as error:
                if len(pending) > 1:
                    # The call changed nothing. Another writer took one of these streams' next versions meanwhile
                    # (or an item is refused): halve the call until the items concerned are alone, the others done.
                    # Alone, an item goes by append_events, as ``append`` always does.
                    half = len(pending) // 2
                    await self._settle(encoded, pending[:half], found)
                    await self._settle(encoded, pending[half:], found)
                    return
                if isinstance(error, asyncpg.DeadlockDetectedError):
                    continue  # rolled back whole to let another writer through: again
                if isinstance(error, asyncpg.UniqueViolationError):
                    item = items[0]
                    if error.constraint_name == "events_stream_version" and item.expected is not ExpectedVersion.ANY:
                        found[pending[0]] = ConcurrencyError(item.stream_id, item.expected,
                                                             await self.stream_version(item.stream_id))
                        return
                    continue  # another writer stored these ids first, or took the version an ANY wanted: again
                found[pending[0]] = error
                return
            for i, outcome in zip(pending, decided, strict=True):
                found[i] = outcome
            return
        item = encoded[pending[0]]
        found[pending[0]] = ConcurrencyError(item.stream_id, item.expected, await self.stream_version(item.stream_id))

    async def stream_version(self, stream_id: str) -> int:
        async with self.connection() as conn:
            version = await conn.fetchval("SELECT max(version) FROM events WHERE stream_id = $1", stream_id)
        return int(version or 0)

    async def read_stream(
        self, stream_id: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]:
        async with self.connection() as conn:
            rows = await conn.fetch(READ_STREAM, stream_id, from_version, limit)
        return to_recorded_all(rows)

    async def read_streams(self, stream_ids: Collection[str]) -> dict[str, list[RecordedEvent]]:
        """Several whole streams in one read: each named stream's events in order (an empty list for one with none)."""
        async with self.connection() as conn:
            rows = await conn.fetch(READ_STREAMS, list(stream_ids))
        streams: dict[str, list[RecordedEvent]] = {stream_id: [] for stream_id in stream_ids}
        for event in to_recorded_all(rows):
            streams[event.stream_id].append(event)
        return streams

    async def verify(self, stream_id: str) -> VerifyReport:
        return verify_events(stream_id, await self.read_stream(stream_id))

    async def read_all(self, after: Checkpoint = START, limit: int = 1000) -> list[RecordedEvent]:
        """The next events of the global log in a stable, gap-free order: only transactions that have all
        finished are read, so an event committed late can never be skipped."""
        async with self.connection() as conn:
            rows = await conn.fetch(READ_ALL, after.tx, after.position, limit)
        return to_recorded_all(rows)

    async def read_hashes(self, after: Checkpoint = START, limit: int = 1000) -> list[tuple[Checkpoint, str, bytes]]:
        """``read_all`` of each event's place, stream and hash only (what a notary of the log folds)."""
        async with self.connection() as conn:
            rows = await conn.fetch(READ_HASHES, after.tx, after.position, limit)
        return [(Checkpoint(tx, position), stream_id, hash_) for tx, position, stream_id, hash_ in rows]

    async def read_page(self, after: Checkpoint, limit: int, types: Collection[str] | None = None,
                        whole_transactions: bool = False) -> Page:
        """The next ``limit`` events of the global log (as ``read_all``), or with ``types`` only those of these
        types among them: the rest are passed over in the database, and ``Page.end`` says how far it looked. With
        ``whole_transactions``, a page that ``limit`` cut inside a transaction goes on to its last event: the
        transaction has committed (the read sees only those), so its other events are all there."""
        if types is None:
            events = await self.read_all(after, limit)
            if whole_transactions and events and len(events) == limit:
                last = events[-1]
                async with self.connection() as conn:
                    events += to_recorded_all(await conn.fetch(READ_REST_OF_TRANSACTION, last.tx, last.position))
            return Page(events, events[-1].checkpoint if events else after, len(events))
        if whole_transactions:
            raise ValueError("a page of some types only is not read by whole transactions")
        async with self.connection() as conn:
            rows = await conn.fetch(SCAN_TYPES, after.tx, after.position, limit, list(types))
            wanted = [position for position, _tx, matches in rows if matches]
            events = to_recorded_all(await conn.fetch(READ_POSITIONS, wanted)) if wanted else []
        return Page(events, Checkpoint(rows[-1][1], rows[-1][0]) if rows else after, len(rows))

    async def batches(
        self, after: Checkpoint = START, *, batch: int = 500, poll_seconds: float = 0.25,
        wakeups: WakeSource | None = None, min_interval: float = 0.05,
    ) -> AsyncGenerator[list[RecordedEvent], None]:
        """Catch up from ``after``, then follow the log live, a batch at a time (``pages`` says how)."""
        async with aclosing(self.pages(after, batch=batch, poll_seconds=poll_seconds, wakeups=wakeups,
                                       min_interval=min_interval)) as pages:
            async for page in pages:
                yield page.events

    async def pages(
        self, after: Checkpoint = START, *, batch: int = 500, poll_seconds: float = 0.25,
        wakeups: WakeSource | None = None, min_interval: float = 0.05, types: Collection[str] | None = None,
        whole_transactions: bool = False,
    ) -> AsyncGenerator[Page, None]:
        """Catch up from ``after``, then follow the log live, a batch at a time. ``wakeups`` (else the store's own,
        which a service wires to the writers' NATS messages) wakes the reader after a commit; the table is the data,
        and a short poll covers what a wake-up cannot (a lost message, a writer that publishes none, a reader held
        back by another open transaction). A busy log is read at most every ``min_interval`` seconds: each read
        (and what the reader does per batch: a checkpoint, a transaction) then covers many commits instead of one,
        while the first event after a quiet spell is read at once. The caller decides when a page is done: the
        next one starts after its end. With ``types``, a page holds only events of those types (maybe none) and
        its end is where the reading got to: a reader that wants few kinds of event reads little. With
        ``whole_transactions``, no page ends inside a transaction (``read_page``)."""
        source = wakeups or self.wakeups
        loop = asyncio.get_running_loop()
        with source.waiter() if source is not None else nullcontext(asyncio.Event()) as wake:
            while True:
                wake.clear()
                read_at = loop.time()
                page = await self.read_page(after, batch, types, whole_transactions)
                if page.scanned:
                    yield page
                    after = page.end
                if page.scanned < batch:
                    try:
                        await asyncio.wait_for(wake.wait(), poll_seconds)
                    except TimeoutError:
                        continue
                    if (linger := read_at + min_interval - loop.time()) > 0:
                        await asyncio.sleep(linger)

    async def subscribe(
        self, after: Checkpoint = START, *, batch: int = 500, poll_seconds: float = 0.25,
        wakeups: WakeSource | None = None, min_interval: float = 0.05,
    ) -> AsyncGenerator[RecordedEvent, None]:
        async with aclosing(self.batches(after, batch=batch, poll_seconds=poll_seconds, wakeups=wakeups,
                                         min_interval=min_interval)) as batches:
            async for events in batches:
                for event in events:
                    yield event
