"""The next ``league up`` after a demo was interrupted: the games its bot players were left in are abandoned
through the engine (``engine.GameAbandoned``, by ``league up``), so none stays "running" for ever. A tournament
of the demo goes on past its abandoned tables and opens its next round with the same departed players: those
tables are abandoned in turn until the tournament has finished."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

import asyncpg

from shared.bus.connect import connect
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.cli.abandon import abandon_with
from shared.cli.connection import operator_nkey
from shared.cli.demo_record import FILE, DemoRecord, interrupted_demo
from shared.eventstore.pool import connect as pg_connect
from shared.refusals import Refusal

REASON = "the demo playing it was interrupted; league up ended it on its next start"
BY = "league up"
PATIENCE_SECONDS = 120.0
LOOK_EVERY = 0.5
RUNNING_GAMES = """
    SELECT o.stream_id FROM events o
    WHERE o.type = 'engine.GameOpened' AND o.data->'players' ?| $1::text[]
      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = o.stream_id
                      AND e.type IN ('engine.GameEnded', 'engine.GameAbandoned'))
"""
UNFINISHED_TOURNAMENTS = """
    SELECT DISTINCT stream_id FROM events WHERE stream_id = ANY($1::text[]) AND type = 'tournament.RoundStarted'
      AND stream_id NOT IN (SELECT stream_id FROM events WHERE stream_id = ANY($1::text[])
                            AND type = 'tournament.TournamentFinished')
"""


async def end_interrupted_demo(data_dir: Path, database_url: str, nats_url: str, say: Callable[[str], None]) -> int:
    """Abandon what an interrupted demo left running; returns how many games. Nothing to do: 0 at once."""
    record = interrupted_demo(data_dir)
    if record is None:
        return 0
    conn = await pg_connect(database_url)
    nc = await connect(nats_url, name="league-up", nkey_file=operator_nkey(data_dir))
    ns = Namespace(os.environ.get("NATS_SUBJECT_PREFIX", ""))
    abandoned = 0
    try:
        deadline = time.monotonic() + PATIENCE_SECONDS
        while time.monotonic() < deadline:
            games, tournaments = await left_running(conn, record)
            if not games and not tournaments:
                break
            for game_id in games:
                try:
                    await abandon_with(nc, ns, game_id, REASON, BY)
                    abandoned += 1
                except RejectedError as error:  # ended meanwhile, or named by a tournament and not yet opened
                    if error.code not in (Refusal.ENGINE_GAME_OVER, Refusal.ENGINE_UNKNOWN_GAME):
                        raise
            await asyncio.sleep(LOOK_EVERY)
        else:
            games, tournaments = await left_running(conn, record)
            say(f"league: WARNING the interrupted demo still has {len(games)} games and {len(tournaments)} "
                f"tournaments running after {PATIENCE_SECONDS:.0f}s; `league abandon <game> --reason ...` ends one")
            return abandoned
    finally:
        await nc.close()
        await conn.close()
    (data_dir / FILE).unlink(missing_ok=True)
    if abandoned:
        say(f"league: the last demo was interrupted; its {abandoned} unfinished games were abandoned "
            "(engine.GameAbandoned, nobody won)")
    return abandoned


async def left_running(conn: asyncpg.Connection, record: DemoRecord) -> tuple[list[str], list[str]]:
    games = [row[0] for row in await conn.fetch(RUNNING_GAMES, record.players)] if record.players else []
    streams = [f"tournament-{t}" for t in record.tournaments]
    tournaments = [row[0] for row in await conn.fetch(UNFINISHED_TOURNAMENTS, streams)] if streams else []
    return sorted(games), tournaments
