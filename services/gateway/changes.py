"""Which games changed, for this gateway's WebSockets.

A socket needs only a nudge ("this game has a new event"): its view always comes from the engine. So each watched
game has one core NATS subscription on the subject the relay publishes its events to, shared by every socket of
this gateway watching it: interest-based routing in nats-server, with no JetStream consumer (and its heartbeats
and flow control) per socket. Core NATS does not replay what was published while the connection was down, so after
each reconnect every watcher is nudged to look again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgspec
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import ConnectionClosedError, ConnectionDrainingError

from shared.bus.namespace import Namespace
from shared.logging import get_logger

log = get_logger(__name__)


class _Versioned(msgspec.Struct):
    version: int


_versions = msgspec.json.Decoder(_Versioned)


class GameChanges:
    def __init__(self, nc: Client, ns: Namespace) -> None:
        self.nc, self.ns = nc, ns
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._versions: dict[str, int] = {}
        self._subscriptions: dict[str, Subscription] = {}
        self._changing = asyncio.Lock()
        self._reconnects = nc.stats["reconnects"]

    @asynccontextmanager
    async def watch(self, game: str, game_id: str) -> AsyncIterator[asyncio.Event]:
        """An event set on each change of the game from the moment this is entered (the subscription is known to
        nats-server before it returns), until it is left."""
        changed = asyncio.Event()
        try:
            async with self._changing:
                self._watchers.setdefault(game_id, set()).add(changed)
                if game_id not in self._subscriptions:
                    self._subscriptions[game_id] = await self.nc.subscribe(
                        self.ns.event_subject(game, game_id), cb=self._nudge)
            await self.nc.flush()  # a round trip: nats-server has the subscription (outside the lock: one each)
            yield changed
        finally:
            async with self._changing:
                subscription = self._forget(game_id, changed)
                if subscription is not None:
                    # While reconnecting this only forgets it; closing, the connection forgets everything.
                    with contextlib.suppress(ConnectionClosedError, ConnectionDrainingError):
                        await subscription.unsubscribe()

    def _forget(self, game_id: str, changed: asyncio.Event) -> Subscription | None:
        watchers = self._watchers.get(game_id, set())
        watchers.discard(changed)
        if watchers:
            return None
        self._watchers.pop(game_id, None)
        self._versions.pop(game_id, None)
        return self._subscriptions.pop(game_id, None)

    def version_of(self, game_id: str) -> int | None:
        """The highest version of the game published since it was first watched (None: nothing yet)."""
        return self._versions.get(game_id)

    async def _nudge(self, msg: Msg) -> None:
        game_id = msg.subject.rsplit(".", 1)[-1]
        try:
            version = _versions.decode(msg.data).version
        except msgspec.DecodeError:
            version = None  # not an event envelope: still a nudge, with no version to go by
        if version is not None and game_id in self._watchers:
            self._versions[game_id] = max(version, self._versions.get(game_id, 0))
        for changed in self._watchers.get(game_id, ()):
            changed.set()

    async def follow_reconnects(self, interval: float = 1.0) -> None:
        """Nudge every watcher each time the connection to NATS has been re-established."""
        while True:
            await asyncio.sleep(interval)
            reconnects = self.nc.stats["reconnects"]
            if reconnects != self._reconnects:
                self._reconnects = reconnects
                log.info("live.reconnected", watched_games=len(self._subscriptions))
                for watchers in self._watchers.values():
                    for changed in watchers:
                        changed.set()
