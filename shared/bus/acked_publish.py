"""JetStream publishes, a batch at a time, acknowledged on one inbox subscription: how the relay publishes the log.

A batch is framed and written as one command (``shared.bus.frames``), each message's reply subject the inbox and a
counter, and the acknowledgements, decoded by msgspec, go into one future for the batch. ``python -m
bench.jetstream``: 25–35 µs of the publisher's CPU a message, where nats-py's ``publish`` and a future a message took
47–57 (and 14,000–17,000 messages/s into one server became 19,500–24,000).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import cast

import msgspec
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.errors import NoStreamResponseError

from shared.bus import frames

STATUS_HEADER = "Status"
NO_RESPONDERS = "503"
MSG_ID_HEADER = "Nats-Msg-Id"
EXPECTED_STREAM_HEADER = "Nats-Expected-Stream"
_MSG_ID_LINE = frames.header_line(MSG_ID_HEADER)
_EXPECTED_STREAM_LINE = frames.header_line(EXPECTED_STREAM_HEADER)


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


class Outgoing(msgspec.Struct, frozen=True):
    """One message to publish: with ``msg_id`` (``Nats-Msg-Id``), JetStream drops a repeat within its duplicate
    window; with ``stream`` (``Nats-Expected-Stream``), it refuses the message unless that stream captures its subject
    (a stream set up wrong loses nothing)."""

    subject: str
    payload: bytes
    msg_id: str | None = None
    stream: str | None = None


class Batch:
    """The acknowledgements of one ``publish_all``: ``done`` holds them in the messages' order once every message
    has one, or the first refusal. Cancelling ``done`` (a caller that stopped waiting) forgets the batch."""

    def __init__(self, first_token: int, size: int) -> None:
        self.tokens = range(first_token, first_token + size)
        self.size = size
        self.acked = 0
        self.acks: list[PubAck | None] = [None] * size
        self.done: asyncio.Future[list[PubAck]] = asyncio.get_running_loop().create_future()

    def acknowledge(self, index: int, ack: PubAck) -> None:
        self.acks[index] = ack
        self.acked += 1
        if self.acked == self.size:
            self.done.set_result(cast(list[PubAck], self.acks))


def _frame(message: Outgoing, reply: bytes, max_payload: int) -> bytes:
    headers = []
    if message.msg_id is not None:
        headers.append((_MSG_ID_LINE, frames.checked(message.msg_id, "a message id")))
    if message.stream is not None:
        headers.append((_EXPECTED_STREAM_LINE, frames.checked(message.stream, "a stream name")))
    return frames.frame(frames.checked(message.subject, "a subject"), reply, message.payload, headers, max_payload)


class AckedPublisher:
    def __init__(self, nc: Client) -> None:
        self.nc = nc
        self._prefix = ""
        self._sent = 0
        self._waiting: dict[str, tuple[Batch, int]] = {}
        self._subscription: Subscription | None = None

    async def start(self) -> None:
        frames.require_frame_writing(self.nc)
        self._prefix = f"{self.nc.new_inbox()}."
        self._subscription = await self.nc.subscribe(f"{self._prefix}*", cb=self._on_ack)

    async def close(self) -> None:
        if self._subscription is not None:
            await self._subscription.unsubscribe()
            self._subscription = None
        for batch in {batch for batch, _ in self._waiting.values()}:
            batch.done.cancel()
        self._waiting.clear()

    async def publish_all(self, messages: Sequence[Outgoing]) -> Batch:
        """Send ``messages`` (at least one) in one write; the batch's ``done`` holds their acknowledgements, or the
        error JetStream answered with first. Raises before sending anything when a message is malformed or larger
        than the server takes, the connection is closed or draining, or, while it reconnects, nats-py's buffer
        would hold more than its ``pending_size``."""
        if self._subscription is None:
            raise RuntimeError("start the publisher first")
        if not messages:
            raise ValueError("a batch needs at least one message")
        first, max_payload = self._sent + 1, self.nc.max_payload
        data = b"".join(_frame(message, f"{self._prefix}{first + index}".encode(), max_payload)
                        for index, message in enumerate(messages))
        batch = Batch(first, len(messages))
        self._sent += len(messages)
        for index, token in enumerate(batch.tokens):
            self._waiting[str(token)] = (batch, index)
        batch.done.add_done_callback(lambda _: self._forget(batch))
        try:
            await frames.write(self.nc, data, len(messages), sum(len(message.payload) for message in messages))
        except BaseException:
            batch.done.cancel()
            self._forget(batch)  # now, not when the cancellation's callback runs
            raise
        return batch

    def _forget(self, batch: Batch) -> None:
        if batch.acked < batch.size:
            for token in batch.tokens:
                self._waiting.pop(str(token), None)

    async def _on_ack(self, msg: Msg) -> None:
        entry = self._waiting.pop(msg.subject[len(self._prefix):], None)
        if entry is None:
            return
        batch, index = entry
        if batch.done.done():
            return
        if msg.headers and msg.headers.get(STATUS_HEADER) == NO_RESPONDERS:
            batch.done.set_exception(NoStreamResponseError())
            return
        try:
            ack = _ack.decode(msg.data)
        except msgspec.DecodeError as error:
            batch.done.set_exception(PublishRefused(f"an acknowledgement JetStream should not send: {error}"))
            return
        if ack.error is not None:
            batch.done.set_exception(PublishRefused(f"{ack.error.code} {ack.error.err_code}: {ack.error.description}"))
        else:
            batch.acknowledge(index, ack)
