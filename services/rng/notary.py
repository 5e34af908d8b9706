"""The RNG service, the league's holder of secrets that already signs what it reveals, also notarises the log: it
signs checkpoints of the global log (``shared.notary.checkpoint``) into the stream ``notary-log``.

It reads the log in the relay's order from where its last checkpoint ended, folds each event's hash into the head,
and signs a checkpoint every ``every_events`` events, or ``every_seconds`` after the last one when the log moved (a
range holding only its own checkpoints is not signed again: a quiet log gets no more). The checkpoints are events
like any other, so the relay publishes them to JetStream, where a referee subscribed to ``events.notary.>`` keeps
them. Two notaries (two RNG replicas) cannot both sign: the append expects the stream at the last checkpoint's
number."""

from __future__ import annotations

import asyncio

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from shared.eventstore import Checkpoint, EventStore
from shared.logging import get_logger
from shared.messages.readable import read
from shared.messages.stored import stored
from shared.notary.checkpoint import GENESIS, STREAM, LogCheckpointSigned, advance, public_key_of, sign

BATCH = 1000
log = get_logger(__name__)


class Notary:
    def __init__(self, store: EventStore, key: Ed25519PrivateKey, *, every_events: int = 10_000,
                 every_seconds: float = 10.0, poll_seconds: float = 1.0) -> None:
        self.store = store
        self.key = key
        self.every_events = every_events
        self.every_seconds = every_seconds
        self.poll_seconds = poll_seconds
        self.signed = 0
        """The last checkpoint's number."""
        self.unsigned = 0
        """Events read since the last checkpoint."""

    async def last(self) -> LogCheckpointSigned | None:
        version = await self.store.stream_version(STREAM)
        if not version:
            return None
        event = read((await self.store.read_stream(STREAM, version, 1))[0])
        assert isinstance(event, LogCheckpointSigned)
        return event

    async def run(self) -> None:
        last = await self.last()
        seq, start, head, total = (0, Checkpoint(), GENESIS, 0) if last is None else (
            last.seq, last.upto, bytes.fromhex(last.head), last.total)
        if last is not None and last.public_key != public_key_of(self.key):
            log.warning("notary.key-changed", previous=last.public_key, now=public_key_of(self.key))
        log.info("notary.start", seq=seq, tx=start.tx, position=start.position, public_key=public_key_of(self.key))
        self.signed = seq
        loop = asyncio.get_running_loop()
        prev_head, upto, count, own_only, since = head, start, 0, True, loop.time()
        while True:
            events = await self.store.read_hashes(upto, BATCH)
            for place, stream_id, hash_ in events:
                head = advance(head, hash_)
                count += 1
                own_only = own_only and stream_id == STREAM
                upto = place
            self.unsigned = count
            if count and not own_only and (count >= self.every_events or loop.time() - since >= self.every_seconds):
                checkpoint = sign(self.key, seq=seq + 1, after=start, upto=upto, events=count, total=total + count,
                                  prev_head=prev_head, head=head)
                await self.store.append(STREAM, [stored(checkpoint, actor="notary")], seq)
                seq, start, prev_head, total = seq + 1, upto, head, total + count
                count, own_only, since = 0, True, loop.time()
                self.signed, self.unsigned = seq, 0
            if len(events) < BATCH:
                await asyncio.sleep(self.poll_seconds)
