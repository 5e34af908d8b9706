"""What a league that went through faults must still show: the bots got no server error, every event PostgreSQL
holds is on JetStream once, every game revealed its seed (so it can be audited). Shared by the fault suite and the
cluster test."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from types import SimpleNamespace

import aiohttp

from shared.audit.fetch import fetch_game
from shared.bus.connect import connect
from shared.bus.namespace import Namespace
from shared.eventstore import Checkpoint, EventStore
from shared.eventstore.checkpoints import load_checkpoint
from shared.messages.rng import rng_stream
from shared.verify.findings import Finding
from shared.verify.jetstream_copy import read_copy


class Statuses:
    """Every HTTP status the bots got, and every request the league did not answer."""

    def __init__(self) -> None:
        self.seen: Counter[int] = Counter()
        self.unanswered = 0
        self.config = aiohttp.TraceConfig()
        self.config.on_request_end.append(self._end)
        self.config.on_request_exception.append(self._failed)

    async def _end(self, _session: object, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
        self.seen[params.response.status] += 1

    async def _failed(self, *_args: object) -> None:
        self.unanswered += 1


async def revealed(store: EventStore, game_id: str, timeout: float = 60) -> tuple[list, list]:  # type: ignore[type-arg]
    deadline = time.monotonic() + timeout
    while True:
        game, rng = await fetch_game(store, game_id)
        if any(e.type == "rng.SeedRevealed" for e in rng):
            return game, rng
        assert time.monotonic() < deadline, f"{rng_stream(game_id)}: no reveal"
        await asyncio.sleep(0.2)


async def relayed(store: EventStore, timeout: float = 60) -> None:
    """The relay has published every event the log holds now."""
    deadline = time.monotonic() + timeout
    async with store.pool.acquire() as conn:
        last = await conn.fetchrow("SELECT tx::text::bigint, position FROM events ORDER BY tx DESC, position DESC"
                                   " LIMIT 1")
        while (await load_checkpoint(conn, "relay")) < Checkpoint(*last):
            assert time.monotonic() < deadline, "the relay did not catch up"
            await asyncio.sleep(0.2)


async def same_events_in_postgresql_and_jetstream(nats_url: str, admin_nkey: str, store: EventStore) -> None:
    """JetStream's copy of the log (both streams) holds each event PostgreSQL holds, once, and nothing else."""
    findings: list[Finding] = []
    nc = await connect(nats_url, name="fault-compare", nkey_file=admin_nkey)
    try:
        copies = await read_copy(nc.jetstream(), Namespace(), findings)
    finally:
        await nc.close()
    assert not findings, findings
    async with store.pool.acquire() as conn:
        in_postgres = {row[0] for row in await conn.fetch("SELECT event_id FROM events")}
    in_jetstream = Counter(copy.event_id for copy in copies)
    doubled = [event_id for event_id, count in in_jetstream.items() if count > 1]
    assert not doubled, f"{len(doubled)} events are in JetStream twice"
    lost = in_postgres ^ set(in_jetstream)
    assert not lost, (f"{len(in_postgres - set(in_jetstream))} events only in PostgreSQL, "
                      f"{len(set(in_jetstream) - in_postgres)} only in JetStream")
