"""The engine publishes a game's changes (``GameChanged``, every seat's view) only once someone asked to see the game:
a gateway tells every engine replica before a WebSocket waits for changes, and the socket asks the owner its first
view; players who poll ``/legal`` and bots do neither. A game the replica did not open itself, or no longer holds as
it opened it, counts as watched."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import msgspec
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg

from services.engine import handler
from services.engine.games import Games
from services.engine.handler import Engine
from shared.bus.namespace import Namespace
from shared.bus.partitions import partition_of
from shared.bus.rpc import request
from shared.eventstore import AppendResult, EventStore, ExpectedVersion, NewEvent
from shared.eventstore.types import Expected
from shared.infra.processes import ServiceProcess
from shared.messages.engine import GameChanged, GameOpened, GameView, GetView
from shared.play import layout
from shared.play.layout import Entry
from tests.infra import RunInfra
from tests.integration.helpers import until
from tests.integration.play import create, play_moves

_changes = msgspec.json.Decoder(GameChanged)


@asynccontextmanager
async def changes_of(nc: Client, ns: Namespace, game_id: str) -> AsyncIterator[list[GameChanged]]:
    """Every ``GameChanged`` the engine publishes for the game while the block runs (subscribed before it starts)."""
    published: list[GameChanged] = []

    async def changed(msg: Msg) -> None:
        published.append(_changes.decode(msg.data))

    subscription = await nc.subscribe(ns.game_changed(game_id), cb=changed)
    await nc.flush()
    try:
        yield published
    finally:
        await subscription.unsubscribe()


async def test_a_game_nobody_asked_to_see_publishes_no_changes_until_a_view_is_asked(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    ns = migrated.namespace
    game_id = await create(nc, ns, "vortex", 2)
    async with changes_of(nc, ns, game_id) as published:
        unwatched = await play_moves(nc, ns, store, game_id, 3)
        await nc.flush()
        await asyncio.sleep(0.3)  # a change the engine published would have arrived by now
        assert unwatched.version > 1 and published == []

        first = await request(nc, ns.engine(game_id, "view"), GetView(game_id=game_id), GameView)
        assert first.version == unwatched.version
        watched = await play_moves(nc, ns, store, game_id, 2, seed=2)

        async def both_changes() -> bool:
            return len(published) >= 2

        await until("the two changes after the view", both_changes, 10)
        assert published[-1].version == watched.version
        assert [change.version for change in published] == sorted({change.version for change in published})
        assert all(change.version > first.version for change in published)
        assert len(published[-1].views) == 3  # each seat's, then a spectator's


async def test_a_gateways_notice_that_a_game_is_watched_makes_its_changes_published(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    """Heard by every replica, so also by one that lost the game's partition without knowing it yet, while the
    socket's first view came from the new owner (that case is not staged here: one engine hears the notice)."""
    ns = migrated.namespace
    game_id = await create(nc, ns, "vortex", 2)
    async with changes_of(nc, ns, game_id) as published:
        await nc.publish(ns.game_watched(game_id), b"")
        await nc.flush()
        await asyncio.sleep(0.3)  # the notice reaches the engine before the moves do
        table = await play_moves(nc, ns, store, game_id, 2)

        async def changes_published() -> bool:
            return bool(published) and published[-1].version == table.version

        await until("the changes after the notice", changes_published, 10)


def opening(game_id: str) -> list[Entry]:
    """A game's first event, enough for ``Games`` to keep it (not a playable game)."""
    return [layout.entry(GameOpened(game="vortex", seats=2, options=msgspec.Raw(b"{}")), actor=layout.ENGINE,
                         command_id=f"open:{game_id}")]


def game_ids(count: int) -> list[str]:
    """Game ids in as many partitions, so that giving one partition back touches no other of them."""
    ids: dict[int, str] = {}
    while len(ids) < count:
        game_id = f"vortex-{uuid.uuid4().hex[:16]}"
        ids.setdefault(partition_of(game_id), game_id)
    return list(ids.values())


