"""What games leave in the log: events and commands per game (Hockey Championship and Phantom's Vortex with their
default options, played to the end by the greedy bot through the engine), and the bytes each event takes in
PostgreSQL (row, and table with its indexes) and on JetStream (both event streams, one replica; a message holds
a stream's events of one transaction). The figures behind
disk per day in docs/scaling.md.

    python -m bench.event_volume [--games 5] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from bench.hardware import describe
from bench.tournament import running_services
from shared.bus.connect import connect
from shared.eventstore import EventStore
from shared.eventstore.pool import create_pool
from tests.faults.checks import relayed
from tests.infra import RunInfra, running_infra
from tests.integration.play import create, play_to_end

KINDS = (("hockeydice", 2), ("vortex", 4))
PER_GAME = """
    SELECT count(*) FILTER (WHERE stream_id = ANY($1)),
           count(*) FILTER (WHERE stream_id = ANY($1) AND type = 'engine.CommandAccepted'),
           count(*) FILTER (WHERE stream_id = ANY($2))
    FROM events
"""


async def measure(infra: RunInfra, games: int) -> dict[str, Any]:
    pool = await create_pool(infra.database_url, max_size=4)
    store = EventStore(pool)
    nc = await connect(infra.nats_url, name="bench-volume", nkey_file=infra.admin_nkey)
    ns = infra.namespace
    figures: dict[str, Any] = {"games": {}}
    try:
        async with running_services(infra, ("relay", "rng", "engine")):
            for kind, seats in KINDS:
                ids = [await create(nc, ns, kind, seats) for _ in range(games)]
                await asyncio.gather(*(play_to_end(nc, ns, store, g, seed=n) for n, g in enumerate(ids)))
                events, commands, rng = await pool.fetchrow(PER_GAME, ids, [f"rng-{g}" for g in ids])
                figures["games"][kind] = {"seats": seats, "games": games, "events_per_game": (events + rng) / games,
                                          "game_stream_events": events / games, "rng_stream_events": rng / games,
                                          "commands_per_game": commands / games,
                                          "events_per_command": round(events / max(commands, 1), 2)}
            await relayed(store)
            figures["postgresql"] = dict(await pool.fetchrow(
                "SELECT count(*) AS events, round(avg(pg_column_size(e.*))) AS row_bytes,"
                " pg_total_relation_size('events') AS table_and_index_bytes FROM events e"))
            figures["postgresql"]["bytes_per_event"] = round(
                figures["postgresql"]["table_and_index_bytes"] / figures["postgresql"]["events"])
            js = nc.jetstream()
            streams = [await js.stream_info(name) for name in (ns.events_stream, ns.private_events_stream)]
            messages, stored = sum(s.state.messages for s in streams), sum(s.state.bytes for s in streams)
            events = figures["postgresql"]["events"]
            figures["jetstream"] = {"messages": messages, "events": events, "bytes": stored,
                                    "events_per_message": round(events / messages, 2),
                                    "bytes_per_message": round(stored / messages),
                                    "bytes_per_event": round(stored / events)}
    finally:
        await nc.close()
        await pool.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5, help="games of each kind")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    print(f"event volume — {describe()}", flush=True)
    for infra in running_infra(durable=True):
        figures = asyncio.run(measure(infra, args.games))
    for kind, game in figures["games"].items():
        print(f"  {kind} ({game['seats']} seats, default options, {game['games']} games):"
              f" {game['events_per_game']:.0f} events per game ({game['game_stream_events']:.0f} in the game's"
              f" stream, {game['rng_stream_events']:.0f} in its RNG stream), {game['commands_per_game']:.0f}"
              f" commands, {game['events_per_command']} game events per command")
    pg, jet = figures["postgresql"], figures["jetstream"]
    print(f"  PostgreSQL: {pg['events']:,} events, {pg['row_bytes']} bytes a row, {pg['bytes_per_event']} bytes per"
          f" event with the indexes ({pg['table_and_index_bytes']:,} bytes)")
    print(f"  JetStream: {jet['messages']:,} messages of {jet['events_per_message']} events on average (one a stream"
          f" and transaction), {jet['bytes_per_message']} bytes per message, {jet['bytes_per_event']} per event, one"
          " replica")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str))
        print(f"  figures written to {args.json}")


if __name__ == "__main__":
    main()
