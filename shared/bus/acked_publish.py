"""JetStream publishes acknowledged on one inbox subscription, for a writer that publishes many messages at once.

nats-py's ``publish_async`` does the same with more work per message (a timed semaphore wait, random bytes from the
OS for each reply subject, the acknowledgement parsed by ``json``): the relay publishes every event of the log, so
that work was a good part of its cost. Here each message's reply subject is the inbox and a counter, and the
acknowledgement is decoded by msgspec. The caller bounds what is in flight (the relay: one batch) and the wait.
"""

from __future__ import annotations

import asyncio

import msgspec
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.errors import NoStreamResponseError

STATUS_HEADER = "Status"
NO_RESPONDERS = "503"


class PublishRefused(Exception):
    """JetStream refused a message (``code``, ``description`` from its answer)."""


class _ApiError(msgspec.Struct):
    code: int = 0
    err_code: int = 0
    description: str = ""


class PubAck(msgspec.Struct):
    stream: str = ""
    seq: int = 0
    duplicate: bool = False
    error: _ApiError | None = None


_ack = msgspec.json.Decoder(PubAck)


class AckedPublisher:
    def __init__(self, nc: Client) -> None:
        self.nc = nc
        self._prefix = ""
        self._sent = 0
        self._waiting: dict[str, asyncio.Future[PubAck]] = {}
        self._subscription: Subscription | None = None

    async def start(self) -> None:
        self._prefix = f"{self.nc.new_inbox()}."
        self._subscription = await self.nc.subscribe(f"{self._prefix}*", cb=self._on_ack)

    async def close(self) -> None:
        if self._subscription is not None:
            await self._subscription.unsubscribe()
            self._subscription = None
        for future in self._waiting.values():
            future.cancel()
        self._waiting.clear()

    async def publish(self, subject: str, payload: bytes, headers: dict[str, str]) -> asyncio.Future[PubAck]:
        """Send one message; the future holds its acknowledgement, or the error JetStream answered with. A future
        the caller cancels (it stopped waiting) is forgotten."""
        if self._subscription is None:
            raise RuntimeError("start the publisher first")
        self._sent += 1
        token = str(self._sent)
        future: asyncio.Future[PubAck] = asyncio.get_running_loop().create_future()
        self._waiting[token] = future
        future.add_done_callback(lambda _: self._waiting.pop(token, None))
        await self.nc.publish(subject, payload, reply=self._prefix + token, headers=headers)
        return future

    async def _on_ack(self, msg: Msg) -> None:
        future = self._waiting.pop(msg.subject[len(self._prefix):], None)
        if future is None or future.done():
            return
        if msg.headers and msg.headers.get(STATUS_HEADER) == NO_RESPONDERS:
            future.set_exception(NoStreamResponseError())
            return
        try:
            ack = _ack.decode(msg.data)
        except msgspec.DecodeError as error:
            future.set_exception(PublishRefused(f"an acknowledgement JetStream should not send: {error}"))
            return
        if ack.error is not None:
            future.set_exception(PublishRefused(f"{ack.error.code} {ack.error.err_code}: {ack.error.description}"))
        else:
            future.set_result(ack)