async def test_only_a_game_this_replica_opened_and_still_holds_counts_as_unwatched(store: EventStore) -> None:
    games = Games(store, store, capacity=3)
    opened = game_ids(4)
    for game_id in opened:
        await games.append(await games.table(game_id), opening(game_id), ExpectedVersion.NO_STREAM)
    evicted, first, second, third = opened
    assert games.watched(evicted)  # beyond the capacity: it would be read again from the log
    assert not any(games.watched(game_id) for game_id in (first, second, third))
    games.watch(first)
    assert games.watched(first) and not games.watched(second) and not games.watched(third)
    games.drop(second)
    assert games.watched(second) and not games.watched(third)
    games.drop_partition(partition_of(third))
    assert games.watched(third)
    # Read from the log again: someone may be watching, having asked the replica that had it meanwhile.
    for game_id in (evicted, second, third):
        assert (await games.table(game_id)).opened is not None and games.watched(game_id)


class WatchedWhileSaving:
    """The store, with a view of the game asked while its opening is being saved (a socket waiting for it to open)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.games: Games | None = None

    async def append(self, stream_id: str, events: Sequence[NewEvent], expected: Expected, *,
                     head: bytes | None = None) -> AppendResult:
        result = await self.store.append(stream_id, events, expected, head=head)
        assert self.games is not None
        self.games.watch(stream_id)
        return result


async def test_a_game_asked_to_see_while_its_opening_is_saved_counts_as_watched(store: EventStore) -> None:
    appender = WatchedWhileSaving(store)
    games = appender.games = Games(store, appender)
    game_id = game_ids(1)[0]
    await games.append(await games.table(game_id), opening(game_id), ExpectedVersion.NO_STREAM)
    assert games.watched(game_id)


async def test_a_game_asked_to_see_before_it_is_opened_counts_as_watched(store: EventStore) -> None:
    """A tournament's round names its games before they open: a socket (or a gateway's notice) may come first."""
    games = Games(store, store)
    early, other = game_ids(2)
    games.watch(early)
    for game_id in (early, other):
        await games.append(await games.table(game_id), opening(game_id), ExpectedVersion.NO_STREAM)
    assert games.watched(early) and not games.watched(other)


async def test_a_game_whose_opening_failed_to_save_counts_as_watched(store: EventStore) -> None:
    class Failing:
        async def append(self, stream_id: str, events: Sequence[NewEvent], expected: Expected, *,
                         head: bytes | None = None) -> AppendResult:
            raise ConnectionError("PostgreSQL went away")

    games = Games(store, Failing())
    game_id = game_ids(1)[0]
    with pytest.raises(ConnectionError):
        await games.append(await games.table(game_id), opening(game_id), ExpectedVersion.NO_STREAM)
    assert games.watched(game_id)


async def test_after_its_nats_connection_was_made_again_a_replica_counts_every_game_as_watched(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gateway's notice may have gone out while this replica was away from NATS: it was never heard."""
    monkeypatch.setattr(handler, "change_of", lambda table, known=None: GameChanged(  # the views need a started game
        game_id=table.game_id, version=table.version, views=()))
    games = Games(store, store)
    game_id = game_ids(1)[0]
    table = await games.table(game_id)
    await games.append(table, opening(game_id), ExpectedVersion.NO_STREAM)
    published: list[GameChanged] = []
    reconnects = [0]

    async def publish(change: GameChanged) -> None:
        published.append(change)

    engine = Engine(games, store.pool, None, publish, reconnects=lambda: reconnects[0])  # type: ignore[arg-type]
    await engine.announce(table)
    assert published == [] and not games.watched(game_id)
    reconnects[0] = 1
    await engine.announce(table)
    assert [change.game_id for change in published] == [game_id] and games.watched(game_id)
