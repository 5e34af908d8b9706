"""The games this replica owns, folded in memory (DESIGN.md "The hot path").

The owner decides on its fold without reading the stream, and folds what it appended without reading it back. The
append's expected version is the fence: when another writer moved a game (a replica that owned the partition
before, a test writing by hand), the append fails, the game is dropped from memory, and the next look reads it
again. Commands for one game run one at a time here, in the order they came.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, Protocol

from shared.bus.partitions import partition_of
from shared.eventstore import AppendResult, ConcurrencyError, EventStore, NewEvent
from shared.eventstore.types import Expected, ExpectedVersion
from shared.messages.engine import GameOpened
from shared.play.layout import Entry
from shared.play.table import Table
from shared.service.keyed_locks import KeyedLocks

CACHE_GAMES = 50_000
"""Running games kept folded (≈ 25 KB each for Hockey); beyond it the least recently used is read again when asked."""
ENDED_GAMES = 1_000
"""Games that ended here lately, kept folded apart from the running ones for the engine's own passes: the bots'
pass that played a game's last move, and the engine's watches, look at it again just after its end, and each look
read its whole stream again (3.5 reads a game in a 10,000-player Swiss round, 7 % of PostgreSQL's statement time).
A 10,000-player round ends up to 30 games a second; a Phantoms season's table is bigger than a Hockey game's, so the
count stays small."""


class Appender(Protocol):
    async def append(self, stream_id: str, events: Sequence[NewEvent], expected: Expected, *,
                     head: bytes | None = None) -> AppendResult: ...


class Games:
    def __init__(self, store: EventStore, appender: Appender, capacity: int = CACHE_GAMES,
                 ended_capacity: int = ENDED_GAMES) -> None:
        self.store = store
        self.appender = appender
        self.capacity = capacity
        self.ended_capacity = ended_capacity
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._ended: OrderedDict[str, Table] = OrderedDict()
        self._locks = KeyedLocks()
        self.conflicts = 0
        """Appends fenced off because the stream had moved: the game was read again."""
        self.loads = 0
        """Games read from the log (not found in memory)."""
        self._unwatched: set[str] = set()
        """Games this replica opened that nobody has asked to see since (``watched``)."""
        self._asked: OrderedDict[str, None] = OrderedDict()
        """The games someone asked to see lately, whether they were open yet or not: a socket may wait for a game
        that is still being opened (a tournament's round names its games before they open)."""

    def watched(self, game_id: str) -> bool:
        """Whether someone may follow the game's changes: False only for a game this replica opened and has kept
        in memory since, that nobody asked to see (``watch``). A WebSocket says so to every replica, and asks the
        owner its first view, before it waits for changes; players who poll ``/legal`` and bots ask neither. Any
        game read from the log counts as watched."""
        return game_id not in self._unwatched

    def watch(self, game_id: str) -> None:
        """Someone asked to see the game (its view, or a gateway's notice to every replica): its changes are
        published from now on, also when it is opened here only after this."""
        self._unwatched.discard(game_id)
        self._asked[game_id] = None
        self._asked.move_to_end(game_id)
        if len(self._asked) > self.capacity:
            self._asked.popitem(last=False)

    def forget_unwatched(self) -> None:
        """Count every game as watched (a notice may have been missed)."""
        self._unwatched.clear()

    def __len__(self) -> int:
        """Games folded in memory, running and lately ended."""
        return len(self._tables) + len(self._ended)

    @asynccontextmanager
    async def hold(self, game_id: str) -> AsyncIterator[Table]:
        """The game, for one command at a time; waiters are served in the order they came."""
        async with self._locks.hold(game_id):
            yield await self.table(game_id)

    async def table(self, game_id: str, *, ended_from_memory: bool = False) -> Table:
        """``ended_from_memory``: a game that ended here lately may come from memory (the engine's own passes over
        its games). Else an ended game is read from the log: what players and referees are shown of it is what is
        stored, so a stream changed after its end is named unreadable, not hidden behind this fold."""
        cached = self._tables.get(game_id)
        if cached is not None:
            self._tables.move_to_end(game_id)
            return cached
        if ended_from_memory and (ended := self._ended.get(game_id)) is not None:
            return ended
        table = Table(game_id).apply_all(await self.store.read_stream(game_id))
        self.loads += 1
        if table.opened is not None and table.ended is None:  # made-up ids cost no memory, nor do old games
            self._keep(table)
        return table

    async def catch_up(self, game_id: str) -> Table:
        """The game with whatever the log holds beyond the fold (a view asked at a version not seen here)."""
        table = await self.table(game_id)
        table.apply_all(await self.store.read_stream(game_id, table.version + 1))
        return table

    async def append(self, table: Table, batch: Sequence[Entry], expected: Expected, *,
                     state: Any = None) -> AppendResult:
        """Append ``batch`` to the game's stream and fold it into ``table``; ``state``, when given, is the rules'
        state after the batch (the decider has it already: the rules do not evolve it twice)."""
        if expected is ExpectedVersion.NO_STREAM and table.game_id not in self._asked:
            # Opened here, and nobody asked to see it yet. Marked before the save: a view asked while the save is
            # under way takes the mark off again.
            self._unwatched.add(table.game_id)
        try:
            return await self._append(table, batch, expected, state)
        except BaseException:
            self._unwatched.discard(table.game_id)
            raise

    async def _append(self, table: Table, batch: Sequence[Entry], expected: Expected, state: Any) -> AppendResult:
        try:
            builds_on_fold = expected == (table.version or ExpectedVersion.NO_STREAM)
            result = await self.appender.append(table.game_id, [e.new for e in batch], expected,
                                                head=table.head if builds_on_fold else None)
        except ConcurrencyError:
            self.conflicts += 1
            self.drop(table.game_id)
            raise
        if result.duplicate or any(isinstance(e.event, GameOpened) and e.event.client_seed_seconds is not None
                                   for e in batch):
            # Stored before (a retry), or a seed window timed by the database's clock: read what the log holds.
            self.drop(table.game_id)
            return result
        now = datetime.now(UTC)
        for (event, new), version in zip(batch, result.versions, strict=True):
            table.fold(event, version, new.metadata.command_id, now, evolve=state is None)
        if state is not None:
            table.state = state
        table.head = result.hash
        if result.hash is None:
            # Appended without its new head known (the slow way, after a clash): read again, head and all, when
            # next asked.
            self.drop(table.game_id)
        elif table.ended is None:
            self._keep(table)
        else:
            self._retire(table)
        return result

    def _keep(self, table: Table) -> None:
        self._tables[table.game_id] = table
        self._tables.move_to_end(table.game_id)
        if len(self._tables) > self.capacity:
            self._unwatched.discard(self._tables.popitem(last=False)[0])

    def _retire(self, table: Table) -> None:
        """An ended game leaves the running ones; the oldest ended one beyond ``ended_capacity`` goes."""
        self._tables.pop(table.game_id, None)
        self._ended[table.game_id] = table
        if len(self._ended) > self.ended_capacity:
            self._unwatched.discard(self._ended.popitem(last=False)[0])

    def drop(self, game_id: str) -> None:
        self._tables.pop(game_id, None)
        self._ended.pop(game_id, None)
        self._unwatched.discard(game_id)

    def drop_partition(self, partition: int) -> None:
        for folded in (self._tables, self._ended):
            for game_id in [g for g in folded if partition_of(g) == partition]:
                del folded[game_id]
        self._unwatched = {g for g in self._unwatched if partition_of(g) != partition}

    def cached(self, game_id: str) -> Table | None:
        return self._tables.get(game_id) or self._ended.get(game_id)
