"""Each watched game's new views, for this gateway's WebSockets.

After every change of a game, the engine replica that owns it publishes every seat's view and a spectator's once
(``GameChanged`` on ``league.changed.<game_id>``): a socket sends its player the view of their seat from it, and asks
the engine nothing. The engine publishes them only for a game someone asked to see (``Games.watched`` in
``services.engine.games``): once its subscription stands, a socket tells every engine replica
(``league.watching.<game_id>``), then asks its first view. Each watched game has one core NATS subscription, shared
by every socket of this gateway watching it. Core NATS does not replay what was published while the connection was
down, so after each reconnect every replica is told again which games are watched, and every watcher is told to look
again (it then asks the engine for its view).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import msgspec
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import ConnectionClosedError, ConnectionDrainingError

from shared.bus.namespace import Namespace
from shared.logging import get_logger
from shared.messages.engine import GameChanged, GameView

log = get_logger(__name__)
_changes = msgspec.json.Decoder(GameChanged)


@dataclass(eq=False)
class Watcher:
    seat: int | None = None
    """Whose view this socket shows (None: a spectator's)."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    look_again: bool = False
    """Changes may have been missed (NATS reconnected): ask the engine for the view."""


class GameChanges:
    def __init__(self, nc: Client, ns: Namespace) -> None:
        self.nc, self.ns = nc, ns
        self._watchers: dict[str, set[Watcher]] = {}
        self._latest: dict[str, GameChanged] = {}
        self._subscriptions: dict[str, Subscription] = {}
        self._changing = asyncio.Lock()
        self._reconnects = nc.stats["reconnects"]

    @asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[Watcher]:
        """A watcher told of each change of the game from the moment this is entered (the subscription is known to
        nats-server before it returns), until it is left. Every engine replica is told that the game is watched,
        after the subscription: the one that has the game publishes its changes from then on, also one that lost
        it without knowing yet."""
        watcher = Watcher()
        try:
            async with self._changing:
                self._watchers.setdefault(game_id, set()).add(watcher)
                if game_id not in self._subscriptions:
                    self._subscriptions[game_id] = await self.nc.subscribe(self.ns.game_changed(game_id),
                                                                           cb=self._changed)
            await self.nc.publish(self.ns.game_watched(game_id), b"")
            await self.nc.flush()  # a round trip: nats-server has both (outside the lock: one each)
            yield watcher
        finally:
            async with self._changing:
                subscription = self._forget(game_id, watcher)
                if subscription is not None:
                    # While reconnecting this only forgets it; closing, the connection forgets everything.
                    with contextlib.suppress(ConnectionClosedError, ConnectionDrainingError):
                        await subscription.unsubscribe()

    def _forget(self, game_id: str, watcher: Watcher) -> Subscription | None:
        watchers = self._watchers.get(game_id, set())
        watchers.discard(watcher)
        if watchers:
            return None
        self._watchers.pop(game_id, None)
        self._latest.pop(game_id, None)
        return self._subscriptions.pop(game_id, None)

    def view_for(self, game_id: str, watcher: Watcher, after: int) -> GameView | None:
        """The watcher's view from the newest change published, if it is newer than version ``after``."""
        change = self._latest.get(game_id)
        if change is None or change.version <= after:
            return None
        seat = watcher.seat
        return change.views[seat] if seat is not None and seat < len(change.views) - 1 else change.views[-1]

    async def _changed(self, msg: Msg) -> None:
        try:
            change = _changes.decode(msg.data)
        except msgspec.DecodeError:
            log.warning("live.bad-change", subject=msg.subject)
            return
        latest = self._latest.get(change.game_id)
        if change.game_id not in self._watchers or (latest is not None and latest.version >= change.version):
            return
        self._latest[change.game_id] = change
        for watcher in self._watchers[change.game_id]:
            watcher.changed.set()

    async def follow_reconnects(self, interval: float = 1.0) -> None:
        """Tell every watcher to look again each time the connection to NATS has been re-established."""
        while True:
            await asyncio.sleep(interval)
            reconnects = self.nc.stats["reconnects"]
            if reconnects != self._reconnects:
                self._reconnects = reconnects
                log.info("live.reconnected", watched_games=len(self._subscriptions))
                watched = list(self._watchers.items())  # sockets come and go while the notices go out
                for _game_id, watchers in watched:
                    for watcher in watchers:
                        watcher.look_again = True
                        watcher.changed.set()
                for game_id, _watchers in watched:
                    try:
                        await self.nc.publish(self.ns.game_watched(game_id), b"")
                    except Exception as error:  # cut off again: the next reconnect tells them all again
                        log.warning("live.notice-failed", game_id=game_id, error=f"{type(error).__name__}: {error}")
                        break
