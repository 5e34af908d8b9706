"""A token rotated or revoked on one gateway replica stops working at once on all of them: the replica evicts it
from its own ``KnownTokens`` and tells the others over NATS (``league.tokens.revoked``, gateways only). A replica
that was cut off from NATS may have missed some: after a reconnect it forgets every token it knew, and a lost
message is covered anyway by ``TOKEN_RECHECK_SECONDS``, the longest a replica trusts a lookup."""

from __future__ import annotations

import asyncio

import msgspec
from aiohttp import web
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from services.gateway.auth import KnownTokens
from shared.bus.namespace import Namespace
from shared.logging import get_logger
from shared.messages.players import TokenRevoked

log = get_logger(__name__)
_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(TokenRevoked)


class Revocations:
    def __init__(self, nc: Client, ns: Namespace, known: KnownTokens) -> None:
        self.nc, self.ns, self.known = nc, ns, known
        self.received = 0
        self._reconnects = nc.stats["reconnects"]
        self._subscription: Subscription | None = None

    async def start(self) -> None:
        self._subscription = await self.nc.subscribe(self.ns.tokens_revoked, cb=self._on_message)

    async def _on_message(self, msg: Msg) -> None:
        try:
            revoked = _decoder.decode(msg.data)
        except msgspec.DecodeError as error:
            log.warning("tokens.revoked.malformed", error=str(error))
            return
        self.received += 1
        self.known.evict(revoked.token_hash)

    async def announce(self, token_hash: bytes) -> None:
        self.known.evict(token_hash)
        await self.nc.publish(self.ns.tokens_revoked, _encoder.encode(TokenRevoked(token_hash=token_hash)))

    async def follow_reconnects(self, interval: float = 1.0) -> None:
        while True:
            await asyncio.sleep(interval)
            reconnects = self.nc.stats["reconnects"]
            if reconnects != self._reconnects:
                self._reconnects = reconnects
                self.known.clear()
                log.info("tokens.forgotten-after-reconnect")

    async def close(self) -> None:
        if self._subscription is not None:
            await self._subscription.unsubscribe()
            self._subscription = None


REVOCATIONS = web.AppKey("revocations", Revocations)
