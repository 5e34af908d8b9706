"""Every check of ``league verify`` in one pass over the log (two reads: stream by stream, then in read order)."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
from nats.js import JetStreamContext

from shared.bus.namespace import Namespace
from shared.eventstore import EventStore
from shared.eventstore.checkpoints import load_checkpoint
from shared.messages.readable import UnreadableEvent, read
from shared.notary.checkpoint import STREAM, LogCheckpointSigned
from shared.verify.chains import check_chains
from shared.verify.findings import Finding
from shared.verify.game_ends import check_game_ends
from shared.verify.jetstream_copy import Comparison, read_copy
from shared.verify.log_checkpoints import RangeCheck, check_signatures
from shared.verify.rows import by_stream, in_read_order

_checkpoint = msgspec.json.Decoder(LogCheckpointSigned)


@dataclass
class Verified:
    findings: list[Finding] = field(default_factory=list)
    streams: int = 0
    events: int = 0
    games: int = 0
    """Revealed games checked against where the RNG saw them end."""
    compared: int | None = None
    """Events compared with JetStream's copy (None: not compared)."""
    unpublished: int = 0
    checkpoints: int = 0
    public_key: str | None = None

    def __str__(self) -> str:
        against = (f"{self.compared} compared with JetStream's copy ({self.unpublished} not published yet)"
                   if self.compared is not None else "JetStream not compared")
        head = "verified" if not self.findings else f"{len(self.findings)} finding(s)"
        return (f"{head}: {self.streams} streams and {self.events} events, hash chains recomputed; {against}; "
                f"{self.checkpoints} signed checkpoints of the log recomputed (notary key {self.public_key}); "
                f"{self.games} revealed games end where the RNG saw them end")


async def signed_checkpoints(store: EventStore, findings: list[Finding]) -> list[LogCheckpointSigned]:
    signed = []
    for recorded in await store.read_stream(STREAM):
        try:
            event = read(recorded)
        except UnreadableEvent as error:
            findings.append(Finding(check="the checkpoint is readable", found=error.reason,
                                    stream_id=error.stream_id, version=error.version, event_id=error.event_id))
            continue
        assert isinstance(event, LogCheckpointSigned)
        signed.append(event)
    return signed


def with_referee(kept: list[LogCheckpointSigned], ours: list[LogCheckpointSigned], findings: list[Finding]
                 ) -> list[LogCheckpointSigned]:
    """A referee's copy is what counts: each must be in the log as it was signed; the log's later ones follow."""
    in_log = {c.seq: c for c in ours}
    for checkpoint in kept:
        if checkpoint.seq not in in_log:
            findings.append(Finding(check="the referee's checkpoints are in the log", stream_id=STREAM,
                                    version=checkpoint.seq, found=f"checkpoint #{checkpoint.seq} is missing"))
        elif in_log[checkpoint.seq] != checkpoint:
            findings.append(Finding(check="the referee's checkpoints are in the log as signed", stream_id=STREAM,
                                    version=checkpoint.seq, found=f"checkpoint #{checkpoint.seq} differs"))
    last = max((c.seq for c in kept), default=0)
    return sorted(kept, key=lambda c: c.seq) + [c for c in ours if c.seq > last]


def parse_checkpoints(data: bytes) -> list[LogCheckpointSigned]:
    """JSON lines, as ``league checkpoints`` writes them; msgspec.DecodeError when they are not."""
    return [_checkpoint.decode(line) for line in data.splitlines() if line.strip()]


async def verify_log(store: EventStore, *, js: JetStreamContext | None, ns: Namespace,
                     referee: list[LogCheckpointSigned] | None = None, public_key: str | None = None,
                     relay_checkpoint: str = "relay", streams: list[str] | None = None) -> Verified:
    """``streams``: check only these (chains, ends, JetStream's copy); the signed checkpoints cover the whole log."""
    result = Verified()
    findings = result.findings
    last = await check_chains(by_stream(store.pool, findings, streams), findings)
    result.streams = len(last)
    result.games = await check_game_ends(store.pool, last, findings, streams)
    signed = await signed_checkpoints(store, findings)
    if referee is not None:
        signed = with_referee(referee, signed, findings)
    result.public_key = check_signatures(signed, public_key, findings)
    ranges = RangeCheck(signed)
    comparison = None
    if js is not None:
        async with store.pool.acquire() as conn:  # first: what the relay had published when the copy is read
            relayed = await load_checkpoint(conn, relay_checkpoint)
        copies = [copy for stream_id in ([None] if streams is None else streams)
                  for copy in await read_copy(js, ns, findings, stream_id)]
        comparison = Comparison(copies, relayed)
    async for event in in_read_order(store.pool, findings):
        result.events += 1
        ranges.see(event)
        if comparison is not None and (streams is None or event.stream_id in streams):
            comparison.see(event)
    findings += ranges.finish()
    result.checkpoints = ranges.checked
    if comparison is not None:
        findings += comparison.finish()
        result.compared, result.unpublished = comparison.compared, comparison.unpublished
    return result
